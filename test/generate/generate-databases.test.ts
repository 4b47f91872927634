/**
 * `npm run generate` on every database (PGlite always; PostgreSQL and MariaDB when TEST_PG_URL / TEST_MYSQL_URL
 * are set): a fresh database holding the demo schema and a sakila-like one (sakila-schema.ts) gets the expected
 * definition files; they validate with no warning but the one every table without a primary key gets; and the
 * service started on them (`npm run serve`) reads every resource, and runs an insert, a read, an update and a
 * delete by key on each (on the parent of a hierarchical one).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readConfig } from '../../lib/config';
import { engineNamed } from '../../lib/db/engines/registry';
import { closeDatabases } from '../../lib/db/select-database';
import { validateDefinitions } from '../../lib/definitions/validate-definitions';
import type { Value } from '../../lib/values';
import { demoSchema } from '../../scripts/demo/schema';
import { connectTo } from '../support/connect';
import { type TestDatabase, targets } from '../support/databases';
import { freePort, type LocalProcess, root, serviceEnv, startProcess } from '../support/local-process';
import { type Call, type Metadata, type Refer, roundTrip } from './round-trip';
import { type Run, runGenerate, tsx } from './run-generate';
import { sakilaSchema, seedRows } from './sakila-schema';

const flat = [
  'Actor',
  'Author',
  'AuthorBio',
  'Book',
  'BookAuthor',
  'BookDetail',
  'Category',
  'Film',
  'FilmActor',
  'FilmCategory',
  'FilmRate',
  'FilmRateChange',
  'FilmText',
  'GiftCard',
  'Inventory',
  'Language',
  'Order',
  'PriceChange',
  'Publisher',
  'Review',
  'ReviewFlag',
  'Staff',
];
const extended = ['AuthorWithBio', 'BookWithDetail', 'FilmWithText', 'ReviewWithFlag'];
const nested = [
  'ActorFilms',
  'AuthorBooks',
  'BookAuthors',
  'BookInventories',
  'BookPriceChanges',
  'BookReviews',
  'CategoryFilms',
  'FilmActors',
  'FilmCategories',
  'FilmRateChanges',
  'FilmRates',
  'LanguageFilmsByLanguage',
  'LanguageFilmsByOriginalLanguage',
  'PublisherBooks',
  'StaffOrders',
];
const keyed = [...flat, ...extended, ...nested];
const keyless = 'StoreVisit';

describe.each(targets())('npm run generate on $name', (target) => {
  let db: TestDatabase;
  let out = '';
  let printed: Run = { code: -1, stdout: '', stderr: '' };
  let server: LocalProcess | undefined;
  let base = '';

  /** `table.column` → the value of the seeded row it refers to, for every foreign key column. */
  const referenced = new Map<string, Value>();
  const refer: Refer = (table, column) => referenced.get(`${table}.${column}`);

  const call: Call = async (method, url, body, contentType) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (contentType) headers['content-type'] = contentType;
    const reply = await fetch(`${base}${url}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await reply.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {}
    return { status: reply.status, body: parsed, text };
  };

  beforeAll(async () => {
    db = await target.create();
    for (const statement of [...demoSchema(target.engine), ...sakilaSchema(target.engine), ...seedRows]) {
      await db.exec(statement);
    }
    await learnForeignKeys(db, target.engine, referenced);
    out = mkdtempSync(path.join(tmpdir(), 'rrs-generate-'));
    printed = await runGenerate(['--database', db.url, '--out', out]);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env = serviceEnv({
      DATABASE_URL: db.url,
      DEFINITIONS_DIR: out,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'WARN',
    });
    server = await startProcess(tsx, ['scripts/serve.ts'], env, 'listening on');
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await closeDatabases();
    await db?.drop();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('writes a definition per resource and the privileges stub, and says what it wrote and left out', () => {
    expect(printed.code).toBe(0);
    const files = readdirSync(out).sort();
    expect(files).toEqual(
      [...keyed, keyless]
        .map((n) => `${n}.xml`)
        .concat('privileges.properties')
        .sort(),
    );
    expect(printed.stdout).toContain(`wrote   ${path.join(out, 'Film.xml')}\n`);
    expect(printed.stdout).toContain(
      'StoreVisit is read only: table store_visit has no primary key\n' +
        'No resource for the foreign key staff.manager_id (to staff): the table refers to itself, and a resource declares each table once\n',
    );
    expect(printed.stdout).toMatch(new RegExp(`Wrote ${files.length} of ${files.length} files to `));
  });

  it("names the demo's relations as its hand-written definitions do, with the same tables in the same roles", () => {
    const tablesOf = (file: string) =>
      [...readFileSync(file, 'utf8').matchAll(/<table name="([^"]+)" role="(Parent|ParentExtension|Child|Join)"/g)].map(
        (m) => `${m[2]}:${m[1]}`,
      );
    const demo = path.join(root, 'definitions');
    const shared = readdirSync(demo).filter((file) => file.endsWith('.xml') && readdirSync(out).includes(file));
    expect(shared.sort()).toEqual(
      ['Book', 'BookAuthors', 'BookReviews', 'BookWithDetail', 'Inventory', 'Publisher', 'PublisherBooks'].map(
        (n) => `${n}.xml`,
      ),
    );
    for (const file of shared) {
      expect({ file, tables: tablesOf(path.join(out, file)) }).toEqual({
        file,
        tables: tablesOf(path.join(demo, file)),
      });
    }
  });

  it('writes definitions that validate, with a warning only for the table without a primary key', async () => {
    const results = await validateDefinitions(readConfig({ DATABASE_URL: db.url, DEFINITIONS_DIR: out }));
    await closeDatabases();
    const notOk = results.filter((r) => r.status !== 'ok').map((r) => `${r.name} ${r.status} ${r.detail}`);
    expect(notOk).toEqual([
      `${keyless} warning flat, 2 fields; serves reads, but table store_visit has no primary key, so rows cannot be addressed by key (only filtered writes)`,
    ]);
    expect(results).toHaveLength(keyed.length + 1);
  });

  it.each(keyed)('serves %s: reads, and an insert, update and delete by key', async (name) => {
    const all = await call('GET', `/res/${name}`);
    expect({ status: all.status, text: all.text }).toEqual({ status: 200, text: expect.any(String) });
    const meta = (await call('GET', `/conf/metadata/${name}`)).body as unknown as Metadata;
    expect(Array.isArray(all.body[meta.collectionName])).toBe(true);
    const trip = await roundTrip(meta, refer, call);
    expect(trip).toEqual({
      inserted: { status: 200, rowsAffected: extended.includes(name) ? 2 : 1, text: expect.any(String) },
      keys: trip.keys.map(() => expect.anything()),
      read: { status: 200, rows: 1 },
      updated: { status: 200, rowsAffected: 1, text: expect.any(String) },
      changed: trip.changed ? { sent: trip.changed.sent, read: trip.changed.sent } : undefined,
      deleted: { status: 200, text: expect.any(String) },
      gone: { status: 200, rows: 0 },
    });
  });

  it('reads another schema with --schema (on MySQL, another database), and qualifies its tables', async () => {
    const other = target.engine === 'mysql' ? `${new URL(db.url).pathname.slice(1)}_shop` : 'shop';
    const create = target.engine === 'mysql' ? 'create database' : 'create schema';
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'rrs-generate-schema-'));
    try {
      await db.exec(`${create} ${other}`);
      await db.exec(`create table ${other}.item (item_id int not null primary key, label varchar(20) not null)`);
      const run = await runGenerate(['--database', db.url, '--out', elsewhere, '--schema', other]);
      expect(run.stdout).toContain(`Read 1 table of schema ${other} on `);
      const item = readFileSync(path.join(elsewhere, 'Item.xml'), 'utf8');
      expect(item).toContain(`    from ${other}.item\n`);
      expect(item).toContain(`<table name="${other}.item" role="Parent"`);
      const results = await validateDefinitions(readConfig({ DATABASE_URL: db.url, DEFINITIONS_DIR: elsewhere }));
      expect(results.map((r) => [r.name, r.status, r.detail])).toEqual([['Item', 'ok', 'flat, 2 fields']]);
    } finally {
      await closeDatabases();
      if (target.engine === 'mysql') await db.exec(`drop database if exists ${other}`);
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it(`serves ${keyless}, a table without a primary key: reads and inserts`, async () => {
    const inserted = await call('POST', `/res/${keyless}`, 'note=passing%20by', 'application/x-www-form-urlencoded');
    expect({ status: inserted.status, rowsAffected: inserted.body.rowsAffected }).toEqual({
      status: 200,
      rowsAffected: 1,
    });
    const read = await call('GET', `/res/${keyless}?note=passing%20by`);
    expect(read.body.store_visits).toEqual([expect.objectContaining({ note: 'passing by' })]);
  });
});

/**
 * For each foreign key column of the schema, the value the seeded row of its table holds (every table that others
 * refer to has one row), read with the engine's own catalog description.
 */
async function learnForeignKeys(
  db: TestDatabase,
  engine: TestDatabase['engine'],
  referenced: Map<string, Value>,
): Promise<void> {
  const seeded = new Map<string, Record<string, unknown>>();
  const client = await connectTo(db.url, {
    connectTimeoutMs: 5000,
    statementTimeoutMs: 20000,
    poolSize: 1,
    idleTimeoutS: 5,
  });
  try {
    const schema = await engineNamed(engine).describeSchema(client);
    for (const table of schema.tables) {
      for (const key of table.foreignKeys) {
        const row = seeded.get(key.refTable) ?? (await db.exec(`select * from ${key.refTable}`))[0] ?? {};
        seeded.set(key.refTable, row);
        key.columns.forEach((column, i) => {
          referenced.set(`${table.table}.${column}`, row[key.refColumns[i] as string] as Value);
        });
      }
    }
  } finally {
    await client.close();
  }
}
