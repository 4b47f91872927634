/**
 * Read replicas (DATABASE_READ_URL, DATABASE_READ_URL_<NAME>), through the real handlers: reads (by filter and by
 * key) and the catalogue queries behind the listing and /conf/metadata go to the reader; writes, with their own
 * read-back, stay on the writer; without a read URL everything runs on the writer as before. On the PostgreSQL and MariaDB
 * servers the reader is a login that can only read the same database (PostgreSQL: a role with only SELECT and
 * default_transaction_read_only; MariaDB: a user with only SELECT), and a definition that selects the current
 * user shows which login served a read. On PGlite the reader is a second embedded database whose rows differ.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import postgres from 'postgres';
import { closeDatabases } from '../../lib/db/select-database';
import { serverTargets, type Target, type TestDatabase, targets } from '../support/databases';
import { testData, testSchema } from '../support/schema';
import { invoke, testDefinitions, useService } from '../support/service';

const clean = {
  DATABASE_URL: undefined,
  DATABASE_READ_URL: undefined,
  DATABASE_IAM_AUTH: undefined,
};

const json = { accept: 'application/json' };

/** The `who` of every row a read of Who answers with. */
async function readers(call: { path: string; query?: string }): Promise<unknown[]> {
  const reply = await invoke({ method: 'GET', headers: json, ...call });
  expect(reply.status).toBe(200);
  const body = JSON.parse(reply.body);
  const rows = Array.isArray(body.things) ? body.things : [body.thing ?? body];
  return rows.map((row: { who: unknown }) => row.who);
}

/** A login that can only read the test database, on the test database's server. */
interface ReadOnlyLogin {
  /** The URL of the reader, with the database part given. */
  url(database: string): string;
  /** The user as the definition's `who` shows it. */
  readonly who: string;
  /** Tries a write with the reader's own login, outside the service. */
  tryWrite(database: string): Promise<unknown>;
  drop(): Promise<void>;
}

const loginName = `rrs_ro_${process.pid}_${Math.floor(Math.random() * 1e6)}`;

function withLogin(url: string, user: string, password: string, database: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = password;
  u.pathname = `/${database}`;
  return u.toString();
}

async function readOnlyLogin(target: Target, db: TestDatabase, database: string): Promise<ReadOnlyLogin> {
  const password = 'ro-pw';
  const url = (name: string) => withLogin(db.url, loginName, password, name);
  if (target.engine === 'postgres') {
    await db.exec(`CREATE ROLE ${loginName} LOGIN PASSWORD '${password}'`);
    await db.exec(`GRANT USAGE ON SCHEMA public TO ${loginName}`);
    await db.exec(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${loginName}`);
    await db.exec(`ALTER ROLE ${loginName} SET default_transaction_read_only = on`);
    return {
      url,
      who: loginName,
      async tryWrite(name) {
        const sql = postgres(url(name), { max: 1, onnotice: () => {} });
        try {
          return await sql.unsafe("UPDATE item SET name = 'x' WHERE item_id = 1").then(
            () => 'written',
            (e) => e,
          );
        } finally {
          await sql.end();
        }
      },
      // after the test database is dropped: its grants go with it
      async drop() {
        const admin = postgres(withLogin(db.url, new URL(db.url).username, '', 'postgres'), { max: 1 });
        await admin.unsafe(`DROP ROLE IF EXISTS ${loginName}`);
        await admin.end();
      },
    };
  }
  await db.exec(`CREATE USER '${loginName}'@'%' IDENTIFIED BY '${password}'`);
  await db.exec(`GRANT SELECT ON \`${database}\`.* TO '${loginName}'@'%'`);
  return {
    url,
    who: `${loginName}@%`,
    async tryWrite(name) {
      const conn = await mysql.createConnection({ uri: url(name) });
      try {
        return await conn.query("UPDATE item SET name = 'x' WHERE item_id = 1").then(
          () => 'written',
          (e) => e,
        );
      } finally {
        await conn.end();
      }
    },
    drop: async () => {
      await db.exec(`DROP USER IF EXISTS '${loginName}'@'%'`);
    },
  };
}

/** The users of the service's sessions on the test database, from the server's session list. */
async function serviceSessions(target: Target, db: TestDatabase): Promise<string[]> {
  const rows =
    target.engine === 'postgres'
      ? await db.exec(
          "SELECT usename AS who FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'relational-resource-service'",
        )
      : // the test's own connection is root's, and the only one on this database besides the service's
        await db.exec(
          'SELECT USER AS who FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND ID <> CONNECTION_ID()',
        );
  return [...new Set(rows.map((row) => String(row.who)))].sort();
}

/** The test data's items, and the item id sequence set past them. */
const itemData = (target: Target) =>
  testData(target.engine).filter((s) => /^INSERT INTO item \(|'item', 'item_id'|^ALTER TABLE item /.test(s));

for (const target of serverTargets()) describeReadOnlyReader(target);

function describeReadOnlyReader(target: Target): void {
  describe(`a read-only reader on ${target.name}`, () => {
    let db: TestDatabase;
    let login: ReadOnlyLogin;
    let database: string;
    let definitions: string;
    const writer = () => new URL(db.url).username;
    const variable = () => `DATABASE_READ_URL_${database.toUpperCase()}`;

    beforeAll(async () => {
      db = await target.create();
      database = new URL(db.url).pathname.slice(1);
      for (const statement of testSchema(target.engine)) await db.exec(statement);
      login = await readOnlyLogin(target, db, database);
      definitions = mkdtempSync(path.join(os.tmpdir(), 'rrs-replicas-'));
      const who = target.engine === 'postgres' ? 'current_user::text' : 'CURRENT_USER()';
      writeFileSync(
        path.join(definitions, 'Who.xml'),
        `<sqlResource>
  <query>select item_id as id, name, ${who} as who from item</query>
  <metadata><database default="${database}"/><table name="item" role="Parent" rowAlias="thing"/></metadata>
</sqlResource>`,
      );
    });
    beforeEach(async () => {
      await db.exec('DELETE FROM item_ext');
      await db.exec('DELETE FROM item');
      for (const statement of itemData(target)) await db.exec(statement);
    });
    afterEach(closeDatabases);
    afterAll(async () => {
      await useService({ ...clean, [variable()]: undefined });
      if (target.engine === 'mysql') await login?.drop();
      await db?.drop();
      if (target.engine === 'postgres') await login?.drop();
      rmSync(definitions, { recursive: true, force: true });
    });

    /** DATABASE_READ_URL with another database part: the definition's <database> replaces it, as for DATABASE_URL. */
    const useReader = (env: Record<string, string | undefined> = {}) =>
      useService({
        ...clean,
        [variable()]: undefined,
        DATABASE_URL: db.url,
        DATABASE_READ_URL: login.url('not_this_database'),
        DEFINITIONS_DIR: definitions,
        ...env,
      });

    it('the reader cannot write: the login refuses an UPDATE', async () => {
      const refused = await login.tryWrite(database);
      expect(refused).toBeInstanceOf(Error);
      expect(String((refused as Error).message)).toMatch(/read-only transaction|UPDATE command denied/);
    });

    it('without a read URL, reads run on the writer as before', async () => {
      await useService({ ...clean, [variable()]: undefined, DATABASE_URL: db.url, DEFINITIONS_DIR: definitions });
      const who = await readers({ path: '/res/Who/1' });
      expect(who).toHaveLength(1);
      expect(String(who[0])).toMatch(new RegExp(`^${writer()}(@|$)`));
    });

    it('R2 and R1 run as the reader (DATABASE_READ_URL, its database part replaced by <database>)', async () => {
      await useReader();
      expect(await readers({ path: '/res/Who/1' })).toEqual([login.who]);
      expect(await readers({ path: '/res/Who', query: 'id=<3' })).toEqual([login.who, login.who]);
    });

    it('DATABASE_READ_URL_<NAME> is the reader of the definitions with <database default="name">', async () => {
      await useReader({ DATABASE_READ_URL: undefined, [variable()]: login.url(database) });
      expect(await readers({ path: '/res/Who', query: 'name=apple' })).toEqual([login.who]);
    });

    it('writes, and an insert’s read-back, run on the writer although the reader cannot write', async () => {
      await useReader();
      const form = { 'content-type': 'application/x-www-form-urlencoded', ...json };
      const update = await invoke({ method: 'PUT', path: '/res/Who/1', headers: form, body: 'name=apricot' });
      expect([update.status, update.body]).toEqual([200, '{"rowsAffected":1}']);
      const insert = await invoke({ method: 'POST', path: '/res/Who', headers: form, body: 'name=kiwi' });
      expect(insert.status).toBe(200);
      expect(JSON.parse(insert.body)).toMatchObject({ rowsAffected: 1, things: [{ id: 101, name: 'kiwi' }] });
      const remove = await invoke({ method: 'DELETE', path: '/res/Who/2', headers: json });
      expect([remove.status, remove.body]).toEqual([200, '{"rowsAffected":1}']);
      expect(
        await db.exec('SELECT item_id AS id, name FROM item WHERE item_id IN (1, 2, 101) ORDER BY item_id'),
      ).toEqual([
        { id: 1, name: 'apricot' },
        { id: 101, name: 'kiwi' },
      ]);
      // and the reads after them still run as the reader
      expect(await readers({ path: '/res/Who/101' })).toEqual([login.who]);
    });

    it('the listing and /conf/metadata read the catalogue from the reader: the writer is not even connected', async () => {
      await useReader();
      const listing = await invoke({ method: 'GET', path: '/res', headers: json });
      expect(JSON.parse(listing.body).resources.map((r: { name: string; kind?: string }) => [r.name, r.kind])).toEqual([
        ['Who', 'flat'],
      ]);
      const metadata = await invoke({ method: 'GET', path: '/conf/metadata/Who', headers: json });
      expect(metadata.status).toBe(200);
      expect(await serviceSessions(target, db)).toEqual([loginName]);
    });
  });
}

describe.each(targets().filter((t) => t.name === 'pglite'))('a replica with other rows on $name', (target) => {
  let primary: TestDatabase;
  let replica: TestDatabase;

  beforeAll(async () => {
    [primary, replica] = [await target.create(), await target.create()];
    for (const db of [primary, replica]) {
      for (const statement of [...testSchema(target.engine), ...testData(target.engine)]) await db.exec(statement);
    }
    // what tells the reader from the writer: its names, and the type of one column
    await replica.exec("UPDATE item SET name = name || ' (replica)' WHERE item_id < 3");
    await replica.exec('ALTER TABLE item ALTER COLUMN note TYPE varchar(99)');
  });
  afterAll(async () => {
    await useService(clean);
    await primary?.drop();
    await replica?.drop();
  });

  const useReplica = () =>
    useService({
      ...clean,
      DATABASE_URL: primary.url,
      DATABASE_READ_URL: replica.url,
      DEFINITIONS_DIR: testDefinitions,
    });
  const names = async (query: string) => {
    const reply = await invoke({ method: 'GET', path: '/res/Item', query, headers: json });
    return JSON.parse(reply.body).items.map((item: { name: string }) => item.name);
  };

  it('reads come from the replica; without DATABASE_READ_URL from the primary', async () => {
    await useReplica();
    expect(await names('id=<3')).toEqual(['apple (replica)', 'banana (replica)']);
    await useService({ ...clean, DATABASE_URL: primary.url, DEFINITIONS_DIR: testDefinitions });
    expect(await names('id=<3')).toEqual(['apple', 'banana']);
  });

  it('/conf/metadata describes the replica’s catalogue', async () => {
    await useReplica();
    const reply = await invoke({ method: 'GET', path: '/conf/metadata/Item', headers: json });
    expect(reply.body).toMatch(/character varying\(99\)/);
  });

  it('the login rules apply to the read URL: with DATABASE_IAM_AUTH it may hold no password', async () => {
    const noPassword = (url: string) => withLogin(url, 'app', '', new URL(url).pathname.slice(1));
    await useService({
      ...clean,
      DATABASE_URL: noPassword(primary.url),
      DATABASE_READ_URL: withLogin(replica.url, 'app', 'pw', 'test'),
      DATABASE_IAM_AUTH: 'true',
      DEFINITIONS_DIR: testDefinitions,
    });
    const reply = await invoke({ method: 'GET', path: '/res/Item/1' });
    expect([reply.status, reply.body]).toEqual([
      500,
      'DATABASE_READ_URL holds a password, but with DATABASE_IAM_AUTH=true the password comes from an IAM token: remove it from the URL',
    ]);
  });

  it('a write goes to the primary, and its read-back too; the replica has not seen it', async () => {
    await useReplica();
    const form = { 'content-type': 'application/x-www-form-urlencoded', ...json };
    const insert = await invoke({ method: 'POST', path: '/res/Item', headers: form, body: 'name=kiwi&price=2.5' });
    expect(insert.status).toBe(200);
    expect(JSON.parse(insert.body)).toMatchObject({ rowsAffected: 1, items: [{ id: 101, name: 'kiwi', price: 2.5 }] });
    const update = await invoke({ method: 'PUT', path: '/res/Item/1', headers: form, body: 'name=apricot' });
    expect([update.status, update.body]).toEqual([200, '{"rowsAffected":1}']);
    expect(await primary.exec('SELECT name FROM item WHERE item_id IN (1, 101) ORDER BY item_id')).toEqual([
      { name: 'apricot' },
      { name: 'kiwi' },
    ]);
    expect(await names('id=101')).toEqual([]);
    expect(await names('id=1')).toEqual(['apple (replica)']);
  });
});
