/**
 * The tables bench:cap reads, in a database of its own (rrs_bench_cap) on a PostgreSQL or MySQL/MariaDB server:
 * big_row (N narrow rows) and wide_row (20,000 rows of about 10 KB), each filled by one INSERT ... SELECT over a
 * series of numbers, and kept when it already holds as many rows as asked, so that repeated runs start at once.
 * Also the definitions folder of the two flat resources over them. Touches no other database.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import postgres from 'postgres';
import { engineOfUrl } from '../../lib/db/engines/registry';

export const BENCH_DATABASE = 'rrs_bench_cap';
export const WIDE_ROWS = 20_000;

interface Connection {
  query(sql: string): Promise<Record<string, unknown>[]>;
  end(): Promise<void>;
}

async function connect(url: string): Promise<Connection> {
  if (engineOfUrl(url).name === 'postgres') {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    return { query: async (text) => [...(await sql.unsafe(text))], end: () => sql.end() };
  }
  const connection = await mysql.createConnection({ uri: url, charset: 'utf8mb4' });
  return {
    query: async (text) => {
      const [rows] = await connection.query(text);
      return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
    },
    end: () => connection.end(),
  };
}

/** Creates rrs_bench_cap on the server of `url` (any database there) if missing; its URL and the server's version. */
export async function benchDatabase(url: string): Promise<{ url: string; version: string }> {
  const admin = await connect(url);
  try {
    const [row] = await admin.query('select version() as version');
    if (engineOfUrl(url).name === 'mysql')
      await admin.query(`create database if not exists ${BENCH_DATABASE} character set utf8mb4`);
    else if ((await admin.query(`select 1 from pg_database where datname = '${BENCH_DATABASE}'`)).length === 0)
      await admin.query(`create database ${BENCH_DATABASE}`);
    const own = new URL(url);
    own.pathname = `/${BENCH_DATABASE}`;
    return { url: own.toString(), version: String(row?.version) };
  } finally {
    await admin.end();
  }
}

interface Table {
  readonly name: string;
  readonly columns: (onMysql: boolean) => string;
  /** The select list of the row numbered `seq`. */
  readonly row: (onMysql: boolean) => string;
}

const bigRow: Table = {
  name: 'big_row',
  columns: (onMysql) =>
    `id integer primary key, name varchar(40), note varchar(200), amount decimal(10,2), created timestamp${onMysql ? ' null' : ''}`,
  row: (onMysql) =>
    `seq, concat('name ', seq), rpad(concat('note ', seq, ' '), 100, 'abcdefghij'), (seq % 100000) / 100.0, ` +
    (onMysql
      ? `timestamp '2024-01-01 00:00:00' + interval seq second`
      : `timestamp '2024-01-01' + seq * interval '1 second'`),
};

const wideRow: Table = {
  name: 'wide_row',
  columns: () => 'id integer primary key, body text',
  row: () => `seq, repeat(md5(concat('', seq)), 320)`,
};

/** The numbers 1 to n, as a table with one column, seq. */
async function numbers(db: Connection, onMysql: boolean, n: number): Promise<string> {
  if (!onMysql) return `generate_series(1, ${n}) as numbers(seq)`;
  const sequenceEngine = await db.query(
    `select 1 from information_schema.engines where engine = 'SEQUENCE' and support in ('YES', 'DEFAULT')`,
  );
  if (sequenceEngine.length > 0) return `seq_1_to_${n}`; // MariaDB's sequence engine
  // MySQL: one digit per power of ten, cross joined
  const digits =
    '(select 0 as d union all select 1 union all select 2 union all select 3 union all select 4 union all select 5 union all select 6 union all select 7 union all select 8 union all select 9)';
  const powers = Array.from({ length: String(n).length }, (_, i) => i);
  const sum = powers.map((i) => `${10 ** i} * d${i}.d`).join(' + ');
  const joined = powers.map((i) => `${digits} as d${i}`).join(' cross join ');
  return `(select ${sum} + 1 as seq from ${joined}) as numbers where seq <= ${n}`;
}

/** Fills `table` with `n` rows unless it holds exactly `n` already; a line saying which, and how long filling took. */
async function fill(db: Connection, onMysql: boolean, table: Table, n: number): Promise<string> {
  await db.query(`create table if not exists ${table.name} (${table.columns(onMysql)})`);
  const [count] = await db.query(`select count(*) as n from ${table.name}`);
  if (Number(count?.n) === n) return `${table.name}: ${n} rows, kept`;
  const started = performance.now();
  await db.query(`drop table ${table.name}`);
  await db.query(`create table ${table.name} (${table.columns(onMysql)})`);
  await db.query(`insert into ${table.name} select ${table.row(onMysql)} from ${await numbers(db, onMysql, n)}`);
  await db.query(onMysql ? `analyze table ${table.name}` : `vacuum analyze ${table.name}`);
  return `${table.name}: ${n} rows, filled in ${((performance.now() - started) / 1000).toFixed(1)} s`;
}

/** Fills big_row with `rows` rows and wide_row with 20,000 in the database at `url`; a line per table. */
export async function fillBenchTables(url: string, rows: number): Promise<string[]> {
  const onMysql = engineOfUrl(url).name === 'mysql';
  const db = await connect(url);
  try {
    return [await fill(db, onMysql, bigRow, rows), await fill(db, onMysql, wideRow, WIDE_ROWS)];
  } finally {
    await db.end();
  }
}

const definition = (table: string, columns: string) => `<?xml version="1.0" encoding="UTF-8"?>
<rs:sqlResource xmlns:rs="http://restsql.org/schema">
  <query>select ${columns} from ${table}</query>
  <metadata>
    <database default="${BENCH_DATABASE}"/>
    <table name="${table}" role="Parent"/>
  </metadata>
</rs:sqlResource>
`;

/** A new temporary folder holding BigRow.xml and WideRow.xml, flat resources over big_row and wide_row. */
export function writeBenchDefinitions(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'rrs-bench-cap-'));
  writeFileSync(path.join(folder, 'BigRow.xml'), definition('big_row', 'id, name, note, amount, created'));
  writeFileSync(path.join(folder, 'WideRow.xml'), definition('wide_row', 'id, body'));
  return folder;
}
