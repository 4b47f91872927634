/**
 * A local token issuer for tests: an RSA and an EC signing key made in the test, their public keys served as a
 * JWKS on 127.0.0.1, and tokens signed with them. `auth.env` is what the service needs to verify them
 * (AUTH_ISSUER, AUTH_AUDIENCE, AUTH_JWKS_URL). Keys can be added while it runs (a rotated issuer) and the JWKS
 * fetches are counted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

export const testIssuer = 'https://issuer.test/';

/** The service's environment with sign-in turned off again (for useService after a test with sign-in). */
export const signInOff = {
  AUTH_ISSUER: undefined,
  AUTH_AUDIENCE: undefined,
  AUTH_JWKS_URL: undefined,
  PRIVILEGES: undefined,
} as const;
export const testAudience = 'rrs-test';

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

interface Key {
  readonly kid: string;
  readonly alg: string;
  readonly privateKey: SigningKey;
  readonly jwk: JWK;
}

export interface TokenOptions {
  /** Which key signs: 'rsa' (RS256, the default), 'ec' (ES256), or the kid of an added key. */
  readonly key?: string;
  readonly issuer?: string;
  readonly audience?: string | string[];
  /** Seconds from now; negative for an expired token. Default 300. */
  readonly expiresIn?: number;
  /** Leave `exp` out. */
  readonly noExpiry?: boolean;
  /** Seconds from now before which the token is not valid. */
  readonly notBefore?: number;
  /** The kid put in the header (default the key's own). */
  readonly kid?: string;
}

export interface TestAuth {
  /** AUTH_ISSUER, AUTH_AUDIENCE, AUTH_JWKS_URL for the service. */
  readonly env: Readonly<Record<string, string>>;
  readonly jwksUrl: string;
  /** A signed JWT carrying these claims (plus iss, aud, iat, exp). */
  token(claims?: JWTPayload, options?: TokenOptions): Promise<string>;
  /** A key the issuer signs with but has not published yet; `publish` puts it in the JWKS. */
  addKey(kid: string, options?: { publish?: boolean }): Promise<void>;
  publish(kid: string): void;
  /** How many times the JWKS was fetched. */
  fetches(): number;
  close(): Promise<void>;
}

async function makeKey(kid: string, alg: 'RS256' | 'ES256'): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export async function startAuth(): Promise<TestAuth> {
  const keys = new Map<string, Key>();
  const published = new Set<string>();
  for (const key of [await makeKey('rsa', 'RS256'), await makeKey('ec', 'ES256')]) {
    keys.set(key.kid, key);
    published.add(key.kid);
  }
  let fetches = 0;
  const server: Server = createServer((_request, response) => {
    fetches += 1;
    const body = JSON.stringify({ keys: [...published].map((kid) => keys.get(kid)?.jwk) });
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  return {
    env: { AUTH_ISSUER: testIssuer, AUTH_AUDIENCE: testAudience, AUTH_JWKS_URL: jwksUrl },
    jwksUrl,
    async token(claims = {}, options = {}) {
      const key = keys.get(options.key ?? 'rsa');
      if (!key) throw new Error(`No test key ${options.key}`);
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: key.alg, kid: options.kid ?? key.kid, typ: 'JWT' })
        .setIssuer(options.issuer ?? testIssuer)
        .setAudience(options.audience ?? testAudience)
        .setIssuedAt(now);
      if (!options.noExpiry) jwt.setExpirationTime(now + (options.expiresIn ?? 300));
      if (options.notBefore !== undefined) jwt.setNotBefore(now + options.notBefore);
      return jwt.sign(key.privateKey);
    },
    async addKey(kid, { publish = true } = {}) {
      keys.set(kid, await makeKey(kid, 'ES256'));
      if (publish) published.add(kid);
    },
    publish(kid) {
      published.add(kid);
    },
    fetches: () => fetches,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
