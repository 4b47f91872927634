/**
 * DB_PREPARE on PostgreSQL: with `prepare`, a statement is prepared once per connection (named, listed in
 * pg_prepared_statements) and reused with other values; without it (Lambda, RDS Proxy) nothing is left in the
 * session. (PGlite has one session for all its connections, so the cases count what they add.) A prepared statement
 * whose result changes shape (ALTER TABLE) is prepared again, not failed. Either way a statement costs one round
 * trip: an unnamed one is sent whole (patches/postgres+3.4.9.patch: postgres.js would describe it first, a round
 * trip of its own), a named one once it is prepared; counted by a proxy as the messages the client sends.
 */
import { readConfig } from '../../lib/config';
import type { Database } from '../../lib/db/database';
import { connectPostgres } from '../../lib/db/engines/postgres/connect-postgres';
import { countingProxy } from '../support/counting-proxy';
import { type TestDatabase, targets } from '../support/databases';

const options = { connectTimeoutMs: 3000, statementTimeoutMs: 10000, poolSize: 1, idleTimeoutS: 300 };
const byKey = (id: number) => ({
  text: 'SELECT * FROM (SELECT id, title FROM book) AS _r WHERE _r.id = $1',
  params: [id],
});
const preparedNames = { text: 'SELECT name FROM pg_prepared_statements', params: [] };

describe('DB_PREPARE', () => {
  it.each([
    { value: undefined, dbPrepare: undefined },
    { value: '', dbPrepare: undefined },
    { value: 'true', dbPrepare: true },
    { value: 'false', dbPrepare: false },
  ])('$value gives $dbPrepare (unset: the server mode prepares, Lambda does not)', ({ value, dbPrepare }) => {
    expect(readConfig(value === undefined ? {} : { DB_PREPARE: value }).dbPrepare).toBe(dbPrepare);
  });

  it('is true or false', () => {
    expect(() => readConfig({ DB_PREPARE: 'yes' })).toThrow('DB_PREPARE must be true or false, got "yes"');
  });
});

describe.each(targets().filter((t) => t.engine === 'postgres'))('prepared statements on $name', (target) => {
  let testDb: TestDatabase;
  const opened: Database[] = [];
  const connect = (prepare: boolean) => {
    const db = connectPostgres(testDb.url, { ...options, prepare });
    opened.push(db);
    return db;
  };

  beforeAll(async () => {
    testDb = await target.create();
    await testDb.exec('CREATE TABLE book (id integer PRIMARY KEY, title text NOT NULL)');
    await testDb.exec("INSERT INTO book VALUES (1, 'Dune'), (2, 'Emma')");
  });
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    await testDb?.drop();
  });

  it('prepares a statement once per connection and reuses it with other values', async () => {
    const db = connect(true);
    const before = (await db.run(preparedNames)).rows.length;
    expect((await db.run(byKey(1))).rows).toEqual([{ id: '1', title: 'Dune' }]);
    expect((await db.run(byKey(2))).rows).toEqual([{ id: '2', title: 'Emma' }]);
    expect((await db.run(preparedNames)).rows).toHaveLength(before + 1);
  });

  it('prepares the statements of a transaction too, and commits them', async () => {
    const db = connect(true);
    await db.transaction(async (tx) => {
      await tx.run({ text: 'INSERT INTO book VALUES ($1, $2)', params: [3, 'Ulysses'] });
    });
    expect((await db.run(byKey(3))).rows).toEqual([{ id: '3', title: 'Ulysses' }]);
  });

  it('leaves no statement in the session without it', async () => {
    const db = connect(false);
    const before = (await db.run(preparedNames)).rows.length;
    expect((await db.run(byKey(1))).rows).toEqual([{ id: '1', title: 'Dune' }]);
    expect((await db.run(preparedNames)).rows).toHaveLength(before);
  });

  it.each([false, true])('runs a statement with parameters in one round trip (prepare: %s)', async (prepare) => {
    const proxy = await countingProxy(testDb.url);
    const db = connectPostgres(proxy.url, { ...options, prepare });
    opened.push(db);
    try {
      await db.run(byKey(1)); // connects (and prepares)
      const before = proxy.sent();
      expect((await db.run(byKey(2))).rows).toEqual([{ id: '2', title: 'Emma' }]);
      // text for an integer, a boolean, bytes and NULL: each takes the type the server infers or declares
      const mixed = {
        text: 'SELECT $1::int + 1 AS n, $2::boolean AS b, $3::bytea AS raw, $4::text IS NULL AS missing',
        params: ['41', true, new Uint8Array([1, 255]), null],
      };
      expect((await db.run(mixed)).rows).toEqual([{ n: '42', b: true, raw: Buffer.from([1, 255]), missing: true }]);
      expect(proxy.sent() - before).toBe(prepare ? 3 : 2);
    } finally {
      proxy.close();
    }
  });

  it('prepares a statement again when a schema change alters its result', async () => {
    const db = connect(true);
    const everything = { text: 'SELECT * FROM book WHERE id = $1', params: [1] };
    expect((await db.run(everything)).rows).toEqual([{ id: '1', title: 'Dune' }]);
    await testDb.exec('ALTER TABLE book ADD COLUMN pages integer');
    expect((await db.run(everything)).rows).toEqual([{ id: '1', title: 'Dune', pages: null }]);
  });
});
