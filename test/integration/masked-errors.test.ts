/**
 * Error bodies through the real handlers with sign-in on: the unknown resource's 404 names its file relative to
 * the definitions folder, and a database that cannot be reached is the D20 500 (`driver message :: SQL`) with the
 * server's address masked, in text and in problem details. Without sign-in both keep today's exact text.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { forgetPrivileges } from '../../lib/auth/privileges-store';
import { closeDatabases } from '../../lib/db/select-database';
import { signInOff, startAuth, type TestAuth } from '../support/auth';
import { invoke, testDefinitions, useService } from '../support/service';

let auth: TestAuth;
let dir: string;
let port: number;

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const taken = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return taken;
}

beforeAll(async () => {
  auth = await startAuth();
  dir = mkdtempSync(path.join(tmpdir(), 'rrs-masked-'));
  writeFileSync(path.join(dir, 'privileges.properties'), '*.select=reader\n');
  port = await closedPort();
});
afterEach(closeDatabases);
afterAll(async () => {
  await useService({ ...signInOff, DATABASE_URL: undefined, DEFINITIONS_DIR: undefined });
  forgetPrivileges();
  await auth?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(signIn: boolean): Promise<Record<string, string>> {
  forgetPrivileges();
  await useService({
    ...signInOff,
    ...(signIn ? { ...auth.env, PRIVILEGES: path.join(dir, 'privileges.properties') } : {}),
    DATABASE_URL: `postgres://postgres:secret-pw@127.0.0.1:${port}/x`,
    DEFINITIONS_DIR: testDefinitions,
    DB_CONNECT_TIMEOUT_MS: '2000',
  });
  return signIn ? { authorization: `Bearer ${await auth.token({ roles: ['reader'] })}` } : {};
}

describe('with sign-in on', () => {
  it('the 404 of an unknown resource names its file relative to the definitions folder', async () => {
    const headers = await serve(true);
    const flat = await invoke({ method: 'GET', path: '/res/Nope', headers });
    expect([flat.status, flat.body]).toEqual([404, 'SQL Resource Nope not found - expected Nope.xml']);
    const dotted = await invoke({ method: 'GET', path: '/conf/metadata/shop.Nope', headers });
    expect([dotted.status, dotted.body]).toEqual([404, 'SQL Resource shop.Nope not found - expected shop/Nope.xml']);
  });

  it('a database that cannot be reached: driver message :: SQL, without its address or port', async () => {
    const headers = await serve(true);
    const text = await invoke({ method: 'GET', path: '/res/Item/1', headers });
    expect(text.status).toBe(500);
    expect(text.body).toMatch(/^connect ECONNREFUSED \*\*\* :: select item\.item_id as id, /i);
    for (const place of ['127.0.0.1', String(port), 'secret-pw']) expect(text.body).not.toContain(place);
    const problem = await invoke({
      method: 'GET',
      path: '/res/Item/1',
      headers: { ...headers, accept: 'application/problem+json' },
    });
    const detail: string = JSON.parse(problem.body).detail;
    expect(detail).toMatch(/^connect ECONNREFUSED \*\*\* :: select /i);
    expect(problem.body).not.toContain('127.0.0.1');
  });
});

describe('without sign-in: the exact text restSQL clients read', () => {
  it('the 404 names the absolute location', async () => {
    await serve(false);
    const reply = await invoke({ method: 'GET', path: '/res/Nope' });
    expect(reply.body).toBe(`SQL Resource Nope not found - expected ${testDefinitions}/Nope.xml`);
  });

  it('the 500 names the address the driver gives', async () => {
    await serve(false);
    const reply = await invoke({ method: 'GET', path: '/res/Item/1' });
    expect(reply.body).toMatch(new RegExp(`^connect ECONNREFUSED 127\\.0\\.0\\.1:${port} :: select `, 'i'));
  });
});
