/**
 * `npm run token -- --roles reader`: mints a signed token for local runs, as an OpenID Connect issuer would. The
 * first run creates a signing key pair in `.auth/` (git-ignored): the private key, and `.auth/jwks.json`, the
 * public key set that `npm start` reads with AUTH_JWKS_URL=file:.auth/jwks.json. Prints the token only, so
 * `TOKEN=$(npm run -s token -- --roles reader)` works. The issuer and audience default to AUTH_ISSUER and
 * AUTH_AUDIENCE, else `rrs-local` and `rrs`; the roles go into the claim AUTH_ROLES_CLAIM names (default
 * `roles`; a dotted path nests them, as Keycloak's `realm_access.roles`).
 */
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';

const root = path.resolve(__dirname, '..');
const authDir = path.join(root, '.auth');
const privateKeyFile = path.join(authDir, 'signing-key.json');
const jwksFile = path.join(authDir, 'jwks.json');
const algorithm = 'ES256';

const usage = `Usage: npm run -s token -- [--roles r1,r2] [--sub id] [--claim name=value]... [--expires seconds]
                               [--issuer iss] [--audience aud] [--roles-claim name]
Prints a token signed with the local key in .auth/ (created on first use). Serve with:
  AUTH_ISSUER=rrs-local AUTH_AUDIENCE=rrs AUTH_JWKS_URL=file:.auth/jwks.json PRIVILEGES=<file> npm start`;

/**
 * The local signing key, created on first use. Two runs at once (tests, a script) must agree on one key: the key
 * file is created with link(), which fails when it exists, and the loser uses the winner's key. The public key set
 * is derived from the key file and replaced atomically whenever it does not match it.
 */
async function signingKey(): Promise<{ key: Awaited<ReturnType<typeof importJWK>>; kid: string }> {
  mkdirSync(authDir, { recursive: true });
  if (!existsSync(privateKeyFile)) {
    const { privateKey, publicKey } = await generateKeyPair(algorithm, { extractable: true });
    const kid = await calculateJwkThumbprint(await exportJWK(publicKey));
    const draft = path.join(authDir, `signing-key.${process.pid}.tmp`);
    writeFileSync(draft, JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: algorithm }), { mode: 0o600 });
    try {
      linkSync(draft, privateKeyFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  const jwk = JSON.parse(readFileSync(privateKeyFile, 'utf8')) as JWK & { kid: string };
  const { d: _private, ...publicJwk } = jwk;
  const jwks = JSON.stringify({ keys: [{ ...publicJwk, use: 'sig' }] }, null, 2);
  if (!existsSync(jwksFile) || readFileSync(jwksFile, 'utf8') !== jwks) {
    const draft = path.join(authDir, `jwks.${process.pid}.tmp`);
    writeFileSync(draft, jwks);
    renameSync(draft, jwksFile);
  }
  return { key: await importJWK(jwk, algorithm), kid: jwk.kid };
}

/** `name=value`: the value as JSON when it parses (numbers, booleans, arrays), else as text. */
function claimOf(pair: string): [string, unknown] {
  const equals = pair.indexOf('=');
  if (equals <= 0) throw new Error(`--claim must be name=value, got "${pair}"`);
  const raw = pair.slice(equals + 1);
  try {
    return [pair.slice(0, equals), JSON.parse(raw)];
  } catch {
    return [pair.slice(0, equals), raw];
  }
}

/**
 * `roles` → { roles }, `realm_access.roles` → { realm_access: { roles } } (a name with `:` or `/`, such as
 * `cognito:groups` or `https://example.com/roles`, is one claim); `scope` gets a space-separated text.
 */
function rolesClaim(name: string, roles: readonly string[]): Record<string, unknown> {
  if (roles.length === 0) return {};
  let value: unknown = name === 'scope' ? roles.join(' ') : roles;
  const parts = /[:/]/.test(name) ? [name] : name.split('.');
  for (const part of parts.reverse()) value = { [part]: value };
  return value as Record<string, unknown>;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      roles: { type: 'string', default: '' },
      sub: { type: 'string', default: 'local-user' },
      claim: { type: 'string', multiple: true, default: [] },
      expires: { type: 'string', default: '3600' },
      issuer: { type: 'string', default: process.env.AUTH_ISSUER || 'rrs-local' },
      audience: { type: 'string', default: process.env.AUTH_AUDIENCE || 'rrs' },
      'roles-claim': { type: 'string', default: process.env.AUTH_ROLES_CLAIM || 'roles' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const expires = Number(values.expires);
  if (!Number.isInteger(expires) || expires <= 0) throw new Error(`--expires must be seconds, got "${values.expires}"`);
  const roles = values.roles.split(',').filter((role) => role !== '');
  const claims = { ...rolesClaim(values['roles-claim'], roles), ...Object.fromEntries(values.claim.map(claimOf)) };
  const { key, kid } = await signingKey();
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: algorithm, kid, typ: 'JWT' })
    .setIssuer(values.issuer)
    .setAudience(values.audience)
    .setSubject(values.sub)
    .setIssuedAt()
    .setExpirationTime(`${expires}s`)
    .sign(key);
  console.log(token);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  console.error(usage);
  process.exit(1);
});
