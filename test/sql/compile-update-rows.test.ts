/**
 * UPDATE of many rows by key, each to its own values: the exact SQL and params for postgres and mysql side by
 * side, then each case on the real databases, where every row must end up with its own values whatever the
 * column's type (PostgreSQL reads the CASE's parameters in the column's type), and rowsAffected counts the rows
 * matched, changed or not.
 */
import { format } from 'mysql2';
import type { Database } from '../../lib/db/database';
import { sqlShapeOf } from '../../lib/db/engines/registry';
import { type UpdateRun, updateRuns } from '../../lib/execute/update-rows';
import type { UpdateRows } from '../../lib/plan/plan';
import type { EngineName, ResourceTable, SqlResource } from '../../lib/resource';
import { compileUpdateRows, type KeyedValues } from '../../lib/sql/compile-update-rows';
import type { CompiledQuery } from '../../lib/sql/compiled-query';
import type { Value } from '../../lib/values';
import { connectTo } from '../support/connect';
import { type TestDatabase, targets } from '../support/databases';
import { engineNames } from '../support/resources';

interface Case {
  name: string;
  keyColumns: string[];
  rows: KeyedValues[];
  postgres: CompiledQuery;
  mysql: CompiledQuery;
}

const book = { schema: 'shop', table: 'book' };

const cases: Case[] = [
  {
    name: 'two rows by a one-column key, two columns each',
    keyColumns: ['book_id'],
    rows: [
      { key: [1n], values: { title: 'A', price: '1.50' } },
      { key: [2n], values: { title: 'B', price: null } },
    ],
    postgres: {
      text: 'UPDATE "shop"."book" SET "title" = CASE WHEN "book_id" = $1 THEN $2 WHEN "book_id" = $3 THEN $4 ELSE "title" END, "price" = CASE WHEN "book_id" = $5 THEN $6 WHEN "book_id" = $7 THEN $8 ELSE "price" END WHERE "book_id" IN ($9, $10)',
      params: ['1', 'A', '2', 'B', '1', '1.50', '2', null, '1', '2'],
    },
    mysql: {
      text: 'UPDATE `shop`.`book` SET `title` = CASE WHEN `book_id` = ? THEN ? WHEN `book_id` = ? THEN ? ELSE `title` END, `price` = CASE WHEN `book_id` = ? THEN ? WHEN `book_id` = ? THEN ? ELSE `price` END WHERE `book_id` IN (?, ?)',
      params: [1n, 'A', 2n, 'B', 1n, '1.50', 2n, null, 1n, 2n],
    },
  },
  {
    name: 'a compound key, and typed values (date, boolean)',
    keyColumns: ['isbn', 'edition_no'],
    rows: [
      { key: ['x', 1n], values: { out_on: '2024-02-29', live: true } },
      { key: ['y', 2n], values: { out_on: null, live: false } },
    ],
    postgres: {
      text: 'UPDATE "shop"."edition" SET "out_on" = CASE WHEN "isbn" = $1 AND "edition_no" = $2 THEN $3 WHEN "isbn" = $4 AND "edition_no" = $5 THEN $6 ELSE "out_on" END, "live" = CASE WHEN "isbn" = $7 AND "edition_no" = $8 THEN $9 WHEN "isbn" = $10 AND "edition_no" = $11 THEN $12 ELSE "live" END WHERE ("isbn", "edition_no") IN (($13, $14), ($15, $16))',
      params: ['x', '1', '2024-02-29', 'y', '2', null, 'x', '1', true, 'y', '2', false, 'x', '1', 'y', '2'],
    },
    mysql: {
      text: 'UPDATE `shop`.`edition` SET `out_on` = CASE WHEN `isbn` = ? AND `edition_no` = ? THEN ? WHEN `isbn` = ? AND `edition_no` = ? THEN ? ELSE `out_on` END, `live` = CASE WHEN `isbn` = ? AND `edition_no` = ? THEN ? WHEN `isbn` = ? AND `edition_no` = ? THEN ? ELSE `live` END WHERE (`isbn`, `edition_no`) IN ((?, ?), (?, ?))',
      params: ['x', 1n, '2024-02-29', 'y', 2n, null, 'x', 1n, 1, 'y', 2n, 0, 'x', 1n, 'y', 2n],
    },
  },
];

/** The statement as the driver gets it, without the target it carries (tested on its own below). */
const sent = ({ target: _target, ...statement }: CompiledQuery) => statement;

const tableOf = (c: Case, schema: string) => ({ schema, table: c.keyColumns.length > 1 ? 'edition' : 'book' });
const compile = (engine: EngineName, c: Case, schema = 'shop') =>
  compileUpdateRows(sqlShapeOf(engine), tableOf(c, schema), c.keyColumns, c.rows);

describe('compileUpdateRows', () => {
  it.each(cases)('postgres: $name', (c) => expect(sent(compile('postgres', c))).toEqual(c.postgres));
  it.each(cases)('mysql: $name', (c) => expect(sent(compile('mysql', c))).toEqual(c.mysql));
  it.each(cases)('carries its rows by key as its target: $name', (c) => {
    const where = [{ columns: c.keyColumns, keys: c.rows.map((row) => row.key) }];
    expect(compile('postgres', c).target).toEqual({
      verb: 'update',
      table: tableOf(c, 'shop'),
      where,
      filters: [],
      set: c.rows,
    });
  });
  it('refuses rows without columns', () => {
    expect(() => compileUpdateRows(sqlShapeOf('postgres'), book, ['book_id'], [{ key: [1n], values: {} }])).toThrow();
  });
});

describe.each(targets())('multi-row UPDATE on $name', (target) => {
  let testDb: TestDatabase;
  let db: Database;
  const schema = () => (target.engine === 'mysql' ? new URL(testDb.url).pathname.slice(1) : 'shop');

  beforeAll(async () => {
    testDb = await target.create();
    const pg = target.engine === 'postgres';
    const at = pg ? 'shop.' : '';
    if (pg) await testDb.exec('CREATE SCHEMA shop');
    await testDb.exec(`CREATE TABLE ${at}book (book_id int PRIMARY KEY, title varchar(100), price decimal(8,2))`);
    await testDb.exec(
      `CREATE TABLE ${at}edition (isbn varchar(20), edition_no int, out_on date, live ${pg ? 'boolean' : 'tinyint(1)'}, PRIMARY KEY (isbn, edition_no))`,
    );
    await testDb.exec(`INSERT INTO ${at}book VALUES (1, 'a', 9), (2, 'b', 9), (3, 'c', 9)`);
    await testDb.exec(
      `INSERT INTO ${at}edition VALUES ('x', 1, '2020-01-01', ${pg ? 'false' : '0'}), ('y', 2, '2020-01-01', ${pg ? 'true' : '1'})`,
    );
    const options = { connectTimeoutMs: 3000, statementTimeoutMs: 10000, poolSize: 1, idleTimeoutS: 300 };
    db = await connectTo(testDb.url, options);
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('sets each row to its own values, leaves the others, and counts the rows matched', async () => {
    const at = target.engine === 'postgres' ? 'shop.' : '';
    const [books, editions] = cases;
    expect((await db.run(compile(target.engine, books as Case, schema()))).rowsAffected).toBe(2);
    expect((await db.run(compile(target.engine, editions as Case, schema()))).rowsAffected).toBe(2);
    // unchanged values still count as matched
    expect((await db.run(compile(target.engine, editions as Case, schema()))).rowsAffected).toBe(2);
    const rows = await testDb.exec(`SELECT book_id, title, price FROM ${at}book ORDER BY book_id`);
    expect(rows.map((r) => [Number(r.book_id), r.title, r.price === null ? null : Number(r.price)])).toEqual([
      [1, 'A', 1.5],
      [2, 'B', null],
      [3, 'c', 9],
    ]);
    const eds = await testDb.exec(
      `SELECT isbn, CAST(out_on AS char(10)) AS out_on, live FROM ${at}edition ORDER BY isbn`,
    );
    expect(eds.map((r) => [r.isbn, r.out_on, Boolean(Number(r.live) || r.live === true)])).toEqual([
      ['x', '2024-02-29', true],
      ['y', null, false],
    ]);
  });
});

describe('updateRuns', () => {
  const item: ResourceTable = {
    name: 'item',
    schema: 's',
    table: 'item',
    role: 'Parent',
    uniqueKeys: [],
    primaryKey: ['item_id'],
    generatedColumns: [],
    links: [],
  };
  const resourceOn = (engine: EngineName) => ({ engine, tables: { item } }) as unknown as SqlResource;
  const update = (id: number, parent: Record<string, string | null>, extensions: UpdateRows['extensions'] = []) =>
    ({ target: { kind: 'keys', keys: [[BigInt(id)]] }, parent, extensions }) as UpdateRows;

  it('puts consecutive rows that set the same columns of different keys together, in order', async () => {
    const updates = [
      update(1, { a: 'x' }),
      update(2, { a: 'y' }),
      update(1, { a: 'z' }), // row 1 again: after the first
      update(3, { a: 'w' }),
      update(4, { b: 'v' }), // other columns
      update(5, { b: 'u' }, [{ table: 'ext', values: { c: '1' } }]), // an extension row: alone
      update(6, { item_id: '9', b: 'u' }), // changes its key: alone
      update(7, { b: 't' }),
    ];
    const ids = (runs: UpdateRun[]) =>
      runs.map((run) => run.updates.map((u) => (u.target.kind === 'keys' ? Number(u.target.keys[0]?.[0]) : 0)));
    expect(ids(await updateRuns(resourceOn('postgres'), updates, undefined))).toEqual([
      [1, 2],
      [1, 3],
      [4],
      [5],
      [6],
      [7],
    ]);
    expect(ids(await updateRuns(resourceOn('mysql'), updates, { parts: ['q'], values: [] }))).toEqual(
      updates.map((_, i) => [[1, 2, 1, 3, 4, 5, 6, 7][i]]),
    );
  });

  it.each(engineNames)(
    '%s: every statement of a 10,000-row update stays under 16 KB of text, values included on mysql',
    async (engine) => {
      const updates = Array.from({ length: 10_000 }, (_, i) => update(i, { note: `it's "row" ${i}`, qty: `${i}` }));
      const runs = await updateRuns(resourceOn(engine), updates, undefined);
      expect(runs.flatMap((run) => run.updates)).toEqual(updates);
      expect(runs.length).toBeGreaterThan(10);
      for (const [i, run] of runs.entries()) {
        const rows = run.updates.map((u) => ({
          key: u.target.kind === 'keys' ? (u.target.keys[0] ?? []) : [],
          values: u.parent,
        }));
        const keys = rows.map((row) => row.key);
        // as run when the query shows some rows only: the rows are listed a second time
        const statement = compileUpdateRows(sqlShapeOf(engine), item, item.primaryKey, rows, [
          { columns: item.primaryKey, keys },
        ]);
        expect(run.statement).toEqual(statement);
        const sent = engine === 'mysql' ? format(statement.text, statement.params as Value[]) : statement.text;
        expect(Buffer.byteLength(sent)).toBeLessThan(16 * 1024);
        if (i < runs.length - 1) expect(Buffer.byteLength(sent)).toBeGreaterThan(14_000);
      }
    },
  );
});
