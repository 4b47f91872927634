/**
 * Seeds the demo bookstore: drops and recreates its tables, then inserts the demo rows. `seedDemo` runs the
 * statements through any runner; run directly, it seeds the database named in a URL, creating the database
 * first when it does not exist:
 *   npm run demo:seed -- postgres://postgres@127.0.0.1:5432/bookstore
 *   npm run demo:seed -- mysql://root@127.0.0.1:3306/bookstore
 * It destroys the demo tables' contents: never point it at a database you care about.
 */
import mysql from 'mysql2/promise';
import postgres from 'postgres';
import { engineOfUrl } from '../../lib/db/engines/registry';
import { maskUrl } from '../../lib/db/mask-url';
import type { EngineName } from '../../lib/resource';
import { demoData } from './data';
import { demoSchema } from './schema';

export type RunSql = (sql: string) => Promise<unknown>;

/** Runs the schema, then the data, one statement at a time, in order. */
export async function seedDemo(run: RunSql, engine: EngineName): Promise<void> {
  for (const statement of [...demoSchema(engine), ...demoData(engine)]) await run(statement);
}

/** The database name of a URL, and the same URL pointing at a database that always exists. */
function splitDatabase(url: string, maintenanceDb: string): { name: string; maintenanceUrl: string } {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!/^\w+$/.test(name)) throw new Error(`The URL must name a database of letters, digits and _, got "${name}"`);
  parsed.pathname = `/${maintenanceDb}`;
  return { name, maintenanceUrl: parsed.toString() };
}

async function seedPostgres(url: string): Promise<void> {
  const { name, maintenanceUrl } = splitDatabase(url, 'postgres');
  const admin = postgres(maintenanceUrl, { max: 1, onnotice: () => {} });
  try {
    const found = await admin`select 1 from pg_database where datname = ${name}`;
    if (found.length === 0) await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await seedDemo((statement) => sql.unsafe(statement), 'postgres');
  } finally {
    await sql.end();
  }
}

async function seedMysql(url: string): Promise<void> {
  const { name, maintenanceUrl } = splitDatabase(url, '');
  const connection = await mysql.createConnection({ uri: maintenanceUrl, charset: 'utf8mb4' });
  try {
    await connection.query(`create database if not exists \`${name}\` character set utf8mb4`);
    await connection.query(`use \`${name}\``);
    await seedDemo((statement) => connection.query(statement), 'mysql');
  } finally {
    await connection.end();
  }
}

/** Seeds the database at `url`: PostgreSQL through postgres.js, MySQL/MariaDB through mysql2. */
export async function seedUrl(url: string): Promise<void> {
  await (engineOfUrl(url).name === 'postgres' ? seedPostgres(url) : seedMysql(url));
}

async function main(): Promise<void> {
  const url = process.argv[2];
  if (!url) {
    console.error('Usage: npm run demo:seed -- <postgres://user@host:port/db | mysql://user@host:port/db>');
    process.exit(2);
  }
  await seedUrl(url);
  console.log(`Seeded the demo bookstore into ${maskUrl(url)}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
