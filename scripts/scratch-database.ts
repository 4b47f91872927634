/**
 * A database of its own on a PostgreSQL or MySQL/MariaDB server, created from an admin URL and dropped when done:
 * for the test suites (test/support/databases.ts) and the benchmarks (scripts/bench/bulk.ts), so neither disturbs
 * the server's other databases. `exec` runs SQL outside the service (setup, verification), one statement at a time.
 */
import mysql from 'mysql2/promise';
import postgres from 'postgres';
import { engineOfUrl } from '../lib/db/engines/registry';

export interface ScratchDatabase {
  readonly url: string;
  exec(sql: string): Promise<Record<string, unknown>[]>;
  drop(): Promise<void>;
}

const nameWith = (prefix: string) => `${prefix}_${process.pid}_${Math.floor(Math.random() * 1e9)}`;

/** The same server URL naming database `name`. */
export function urlOf(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database named `{prefix}_{pid}_{random}` on the server of `adminUrl` (postgres:// or mysql://). */
export function createScratchDatabase(adminUrl: string, prefix: string): Promise<ScratchDatabase> {
  return engineOfUrl(adminUrl).name === 'mysql'
    ? createMysql(adminUrl, nameWith(prefix))
    : createPostgres(adminUrl, nameWith(prefix));
}

async function createPostgres(adminUrl: string, name: string): Promise<ScratchDatabase> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = urlOf(adminUrl, name);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  return {
    url,
    exec: async (text) => [...(await sql.unsafe(text))] as Record<string, unknown>[],
    drop: async () => {
      await sql.end();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function createMysql(adminUrl: string, name: string): Promise<ScratchDatabase> {
  const admin = await mysql.createConnection({ uri: adminUrl });
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
  const url = urlOf(adminUrl, name);
  const conn = await mysql.createConnection({
    uri: url,
    multipleStatements: false,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  return {
    url,
    exec: async (text) => {
      const [rows] = await conn.query(text);
      return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
    },
    drop: async () => {
      await conn.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    },
  };
}
