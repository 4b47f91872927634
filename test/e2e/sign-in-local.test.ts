/**
 * The README's "Securing it" walk-through, end to end: `npm run token` mints tokens with a local key, `npm start`
 * runs with sign-in on (AUTH_ISSUER, AUTH_AUDIENCE, AUTH_JWKS_URL=file:.auth/jwks.json) and the demo privileges
 * file, and real HTTP requests get 401, 403 and 200 as the roles say.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { freePort, type LocalProcess, root, serviceEnv, startProcess } from '../support/local-process';

const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const signIn = {
  AUTH_ISSUER: 'rrs-local',
  AUTH_AUDIENCE: 'rrs',
  AUTH_JWKS_URL: 'file:.auth/jwks.json',
  PRIVILEGES: 'definitions/privileges.properties',
};
const token = (...args: string[]) =>
  execFileSync(tsx, ['scripts/token.ts', ...args], { cwd: root, env: serviceEnv(signIn), encoding: 'utf8' }).trim();

let server: LocalProcess;
let base = '';
let output = '';
const tokens: Record<string, string> = {};

beforeAll(async () => {
  for (const role of ['reader', 'writer', 'admin', 'auditor']) tokens[role] = token('--roles', role);
  const port = await freePort();
  base = `http://localhost:${port}`;
  server = await startProcess(
    tsx,
    ['scripts/start.ts'],
    serviceEnv({ ...signIn, PORT: String(port) }),
    'Stop with Ctrl-C',
  );
  output = server.output();
}, 130_000);

afterAll(() => server?.stop());

const call = (role: string | undefined, p: string, init: RequestInit = {}) =>
  fetch(`${base}${p}`, {
    ...init,
    headers: {
      accept: 'application/json',
      ...(role ? { authorization: `Bearer ${tokens[role]}` } : {}),
      ...init.headers,
    },
  });

it('prints that sign-in is on, with the issuer, the keys and the privileges file', () => {
  expect(output).toContain('Sign-in: on. Tokens from rrs-local for rrs, keys from file:.auth/jwks.json');
  expect(output).toContain('Privileges: definitions/privileges.properties; roles from the claim roles');
  expect(output).toContain('TOKEN=$(npm run -s token -- --roles reader)');
  expect(output).toContain(`curl -H "Authorization: Bearer $TOKEN" ${base}/res/Publisher`);
});

it('prints a token and nothing else', () => {
  expect(tokens.reader).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  const payload = JSON.parse(Buffer.from(String(tokens.reader?.split('.')[1]), 'base64url').toString());
  expect(payload).toMatchObject({ iss: 'rrs-local', aud: 'rrs', sub: 'local-user', roles: ['reader'] });
  expect(payload.exp - payload.iat).toBe(3600);
});

it('refuses a request without a token, and one with a token of another issuer', async () => {
  const none = await call(undefined, '/res/Publisher/1');
  expect(none.status).toBe(401);
  expect(none.headers.get('www-authenticate')).toBe('Bearer realm="relational-resource-service"');
  expect(await none.text()).toBe('Sign-in required: send the header Authorization: Bearer <token>');
  const other = await fetch(`${base}/res/Publisher/1`, {
    headers: { authorization: `Bearer ${token('--roles', 'admin', '--issuer', 'https://elsewhere.example/')}` },
  });
  expect([other.status, await other.text()]).toEqual([401, 'The token was not issued by rrs-local']);
});

it('lets each role do what the privileges file grants, and no more', async () => {
  expect((await call('reader', '/res/Publisher/1')).status).toBe(200);
  const denied = await call('reader', '/res/Publisher/1', { method: 'DELETE' });
  expect([denied.status, await denied.text()]).toEqual([403, 'Roles reader may not delete Publisher']);
  const created = await call('writer', '/res/Publisher', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'name=Signed+In&country=NO&founded=2026',
  });
  expect(created.status).toBe(200);
  const { publishers } = (await created.json()) as { publishers: { id: number }[] };
  const gone = await call('admin', `/res/Publisher/${publishers[0]?.id}`, { method: 'DELETE' });
  expect(await gone.json()).toEqual({ rowsAffected: 1 });
  expect((await call('auditor', '/res/PriceHistory')).status).toBe(200);
  const auditor = await call('auditor', '/res/Publisher/1');
  expect([auditor.status, await auditor.text()]).toEqual([403, 'Roles auditor may not select Publisher']);
});

it('lists for each caller only what it may read', async () => {
  const names = async (role: string) =>
    ((await (await call(role, '/res')).json()) as { resources: { name: string }[] }).resources.map((r) => r.name);
  expect(await names('auditor')).toEqual(['PriceHistory']);
  const reader = await names('reader');
  expect(reader).toContain('Publisher');
  expect(reader).toContain('PriceHistory');
});
