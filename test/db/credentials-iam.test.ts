/**
 * DATABASE_IAM_AUTH=true: each new connection logs in with an RDS IAM token freshly signed by the real
 * @aws-sdk/rds-signer (fixed fake credentials: it signs locally, no network), sent over TLS, and requests reuse
 * pooled connections without signing again.
 * - PostgreSQL: a private cluster that checks passwords (scram-sha-256) over TLS. The clock is fixed (only Date is
 *   faked), so the test signs the same token as the service and makes it the user's password: a login succeeds
 *   only when that token reached the server as the password. Moving the clock and the password on proves that a
 *   new connection signs a new token.
 * - MySQL: RDS asks for the token in clear (mysql_clear_password), which no MariaDB server does without PAM; an
 *   endpoint that speaks that part of the protocol (credentials-mysql-iam.ts) records what arrives.
 * - TLS: the token never leaves without TLS, and by default only to a server whose certificate verifies.
 */
import { Signer } from '@aws-sdk/rds-signer';
import postgres from 'postgres';
import { readConfig } from '../../lib/config';
import type { Database } from '../../lib/db/database';
import { closeDatabases, selectDatabase } from '../../lib/db/select-database';
import { ServiceError } from '../../lib/errors';
import { type MysqlIamEndpoint, startMysqlIamEndpoint } from '../support/credentials-mysql-iam';
import { type PrivatePostgres, postgresBinDir, startPrivatePostgres } from '../support/credentials-postgres';
import { fakeAwsEnv } from '../support/fake-secrets-manager';
import { noteLeftOut, noteMissingTool, serverUrl, testServers } from '../support/left-out';
import { invoke, testDefinitions, useService } from '../support/service';

const region = 'eu-west-1';
const user = 'rrs_iam';
const select = { text: 'SELECT 1 AS one', params: [] };
const pool = { DB_POOL_SIZE: '2', DB_CONNECT_TIMEOUT_MS: '3000', DB_IDLE_TIMEOUT_S: '300', AWS_REGION: region };
const t0 = new Date('2026-03-01T10:00:00Z').getTime();
const saved = { ...process.env };
const awsEnv = fakeAwsEnv('http://127.0.0.1:1');

/** Fakes only the clock: timers and I/O run for real, Date stands still where the test puts it. */
function fixClock(at: number): void {
  jest.useFakeTimers({
    now: at,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
}

const tokenFor = (port: number, at: number) => {
  jest.setSystemTime(at);
  return new Signer({ hostname: '127.0.0.1', port, username: user, region }).getAuthToken();
};

async function failure(call: () => Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return { status: error.status, code: error.code, message: error.message };
}

/** A call that needs a second, new connection while the first one is held. */
const withNewConnection = (db: Database) =>
  db.transaction(async (tx) => {
    await tx.run(select);
    return db.run(select);
  });

let signs: jest.SpyInstance;
beforeAll(() => {
  Object.assign(process.env, awsEnv);
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
});
beforeEach(() => {
  fixClock(t0);
  signs = jest.spyOn(Signer.prototype, 'getAuthToken');
});
afterEach(async () => {
  signs.mockRestore();
  jest.useRealTimers();
  await closeDatabases();
});
afterAll(() => {
  for (const key of [...Object.keys(awsEnv), 'AWS_SESSION_TOKEN', 'AWS_PROFILE']) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

const binDir = postgresBinDir();
if (!binDir) noteMissingTool('initdb and pg_ctl (a PostgreSQL server)', 'apt-get install postgresql');

if (binDir) {
  describe('IAM tokens on PostgreSQL (a private cluster checking passwords, TLS on)', () => {
    let cluster: PrivatePostgres;
    let admin: postgres.Sql;
    const setPassword = (password: string) => admin.unsafe(`ALTER USER ${user} PASSWORD '${password}'`);
    const sessions = async () =>
      Number((await admin.unsafe('SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1', [user]))[0]?.n);
    const url = (query = '') => `postgres://${user}@127.0.0.1:${cluster.port}/postgres${query}`;

    beforeAll(async () => {
      cluster = await startPrivatePostgres(binDir as string);
      admin = postgres(cluster.adminUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`CREATE USER ${user} PASSWORD 'not-a-token'`);
    });
    afterAll(async () => {
      await admin?.end();
      cluster?.stop();
    });

    it('each new connection signs a fresh token, which reaches the server as the password; requests reuse the pool', async () => {
      await setPassword(await tokenFor(cluster.port, t0));
      signs.mockClear();
      const config = readConfig({ DATABASE_URL: url('?sslmode=require'), DATABASE_IAM_AUTH: 'true', ...pool });
      const db = await selectDatabase(config);
      for (let i = 0; i < 5; i++) expect((await db.run(select)).rows).toEqual([{ one: '1' }]);
      expect(signs).toHaveBeenCalledTimes(1);
      expect(await sessions()).toBe(1);

      // a minute later, with the token of that minute as the password: only a freshly signed token logs in
      const t1 = t0 + 60_000;
      await setPassword(await tokenFor(cluster.port, t1));
      signs.mockClear();
      expect((await withNewConnection(db)).rows).toEqual([{ one: '1' }]);
      expect(signs).toHaveBeenCalledTimes(1);
      expect(await sessions()).toBe(2);
      for (let i = 0; i < 5; i++) await withNewConnection(db);
      expect(signs).toHaveBeenCalledTimes(1);
    });

    it('a token the server refuses: a clear 500, and the token is not in it', async () => {
      await setPassword('not-a-token');
      const token = await tokenFor(cluster.port, t0);
      const config = readConfig({ DATABASE_URL: url('?sslmode=require'), DATABASE_IAM_AUTH: 'true', ...pool });
      const error = await failure(async () => (await selectDatabase(config)).run(select));
      expect(error).toEqual({
        status: 500,
        code: 'database_unreachable',
        message: `The database refused the IAM authentication token of user ${user} (DATABASE_IAM_AUTH=true); the user must be allowed to log in with IAM (rds-db:connect) and, behind RDS Proxy, the proxy must require IAM authentication: password authentication failed for user "${user}" :: SELECT 1 AS one`,
      });
      expect(error.message).not.toContain(token.slice(-20));
    });

    it('TLS is verified by default: a certificate that does not verify gets no token', async () => {
      await setPassword(await tokenFor(cluster.port, t0));
      signs.mockClear();
      const config = readConfig({ DATABASE_URL: url(), DATABASE_IAM_AUTH: 'true', ...pool });
      const error = await failure(async () => (await selectDatabase(config)).run(select));
      expect(error).toMatchObject({ status: 500, message: 'self-signed certificate :: SELECT 1 AS one' });
      expect(signs).not.toHaveBeenCalled();
    });

    it('no credentials to sign with: a clear 500 naming the user and server', async () => {
      const config = readConfig({ DATABASE_URL: url('?sslmode=require'), DATABASE_IAM_AUTH: 'true', ...pool });
      delete process.env.AWS_ACCESS_KEY_ID;
      try {
        const error = await failure(async () => (await selectDatabase(config)).run(select));
        expect(error).toMatchObject({
          status: 500,
          code: 'database_unreachable',
          message: expect.stringMatching(
            new RegExp(
              `^Signing an IAM authentication token for user ${user} at 127.0.0.1:${cluster.port} \\(DATABASE_IAM_AUTH=true, region ${region}\\) failed: CredentialsProviderError: `,
            ),
          ),
        });
      } finally {
        process.env.AWS_ACCESS_KEY_ID = awsEnv.AWS_ACCESS_KEY_ID;
      }
    });

    it('no credentials to sign with, for calls side by side: each call says so, none takes it from another', async () => {
      const config = readConfig({ DATABASE_URL: url('?sslmode=require'), DATABASE_IAM_AUTH: 'true', ...pool });
      delete process.env.AWS_ACCESS_KEY_ID;
      try {
        const db = await selectDatabase(config);
        const errors = await Promise.all([1, 2, 3].map(() => failure(() => db.run(select))));
        for (const error of errors) {
          expect(error).toMatchObject({
            code: 'database_unreachable',
            message: expect.stringMatching(/^Signing an IAM authentication token for user /),
          });
        }
      } finally {
        process.env.AWS_ACCESS_KEY_ID = awsEnv.AWS_ACCESS_KEY_ID;
      }
    });
  });
}

const sharedPostgres = testServers.find((server) => server.name === 'postgres');
const sharedPostgresUrl = sharedPostgres && serverUrl(sharedPostgres);
if (sharedPostgres && !sharedPostgresUrl) noteLeftOut([sharedPostgres]);

if (sharedPostgresUrl) {
  it('PostgreSQL: a server without TLS (TEST_PG_URL) gets no token, and the 500 says why', async () => {
    const target = new URL(sharedPostgresUrl as string);
    target.username = user;
    target.password = '';
    const config = readConfig({ DATABASE_URL: target.toString(), DATABASE_IAM_AUTH: 'true', ...pool });
    const error = await failure(async () => (await selectDatabase(config)).run(select));
    expect(error).toEqual({
      status: 500,
      code: 'database_unreachable',
      message: `The database server at ${target.host} hung up when TLS began: with DATABASE_IAM_AUTH=true the token is sent only over TLS, which this server does not seem to offer: Client network socket disconnected before secure TLS connection was established :: SELECT 1 AS one`,
    });
    expect(signs).not.toHaveBeenCalled();
  });
}

describe('IAM tokens on MySQL (mysql_clear_password over TLS)', () => {
  let endpoint: MysqlIamEndpoint;
  let plain: MysqlIamEndpoint;
  const url = (port: number, query = '') => `mysql://${user}@127.0.0.1:${port}/db${query}`;

  beforeAll(async () => {
    endpoint = await startMysqlIamEndpoint({ tls: true });
    plain = await startMysqlIamEndpoint({ tls: false });
  });
  afterAll(async () => {
    await endpoint?.stop();
    await plain?.stop();
  });

  it('each new connection sends a freshly signed token, over TLS; requests reuse the pool', async () => {
    endpoint.logins.length = 0;
    const config = readConfig({ DATABASE_URL: url(endpoint.port, '?ssl=require'), DATABASE_IAM_AUTH: 'true', ...pool });
    const db = await selectDatabase(config);
    for (let i = 0; i < 5; i++) await db.run(select);
    const t1 = t0 + 60_000;
    jest.setSystemTime(t1);
    await withNewConnection(db);
    for (let i = 0; i < 5; i++) await withNewConnection(db);
    expect(signs).toHaveBeenCalledTimes(2);
    expect(endpoint.logins).toEqual([
      { user, password: await tokenFor(endpoint.port, t0), tls: true },
      { user, password: await tokenFor(endpoint.port, t1), tls: true },
    ]);
    expect(endpoint.logins[0]?.password).not.toBe(endpoint.logins[1]?.password);
  });

  it('TLS is verified by default (the RDS CAs): a certificate that does not verify gets no token', async () => {
    endpoint.logins.length = 0;
    const config = readConfig({ DATABASE_URL: url(endpoint.port), DATABASE_IAM_AUTH: 'true', ...pool });
    const error = await failure(async () => (await selectDatabase(config)).run(select));
    expect(error).toMatchObject({ status: 500, message: 'self-signed certificate :: SELECT 1 AS one' });
    expect(endpoint.logins).toEqual([]);
    expect(signs).not.toHaveBeenCalled();
  });

  it('a server without TLS gets no token', async () => {
    const config = readConfig({ DATABASE_URL: url(plain.port, '?ssl=require'), DATABASE_IAM_AUTH: 'true', ...pool });
    const error = await failure(async () => (await selectDatabase(config)).run(select));
    expect(error).toMatchObject({
      status: 500,
      message: 'Server does not support secure connection :: SELECT 1 AS one',
    });
    expect(plain.logins).toEqual([]);
    expect(signs).not.toHaveBeenCalled();
  });

  it('no credentials to sign with, through the read handler: the 500 says so (the catalog probe is the first call)', async () => {
    endpoint.logins.length = 0;
    const url = `mysql://${user}@127.0.0.1:${endpoint.port}/db?ssl=require`;
    await useService({ DEFINITIONS_DIR: testDefinitions, DATABASE_URL: url, DATABASE_IAM_AUTH: 'true', ...pool });
    delete process.env.AWS_ACCESS_KEY_ID;
    try {
      const reply = await invoke({ method: 'GET', path: '/res/Item/1' });
      expect(reply.status).toBe(500);
      expect(reply.body).toMatch(
        new RegExp(
          `^Signing an IAM authentication token for user ${user} at 127.0.0.1:${endpoint.port} \\(DATABASE_IAM_AUTH=true, region ${region}\\) failed: CredentialsProviderError: `,
        ),
      );
      expect(endpoint.logins).toEqual([{ user, password: '', tls: true }]);
    } finally {
      process.env.AWS_ACCESS_KEY_ID = awsEnv.AWS_ACCESS_KEY_ID;
      await useService({
        DEFINITIONS_DIR: saved.DEFINITIONS_DIR,
        DATABASE_URL: saved.DATABASE_URL,
        DATABASE_IAM_AUTH: saved.DATABASE_IAM_AUTH,
        DB_POOL_SIZE: saved.DB_POOL_SIZE,
        DB_CONNECT_TIMEOUT_MS: saved.DB_CONNECT_TIMEOUT_MS,
        DB_IDLE_TIMEOUT_S: saved.DB_IDLE_TIMEOUT_S,
        AWS_REGION: region,
      });
    }
  });
});
