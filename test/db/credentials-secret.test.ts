/**
 * DATABASE_SECRET_ARN on servers that check passwords (MariaDB, and a private PostgreSQL cluster): the service's
 * real Secrets Manager client reads the RDS secret JSON from a fake Secrets Manager (fake-secrets-manager.ts) once
 * per container, with DATABASE_URL absent or without a password. A rotated password (the user's password changed,
 * the secret updated) costs one failed login of a new connection, exactly one fetch again and a retry; a secret
 * that stays wrong is a clear 500, fetched again once per request, never a loop. The secret's failures (missing,
 * denied, not JSON, Secrets Manager unreachable) are 500s that name the ARN and no secret value; the secret is read
 * in the region its ARN names.
 */
import { readConfig } from '../../lib/config';
import type { Database } from '../../lib/db/database';
import { fetchSecret } from '../../lib/db/fetch-secret';
import { closeDatabases, selectDatabase } from '../../lib/db/select-database';
import { ServiceError } from '../../lib/errors';
import { type CheckingServer, checkingServers, uniqueName } from '../support/credentials-servers';
import { type FakeSecretsManager, fakeAwsEnv, startFakeSecretsManager } from '../support/fake-secrets-manager';
import { invoke, testDefinitions, useService } from '../support/service';

const arnOf = (name: string) => `arn:aws:secretsmanager:eu-west-1:123456789012:secret:${name}`;
const select = { text: 'SELECT name FROM t WHERE id = 1', params: [] };
const pool = { DB_POOL_SIZE: '2', DB_CONNECT_TIMEOUT_MS: '3000', DB_IDLE_TIMEOUT_S: '300' };

let fake: FakeSecretsManager;
const saved = { ...process.env };

beforeAll(async () => {
  fake = await startFakeSecretsManager();
  Object.assign(process.env, fakeAwsEnv(fake.endpoint));
});
afterEach(closeDatabases);
afterAll(async () => {
  for (const key of Object.keys(fakeAwsEnv(''))) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  await fake?.stop();
});

/** The error a call rejects with, as the service answers it. */
async function failure(call: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return { status: error.status, code: error.code, message: error.message };
}

describe("the secret is read in its ARN's region", () => {
  it.each([
    ['arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/regions', 'eu-west-1'],
    ['arn:aws-cn:secretsmanager:cn-north-1:1:secret:rrs/regions', 'cn-north-1'],
    ['arn:aws:secretsmanager:us-east-2:123456789012:secret:rrs/regions', 'us-east-2'],
  ])('%s: signed for %s', async (arn, region) => {
    await fetchSecret(arn).catch(() => undefined);
    expect(fake.regions(arn)).toEqual([region]);
  });

  it.each(['rrs/db', 'arn:aws:s3:::bucket', 'arn:aws:secretsmanager::1:secret:x'])(
    '%s is no secret ARN: refused before any request',
    async (arn) => {
      expect(await failure(fetchSecret(arn))).toEqual({
        status: 500,
        code: 'database_unconfigured',
        message: `DATABASE_SECRET_ARN is not a Secrets Manager secret ARN (arn:aws:secretsmanager:region:account:secret:name): ${arn}`,
      });
      expect(fake.calls(arn)).toBe(0);
    },
  );
});

describe("the secret's failures: a 500 naming the ARN, never a secret value", () => {
  const run = async (arn: string) =>
    (await selectDatabase(readConfig({ DATABASE_SECRET_ARN: arn, ...pool }))).run(select);

  it.each([
    {
      name: 'a secret that does not exist',
      answer: undefined,
      code: 'database_unconfigured',
      detail: "failed: ResourceNotFoundException: Secrets Manager can't find the specified secret.",
    },
    {
      name: 'a secret the role may not read',
      answer: { error: 'AccessDeniedException', message: 'User rrs is not authorized to perform GetSecretValue' },
      code: 'database_unconfigured',
      detail: 'failed: AccessDeniedException: User rrs is not authorized to perform GetSecretValue',
    },
    {
      name: 'Secrets Manager failing',
      answer: { error: 'InternalServiceError', message: 'try again' },
      code: 'database_unreachable',
      detail: 'failed: InternalServiceError: try again',
    },
  ])('$name', async ({ answer, code, detail }) => {
    const arn = arnOf(uniqueName('rrs/failing'));
    if (answer) fake.set(arn, answer);
    expect(await failure(run(arn))).toEqual({
      status: 500,
      code,
      message: `Reading the database secret ${arn} (DATABASE_SECRET_ARN) from Secrets Manager ${detail}`,
    });
  });

  it.each([
    { text: 'username=app password=hunter2', problem: 'is not JSON' },
    { text: '{"username":"app","host":"h","engine":"mysql","note":"hunter2"}', problem: 'lacks "password"' },
    {
      text: '{"username":"app","password":"hunter2","engine":"postgres"}',
      problem: 'lacks "host", which is needed when DATABASE_URL is not set',
    },
  ])('a secret that $problem', async ({ text, problem }) => {
    const arn = arnOf(uniqueName('rrs/malformed'));
    fake.set(arn, { secretString: text });
    const error = await failure(run(arn));
    expect(error).toEqual({
      status: 500,
      code: 'database_unconfigured',
      message: `The database secret ${arn} (DATABASE_SECRET_ARN) ${problem}; it must hold the RDS secret JSON {"username", "password", "host", "port", "dbname", "engine"}`,
    });
    expect(error.message).not.toContain('hunter2');
  });

  it('Secrets Manager unreachable: database_unreachable, within seconds', async () => {
    const arn = arnOf(uniqueName('rrs/unreachable'));
    const started = Date.now();
    process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = 'http://127.0.0.1:1';
    const error = await failure(run(arn)).finally(() => {
      process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = fake.endpoint;
    });
    expect(error).toMatchObject({
      status: 500,
      code: 'database_unreachable',
      message: expect.stringMatching(
        new RegExp(
          `^Reading the database secret ${arn} \\(DATABASE_SECRET_ARN\\) from Secrets Manager failed: .*ECONNREFUSED`,
        ),
      ),
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a failed fetch is not cached: the next request fetches again', async () => {
    const arn = arnOf(uniqueName('rrs/later'));
    const config = readConfig({ DATABASE_SECRET_ARN: arn, ...pool });
    await failure(selectDatabase(config));
    expect(fake.calls(arn)).toBe(1);
    await failure(selectDatabase(config));
    expect(fake.calls(arn)).toBe(2);
  });

  it('a request through the read handler: the 500 body is the message', async () => {
    const arn = arnOf(uniqueName('rrs/handler'));
    fake.set(arn, { secretString: '{"username":"app","password":"hunter2","host":"h"}' });
    await useService({ DEFINITIONS_DIR: testDefinitions, DATABASE_URL: undefined, DATABASE_SECRET_ARN: arn });
    try {
      const reply = await invoke({ method: 'GET', path: '/res/Item/1' });
      expect(reply.status).toBe(500);
      expect(reply.body).toBe(
        `The database secret ${arn} (DATABASE_SECRET_ARN) lacks "engine", which is needed when DATABASE_URL is not set; it must hold the RDS secret JSON {"username", "password", "host", "port", "dbname", "engine"}`,
      );
    } finally {
      await useService({ DATABASE_SECRET_ARN: saved.DATABASE_SECRET_ARN, DEFINITIONS_DIR: saved.DEFINITIONS_DIR });
    }
  });
});

for (const choice of checkingServers()) {
  describe(`the secret's login on ${choice.name}`, () => {
    let server: CheckingServer;
    const user = uniqueName('rrs_secret');
    const database = uniqueName('rrs_secret_db');
    const arn = arnOf(uniqueName(`rrs/${choice.name}`));
    const secret = (password: string) => ({
      secretString: JSON.stringify({
        username: user,
        password,
        host: server.host,
        port: server.port,
        dbname: database,
        engine: server.engine,
        dbInstanceIdentifier: 'rrs-test',
      }),
    });
    const urlWithoutPassword = () => `${server.scheme}://${user}@${server.host}:${server.port}/${database}`;
    /** The service's client, with a pooled connection open, and a second (new) connection made during `fn`. */
    const withNewConnection = (db: Database) =>
      db.transaction(async (tx) => {
        await tx.run(select);
        return db.run(select);
      });

    beforeAll(async () => {
      server = await choice.start();
      await server.createLogin(user, database, 'First-Pass-1');
      fake.set(arn, secret('First-Pass-1'));
    });
    afterAll(async () => {
      await closeDatabases();
      await server?.stop();
    });

    it.each([
      { name: 'DATABASE_URL absent: the secret names the server', env: () => ({}) },
      { name: 'DATABASE_URL without a password', env: () => ({ DATABASE_URL: urlWithoutPassword() }) },
    ])('$name: fetched once, then cached', async ({ env }) => {
      await closeDatabases();
      const before = fake.calls(arn);
      const config = readConfig({ DATABASE_SECRET_ARN: arn, ...pool, ...env() });
      for (let i = 0; i < 5; i++) {
        const { rows } = await (await selectDatabase(config)).run(select);
        expect(rows).toEqual([{ name: 'first' }]);
      }
      expect(fake.calls(arn) - before).toBe(1);
    });

    it('a rotated password: the next new connection is refused once, the secret fetched once again, and it succeeds', async () => {
      await closeDatabases();
      const config = readConfig({ DATABASE_SECRET_ARN: arn, ...pool });
      const db = await selectDatabase(config);
      await db.run(select);
      const fetched = fake.calls(arn);

      await server.setPassword(user, 'Second-Pass-2');
      fake.set(arn, secret('Second-Pass-2'));
      // the pooled connection logged in before the rotation and stays usable: nothing is fetched for it
      expect((await db.run(select)).rows).toEqual([{ name: 'first' }]);
      expect(fake.calls(arn)).toBe(fetched);

      expect((await withNewConnection(db)).rows).toEqual([{ name: 'first' }]);
      expect(fake.calls(arn)).toBe(fetched + 1);
      expect(await server.sessions(user)).toBe(2);
      for (let i = 0; i < 3; i++) await withNewConnection(db);
      expect(fake.calls(arn)).toBe(fetched + 1);
    });

    it('a secret that stays wrong: a clear 500 after one fetch again per request, no loop', async () => {
      await closeDatabases();
      await server.setPassword(user, 'Third-Pass-3');
      const config = readConfig({ DATABASE_SECRET_ARN: arn, ...pool });
      const before = fake.calls(arn);
      const refused = {
        postgres: `password authentication failed for user "${user}"`,
        mariadb: `Access denied for user '${user}'@'`,
      }[choice.name];
      for (let request = 1; request <= 2; request++) {
        const error = await failure((async () => (await selectDatabase(config)).run(select))());
        expect(error).toMatchObject({ status: 500, code: 'database_unreachable' });
        expect(error.message).toContain(
          `The database refused the login of user ${user} with the password of the database secret ${arn} (DATABASE_SECRET_ARN), also after reading the secret again: ${refused}`,
        );
        expect(error.message).toMatch(/ :: SELECT name FROM t WHERE id = 1$/);
        expect(error.message).not.toMatch(/Pass-/);
        // the first request fetches the secret and once again; each later one once again
        expect(fake.calls(arn) - before).toBe(request + 1);
      }
      await server.setPassword(user, 'Second-Pass-2');
    });
  });
}
