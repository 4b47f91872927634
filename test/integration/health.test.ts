/**
 * GET /health (liveness: touches nothing) and GET /health/db (SELECT 1 on every configured database), through
 * the real health handler: JSON bodies, Cache-Control no-store, no token asked for even with sign-in on, 405 for
 * other methods, and a 503 that names the failing database by its variable only: no host, address or password,
 * and within DB_CONNECT_TIMEOUT_MS. The failure text itself is checked with a table (healthFailureText).
 */

import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { healthFailureText } from '../../lib/db/check-databases';
import { closeDatabases } from '../../lib/db/select-database';
import { DatabaseError } from '../../lib/errors';
import { healthCacheMs } from '../../lib/http/serve-health';
import { startAuth, type TestAuth } from '../support/auth';
import { type TestDatabase, targets } from '../support/databases';
import { invoke, testDefinitions, useService } from '../support/service';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

/** Every variable these tests set, unset, so each test starts from its own environment only. */
const clean = {
  DATABASE_URL: undefined,
  DATABASE_READ_URL: undefined,
  DATABASE_URL_SPARE: undefined,
  DATABASE_READ_URL_SPARE: undefined,
  DB_CONNECT_TIMEOUT_MS: undefined,
  DB_POOL_SIZE: undefined,
  AUTH_ISSUER: undefined,
  AUTH_AUDIENCE: undefined,
  AUTH_JWKS_URL: undefined,
  DEFINITIONS_DIR: testDefinitions,
};

const get = (path: string) => invoke({ method: 'GET', path });

/** A TCP server that accepts connections and never says a word: a database that does not answer. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

afterAll(async () => {
  await useService(clean);
});

describe('GET /health: liveness', () => {
  let auth: TestAuth;
  beforeAll(async () => {
    auth = await startAuth();
  });
  afterAll(async () => auth?.close());

  it('answers 200 {"status":"ok"}, no-store, without any database configured', async () => {
    await useService(clean);
    const reply = await get('/health');
    expect(reply).toMatchObject({
      status: 200,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      body: '{"status":"ok"}',
    });
  });

  it('answers even when the configuration is invalid: it reads none of it', async () => {
    await useService({ ...clean, DB_POOL_SIZE: '0', DATABASE_URL: 'postgres://u:pw@127.0.0.1:1/db' });
    expect((await get('/health')).status).toBe(200);
    const db = await get('/health/db');
    expect([db.status, db.body]).toEqual([500, 'DB_POOL_SIZE must be a positive integer, got "0"']);
  });

  it('asks for no token with sign-in on, where /res does', async () => {
    await useService({ ...clean, ...auth.env });
    expect((await get('/res')).status).toBe(401);
    const reply = await get('/health');
    expect([reply.status, reply.body]).toEqual([200, '{"status":"ok"}']);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])(
    '%s /health and /health/db are a 405 allowing GET and HEAD',
    async (method) => {
      await useService(clean);
      for (const path of ['/health', '/health/db']) {
        const reply = await invoke({ method, path });
        expect([reply.status, reply.headers.allow]).toEqual([405, 'GET, HEAD']);
      }
    },
  );
});

describe.each(targets())('GET /health/db on $name', (target) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await target.create();
  });
  afterAll(async () => {
    await closeDatabases();
    await db?.drop();
  });

  it('answers 200 with each configured database by its variable and its round-trip time', async () => {
    await useService({ ...clean, DATABASE_URL: db.url, DATABASE_URL_SPARE: db.url, DATABASE_READ_URL: db.url });
    const reply = await get('/health/db');
    expect([reply.status, reply.headers['content-type'], reply.headers['cache-control']]).toEqual([
      200,
      'application/json',
      'no-store',
    ]);
    const body = JSON.parse(reply.body);
    expect(body).toEqual({
      status: 'ok',
      databases: ['DATABASE_URL', 'DATABASE_URL_SPARE', 'DATABASE_READ_URL'].map((name) => ({
        name,
        status: 'ok',
        ms: expect.any(Number),
      })),
    });
    expect(reply.body).not.toContain(new URL(db.url).hostname);
  });

  it('answers 200 with sign-in on and no token', async () => {
    const auth = await startAuth();
    try {
      await useService({ ...clean, DATABASE_URL: db.url, ...auth.env });
      expect((await get('/health/db')).status).toBe(200);
    } finally {
      await auth.close();
    }
  });

  it('answers 503 naming the reader that refuses connections, without its host or password', async () => {
    const dead = `${target.engine === 'mysql' ? 'mysql' : 'postgres'}://ro:s3cret-pw@127.0.0.1:1/replica`;
    await useService({ ...clean, DATABASE_URL: db.url, DATABASE_READ_URL: dead });
    const reply = await get('/health/db');
    expect(reply.status).toBe(503);
    const body = JSON.parse(reply.body);
    expect(body).toEqual({
      status: 'failed',
      databases: [
        { name: 'DATABASE_URL', status: 'ok', ms: expect.any(Number) },
        { name: 'DATABASE_READ_URL', status: 'failed', error: expect.stringMatching(/ECONNREFUSED/) },
      ],
    });
    for (const secret of ['s3cret', '127.0.0.1', 'SELECT 1', ':1/']) expect(reply.body).not.toContain(secret);
  });
});

describe('GET /health/db reuses its answer for a few seconds (PGlite, behind a proxy that counts the checks)', () => {
  const [pglite] = targets();
  let db: TestDatabase;
  let proxy: TcpProxy;
  beforeAll(async () => {
    if (!pglite) throw new Error('no PGlite target');
    db = await pglite.create();
    const { hostname, port } = new URL(db.url);
    proxy = await startTcpProxy({ host: hostname, port: Number(port) });
  });
  afterAll(async () => {
    await closeDatabases();
    await proxy?.close();
    await db?.drop();
  });

  it('calls at once share one check, and calls within healthCacheMs get its answer', async () => {
    await useService({ ...clean, DATABASE_URL: proxy.url(db.url) });
    const checks = proxy.watch(/SELECT 1/);
    const replies = await Promise.all(Array.from({ length: 20 }, () => get('/health/db')));
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 200));
    expect(new Set(replies.map((reply) => reply.body)).size).toBe(1);
    expect(checks()).toBe(1);
    const later = await get('/health/db');
    expect([later.status, later.body, checks()]).toEqual([200, replies[0]?.body, 1]);
  });

  it('checks again once healthCacheMs has passed, and reuses a failed answer too', async () => {
    await useService({ ...clean, DATABASE_URL: proxy.url(db.url) });
    const checks = proxy.watch(/SELECT 1/);
    expect((await get('/health/db')).status).toBe(200);
    await proxy.refuse();
    // still the answer of a moment ago: the database is not asked
    expect((await get('/health/db')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, healthCacheMs + 200));
    expect((await get('/health/db')).status).toBe(503);
    await proxy.heal();
    expect((await get('/health/db')).status).toBe(503);
    expect(checks()).toBe(1);
  }, 20_000);

  it('answers a changed configuration afresh', async () => {
    await useService({ ...clean, DATABASE_URL: proxy.url(db.url) });
    expect((await get('/health/db')).status).toBe(200);
    await useService({ ...clean, DATABASE_URL: proxy.url(db.url), DATABASE_READ_URL: 'postgres://u@127.0.0.1:1/x' });
    expect((await get('/health/db')).status).toBe(503);
  });
});

describe('GET /health/db for a database that never answers', () => {
  let silent: Awaited<ReturnType<typeof silentServer>>;
  beforeAll(async () => {
    silent = await silentServer();
  });
  afterAll(async () => {
    // a mysql2 pool still connecting to the silent server ends with that connection's timeout
    await closeDatabases().catch(() => {});
    await silent?.close();
  });

  it.each(['postgres', 'mysql'])('%s: 503 within DB_CONNECT_TIMEOUT_MS, naming DATABASE_URL', async (scheme) => {
    await useService({
      ...clean,
      DATABASE_URL: `${scheme}://u:pw@127.0.0.1:${silent.port}/db`,
      DB_CONNECT_TIMEOUT_MS: '700',
    });
    const started = Date.now();
    const reply = await get('/health/db');
    const waited = Date.now() - started;
    expect(reply.status).toBe(503);
    const [check] = JSON.parse(reply.body).databases;
    expect(check).toEqual({ name: 'DATABASE_URL', status: 'failed', error: expect.any(String) });
    expect(check.error).not.toContain('127.0.0.1');
    expect(waited).toBeLessThan(700 + 1000);
  });
});

describe('healthFailureText: why a database failed, without where it is', () => {
  const url = 'postgres://ro:p%40ss@db.cluster-ro-abc.eu-west-1.rds.amazonaws.com:5432/shop';
  it.each([
    {
      name: 'the statement that was to run is cut off',
      message: 'connect ECONNREFUSED 10.0.3.7:5432 :: SELECT 1',
      expected: 'connect ECONNREFUSED ***',
    },
    {
      name: "the URL's host name",
      message: 'getaddrinfo ENOTFOUND db.cluster-ro-abc.eu-west-1.rds.amazonaws.com :: SELECT 1',
      expected: 'getaddrinfo ENOTFOUND ***',
    },
    {
      name: 'a host name the URL does not hold (from the secret)',
      message: 'getaddrinfo ENOTFOUND other.abc.eu-west-1.rds.amazonaws.com',
      expected: 'getaddrinfo ENOTFOUND ***',
    },
    {
      name: 'IPv6 addresses and the password, as given and decoded',
      message: "Access denied for user 'ro'@'::1' (using password: p@ss, p%40ss)",
      expected: "Access denied for user 'ro'@'***' (using password: ***, ***)",
    },
    {
      name: 'a message with nothing to hide is kept',
      message: 'password authentication failed for user "ro"',
      expected: 'password authentication failed for user "ro"',
    },
  ])('$name', ({ message, expected }) => {
    expect(healthFailureText(new DatabaseError('database_unreachable', message), url)).toBe(expected);
  });

  it('an error that is not the service’s says nothing of itself', () => {
    expect(healthFailureText(new Error('at 10.0.0.1 secret stack'), url)).not.toMatch(/10\.0\.0\.1|secret/);
  });
});
