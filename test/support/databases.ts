/**
 * The databases integration tests run on: embedded PostgreSQL (PGlite over the wire) always; the PostgreSQL and
 * MariaDB servers when TEST_PG_URL / TEST_MYSQL_URL are set (.ci/run sets both and requires them). A server
 * without its URL is left out, and the run says so at the end (left-out.ts). Each target gets a fresh database
 * of its own, created and dropped here, so test files never disturb each other.
 */
import { PGlite } from '@electric-sql/pglite';
import mysql from 'mysql2/promise';
import postgres from 'postgres';
import { startPgliteServer } from '../../scripts/pglite-server';
import { markPerServer, missingServers, noteLeftOut, serverUrl, type TestServer, testServers } from './left-out';
import type { TestDialect } from './schema';

export interface TestDatabase {
  readonly url: string;
  readonly dialect: TestDialect;
  /** Runs SQL on the test database outside the service (setup, verification). */
  exec(sql: string): Promise<Record<string, unknown>[]>;
  drop(): Promise<void>;
}

export interface Target {
  readonly name: 'pglite' | 'postgres' | 'mariadb';
  readonly dialect: TestDialect;
  create(): Promise<TestDatabase>;
}

const unique = () => `rrs_t_${process.pid}_${Math.floor(Math.random() * 1e9)}`;

async function createPglite(): Promise<TestDatabase> {
  const db = await PGlite.create();
  const server = await startPgliteServer(db);
  return {
    url: server.url('test'),
    dialect: 'postgres',
    exec: async (sql) => (await db.query<Record<string, unknown>>(sql)).rows,
    drop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

async function createPostgres(adminUrl: string): Promise<TestDatabase> {
  const name = unique();
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
  return {
    url: url.toString(),
    dialect: 'postgres',
    exec: async (text) => [...(await sql.unsafe(text))] as Record<string, unknown>[],
    drop: async () => {
      await sql.end();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function createMariadb(adminUrl: string): Promise<TestDatabase> {
  const name = unique();
  const admin = await mysql.createConnection({ uri: adminUrl });
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const conn = await mysql.createConnection({
    uri: url.toString(),
    multipleStatements: false,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  return {
    url: url.toString(),
    dialect: 'mysql',
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

const servers: Record<TestServer['name'], (url: string) => Target> = {
  postgres: (url) => ({ name: 'postgres', dialect: 'postgres', create: () => createPostgres(url) }),
  mariadb: (url) => ({ name: 'mariadb', dialect: 'mysql', create: () => createMariadb(url) }),
};

function configuredServers(): Target[] {
  return testServers.flatMap((server) => {
    const url = serverUrl(server);
    return url ? [servers[server.name](url)] : [];
  });
}

/**
 * PGlite, plus each server whose URL is set. `describe.each(targets())` notes the servers it leaves out for
 * the run's summary; taking only the PGlite target from the list leaves nothing out.
 */
export function targets(): Target[] {
  return markPerServer(
    [{ name: 'pglite', dialect: 'postgres', create: createPglite }, ...configuredServers()],
    missingServers(),
  );
}

/** The servers whose URL is set, for tests that only make sense on a server; the others are noted as left out. */
export function serverTargets(): Target[] {
  noteLeftOut(missingServers());
  return configuredServers();
}
