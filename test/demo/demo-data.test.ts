/**
 * The demo bookstore: its schema and data load on PGlite (always) and on the PostgreSQL and MariaDB servers
 * whose URL is set (TEST_PG_URL / TEST_MYSQL_URL, each in a database of its own, dropped afterwards); the data is the
 * same at every run; every bundled definition parses and its query runs on the seeded data; and the local
 * PGlite wire-protocol path (pglite-socket + postgres.js) answers parameterised queries on concurrent connections.
 */
import { readdirSync, readFileSync } from 'node:fs';
import nodeModule from 'node:module';
import path from 'node:path';
import type { PGlite as PGliteClass } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { XMLParser } from 'fast-xml-parser';
import postgres from 'postgres';
import { DEMO_EDGE_CASES, demoData, demoRows } from '../../scripts/demo/data';
import { DEMO_TABLES, demoSchema } from '../../scripts/demo/schema';
import { seedDemo, seedUrl } from '../../scripts/demo/seed';
import { insertStatements, sqlLiteral } from '../../scripts/demo/sql-text';
import { startPgliteServer } from '../../scripts/pglite-server';
import { serverTargets, type TestDatabase } from '../support/databases';

type Query = (sql: string) => Promise<Record<string, unknown>[]>;

/**
 * PGlite's CommonJS build loads its own files with `import()`, which Jest's module sandbox refuses unless node
 * runs with --experimental-vm-modules. Node's loader (Jest replaces createRequire, not Module._load) loads it
 * outside the sandbox, so this file passes with or without that flag.
 */
type NodeLoader = { _load(request: string): unknown };
const { PGlite } = (nodeModule as unknown as NodeLoader)._load(require.resolve('@electric-sql/pglite')) as {
  PGlite: typeof PGliteClass;
};
type PGlite = PGliteClass;

const DEFINITIONS_DIR = path.resolve(__dirname, '..', '..', 'definitions');
const expectedCounts = Object.fromEntries(DEMO_TABLES.map((table) => [table, demoRows()[table].rows.length]));

/** The row count of every demo table. */
async function countRows(query: Query): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of DEMO_TABLES) {
    const [row] = await query(`select count(*) as n from ${table}`);
    counts[table] = Number(row?.n);
  }
  return counts;
}

/** The edge-case rows, every value as text (NULL stays null), so all three databases compare alike. */
async function edgeCases(query: Query): Promise<Record<string, unknown>> {
  const one = async (sql: string) =>
    Object.values((await query(sql))[0] ?? {}).map((v) => (v === null ? v : String(v)));
  return {
    title: await one('select title from book where book_id = 1'),
    free: await one(`select price from book where book_id = ${DEMO_EDGE_CASES.freeBookId}`),
    author: await one('select first_name, last_name from author where author_id = 1'),
    mononym: await one(`select first_name from author where author_id = ${DEMO_EDGE_CASES.mononymousAuthorId}`),
    noCountry: await one('select publisher_id from publisher where country is null'),
    childless: await one(`select count(*) from book where publisher_id = ${DEMO_EDGE_CASES.childlessPublisherId}`),
    booksWithoutReviews: Number(
      (await one('select count(*) from book where book_id not in (select book_id from review)'))[0],
    ),
  };
}

function expectEdgeCases(found: Record<string, unknown>): void {
  expect(found).toEqual({
    title: ["Salt, Smoke & the Sailor's Daughter"],
    free: ['0.00'],
    author: ['Renée', 'Müller'],
    mononym: [null],
    noCountry: [String(DEMO_EDGE_CASES.noCountryPublisherId)],
    childless: ['0'],
    booksWithoutReviews: expect.any(Number),
  });
  expect(found.booksWithoutReviews).toBeGreaterThan(10);
}

/** Inserting without ids must work after the explicit-id inserts: the sequences were moved past them. */
async function expectSequencesReset(query: Query): Promise<void> {
  await query("insert into publisher (name, country) values ('Sequence Test House', 'NL')");
  const [row] = await query("select publisher_id as id from publisher where name = 'Sequence Test House'");
  expect(Number(row?.id)).toBe(Number(expectedCounts.publisher) + 1);
  await query(`delete from publisher where name = 'Sequence Test House'`);
}

function definitionFiles(dir = DEFINITIONS_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return definitionFiles(full);
    return entry.name.endsWith('.xml') ? [full] : [];
  });
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', removeNSPrefix: true });

function readDefinition(file: string) {
  const root = xml.parse(readFileSync(file, 'utf8'), true).sqlResource;
  const tables = [root.metadata.table].flat() as { name: string; role: string }[];
  return { query: String(root.query).trim(), database: root.metadata.database.default, tables, root };
}

/** The labels (fields) of every demo resource, in select order: what clients and examples use. */
const LABELS: Readonly<Record<string, readonly string[]>> = {
  Publisher: ['id', 'name', 'country', 'founded'],
  Book: ['id', 'publisher_id', 'title', 'isbn', 'price', 'price_cents', 'published', 'in_print', 'pages', 'added_at'],
  BookWithDetail: ['id', 'publisher_id', 'title', 'isbn', 'price', 'published', 'summary', 'cover_url', 'weight_grams'],
  Inventory: ['store_code', 'book_id', 'quantity'],
  'bookstore.Author': ['id', 'first_name', 'last_name', 'birth_date', 'bio', 'website'],
  PublisherBooks: ['publisher_id', 'publisher_name', 'country', 'book_id', 'title', 'isbn', 'price', 'published'],
  PriceHistory: ['book_id', 'changed_at', 'old_price', 'new_price'],
  BookReviews: ['book_id', 'title', 'review_id', 'reviewer', 'rating', 'reviewed_at', 'body', 'flagged', 'reason'],
  BookAuthors: ['book_id', 'title', 'author_id', 'first_name', 'last_name', 'website'],
};

const resourceName = (file: string) =>
  path
    .relative(DEFINITIONS_DIR, file)
    .replace(/\.xml$/, '')
    .split(path.sep)
    .join('.');

/** Every definition's query runs and labels its columns exactly as LABELS says (no case folding surprises). */
async function expectDefinitionsRun(query: Query): Promise<void> {
  for (const file of definitionFiles()) {
    const rows = await query(`${readDefinition(file).query} limit 1`);
    expect({ [resourceName(file)]: Object.keys(rows[0] ?? {}) }).toEqual({
      [resourceName(file)]: LABELS[resourceName(file)],
    });
  }
}

describe('demo data generation', () => {
  it('is deterministic: two calls give identical statements', () => {
    for (const engine of ['postgres', 'mysql'] as const) {
      expect(demoData(engine)).toEqual(demoData(engine));
      expect(demoSchema(engine)).toEqual(demoSchema(engine));
    }
  });

  it('has the sizes the demo promises', () => {
    const counts = expectedCounts;
    expect(counts).toMatchObject({ publisher: 12, author: 60, book: 200 });
    expect(counts.book_detail).toBeGreaterThan(70);
    expect(counts.book_detail).toBeLessThan(130);
    expect(counts.review).toBeGreaterThan(250);
    expect(counts.review).toBeLessThan(360);
    expect(counts.book_author).toBeGreaterThanOrEqual(200);
    expect(counts.book_author).toBeLessThanOrEqual(600);
    for (const table of ['review_flag', 'inventory', 'author_bio']) expect(counts[table]).toBeGreaterThan(10);
  });

  it('escapes literals for each engine', () => {
    expect(sqlLiteral("it's", 'postgres')).toBe("'it''s'");
    expect(sqlLiteral('a\\b', 'postgres')).toBe("'a\\b'");
    expect(sqlLiteral("a\\'b", 'mysql')).toBe("'a\\\\''b'");
    expect(sqlLiteral(null, 'mysql')).toBe('null');
    expect(sqlLiteral(true, 'mysql')).toBe('true');
    expect(sqlLiteral(-7, 'postgres')).toBe('-7');
    expect(() => sqlLiteral(1.5, 'postgres')).toThrow(/integers/);
    expect(() => sqlLiteral('a\u0000b', 'postgres')).toThrow(/NUL/);
    expect(
      insertStatements(
        't',
        ['a', 'b'],
        [
          [1, 'x'],
          [2, null],
          [3, 'z'],
        ],
        'postgres',
        2,
      ),
    ).toEqual(["insert into t (a, b) values\n(1, 'x'),\n(2, null)", "insert into t (a, b) values\n(3, 'z')"]);
  });
});

describe('demo data on PGlite', () => {
  let db: PGlite;
  const query: Query = async (sql) => (await db.query<Record<string, unknown>>(sql)).rows;

  beforeAll(async () => {
    db = await PGlite.create();
    await seedDemo((sql) => db.exec(sql), 'postgres');
  });
  afterAll(() => db.close());

  it('loads every row', async () => expect(await countRows(query)).toEqual(expectedCounts));
  it('keeps the edge cases', async () => expectEdgeCases(await edgeCases(query)));
  it('resets the sequences', () => expectSequencesReset(query));
  it('runs every definition query', () => expectDefinitionsRun(query));

  it('rejects a rating outside 1..5 and has no cascading deletes', async () => {
    await expect(
      query("insert into review (book_id, reviewer, rating, reviewed_at) values (1, 'x', 6, '2020-01-01')"),
    ).rejects.toThrow(/review_rating_ck/);
    await expect(query('delete from book where book_id = 1')).rejects.toThrow(/foreign key/);
  });
});

describe('demo definitions', () => {
  const files = definitionFiles();

  it('are the promised resources', () => {
    expect(files.map(resourceName).sort()).toEqual(Object.keys(LABELS).sort());
  });

  it.each(files.map((file) => [path.relative(DEFINITIONS_DIR, file), file]))(
    '%s is a valid D1 definition',
    (_, file) => {
      const { query, database, tables, root } = readDefinition(file);
      expect(query).toMatch(/^select\s/i);
      expect(query).not.toMatch(/order by|limit|"|`/i);
      expect(database).toBe('bookstore');
      expect(tables.filter((t) => t.role === 'Parent')).toHaveLength(1);
      expect(String(root.documentation).trim().length).toBeGreaterThan(40);
    },
  );
});

for (const target of serverTargets()) {
  describe(`demo data on ${target.name}, seeded by npm run demo:seed`, () => {
    let db: TestDatabase;
    const query: Query = (sql) => db.exec(sql);

    beforeAll(async () => {
      db = await target.create();
      await seedUrl(db.url); // the `npm run demo:seed -- <url>` path
    });
    afterAll(async () => db?.drop());

    it('loads every row', async () => expect(await countRows(query)).toEqual(expectedCounts));
    it('keeps the edge cases', async () => expectEdgeCases(await edgeCases(query)));
    it('resets the sequences', () => expectSequencesReset(query));
    it('runs every definition query', () => expectDefinitionsRun(query));
  });
}

describe('PGlite over the wire protocol', () => {
  let db: PGlite;

  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec(
      'create table t (id int primary key, v text); insert into t select g, md5(g::text) from generate_series(1, 500) g',
    );
  });
  afterAll(() => db.close());

  it('pglite-socket serves parameterised queries, with two connections open', async () => {
    const server = new PGLiteSocketServer({ db, port: 0, maxConnections: 2 });
    await server.start();
    const port = Number(server.getServerConn().split(':').pop());
    expect(port).toBeGreaterThan(0);
    const a = postgres(`postgres://postgres@127.0.0.1:${port}/bookstore`, { prepare: false, max: 1 });
    const b = postgres(`postgres://postgres@127.0.0.1:${port}/other`, { prepare: false, max: 1 });
    try {
      expect(await a.unsafe('select $1::int + 1 as n', [41])).toEqual([{ n: 42 }]);
      expect(await b.unsafe('select $1::int + 1 as n', [1])).toEqual([{ n: 2 }]);
      // The database name in the URL is ignored: every connection reaches PGlite's one database.
      expect(await a`select current_database() as name`).toEqual([{ name: 'postgres' }]);
      expect(server.getStats().activeConnections).toBe(2);
    } finally {
      await Promise.all([a.end(), b.end()]);
      await server.stop();
    }
  });

  it('the local server keeps concurrent connections apart, transactions included', async () => {
    const server = await startPgliteServer(db, { maxConnections: 20 });
    const pools = [1, 2, 3, 4].map(() => postgres(server.url('bookstore'), { prepare: false, max: 4 }));
    try {
      const answers = await Promise.all(
        Array.from({ length: 400 }, (_, i) => pools[i % 4]?.unsafe('select id from t where id = $1', [(i % 500) + 1])),
      );
      expect(answers.map((rows) => rows?.[0]?.id)).toEqual(Array.from({ length: 400 }, (_, i) => (i % 500) + 1));
      const [p0, p1] = pools as [postgres.Sql, postgres.Sql];
      const inTx = p0.begin(async (tx) => {
        await tx.unsafe("update t set v = 'changed' where id = 1");
        await new Promise((resolve) => setTimeout(resolve, 50));
        throw new Error('roll back');
      });
      await expect(inTx).rejects.toThrow('roll back');
      expect(await p1.unsafe('select v from t where id = $1', [1])).not.toEqual([{ v: 'changed' }]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
      await server.stop();
    }
  });

  it('the local server listens before its database is open: a connection waits for it, or is told why it failed', async () => {
    let open: (opened: PGliteClass) => void = () => {};
    const opening = new Promise<PGliteClass>((resolve) => {
      open = resolve;
    });
    const server = await startPgliteServer(opening);
    const early = postgres(server.url('bookstore'), { prepare: false, max: 1, connect_timeout: 5 });
    try {
      const answer = early.unsafe('select count(*)::int as n from t where id = $1', [1]);
      let answered = false;
      void answer.then(() => {
        answered = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(answered).toBe(false);
      open(db);
      expect(await answer).toEqual([{ n: 1 }]);
    } finally {
      await early.end();
      await server.stop();
    }

    const failing = await startPgliteServer(Promise.reject(new Error('no data folder')));
    const refused = postgres(failing.url('bookstore'), { prepare: false, max: 1, connect_timeout: 5 });
    try {
      await expect(refused`select 1`).rejects.toThrow('the database could not be opened: no data folder');
    } finally {
      await refused.end({ timeout: 0 });
      await failing.stop();
    }
  });

  it('the local server rolls back what a vanished connection left open and refuses extra connections', async () => {
    const server = await startPgliteServer(db, { maxConnections: 2 });
    const lone = postgres(server.url('bookstore'), { prepare: false, max: 1 });
    const other = postgres(server.url('bookstore'), { prepare: false, max: 2 });
    try {
      const abandoned = lone.begin(async (tx) => {
        await tx`insert into t values (-1, 'abandoned')`;
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const waiting = other.unsafe('select count(*)::int as n from t where id = $1', [-1]);
      await lone.end({ timeout: 0 });
      await expect(abandoned).rejects.toThrow();
      expect(await waiting).toEqual([{ n: 0 }]);
      const third = postgres(server.url('bookstore'), { prepare: false, max: 2 });
      const both = await Promise.allSettled([third`select pg_sleep(0.05)`, third`select pg_sleep(0.05)`]);
      await third.end();
      expect(both.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toContain(
        'PostgresError: sorry, too many clients already',
      );
    } finally {
      await other.end();
      await server.stop();
    }
  });
});
