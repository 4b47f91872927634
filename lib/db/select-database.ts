/**
 * D5: which connection a definition's `<database default="X">` uses, and one cached Database per URL for the
 * life of the container. The only place that creates driver clients.
 */
import type { Config } from '../config';
import { DatabaseError } from '../errors';
import type { Dialect } from '../resource';
import type { ConnectOptions } from './postgres-database';
import type { Database } from './types';

/** The URL for database X: DATABASE_URL_X, else DATABASE_URL with its database part replaced by X. Pure. */
export function databaseUrlFor(config: Pick<Config, 'databaseUrl' | 'databaseUrls'>, database?: string): string {
  if (database) {
    const envName = database.toUpperCase().replace(/[^A-Z0-9]/g, '_');
    const specific = config.databaseUrls[envName];
    if (specific) return specific;
  }
  if (!config.databaseUrl) {
    throw new DatabaseError('database_unconfigured', 'No database is configured: set DATABASE_URL (see README)');
  }
  if (!database) return config.databaseUrl;
  let url: URL;
  try {
    url = new URL(config.databaseUrl);
  } catch {
    throw new DatabaseError(
      'database_unconfigured',
      'DATABASE_URL is not a valid URL (expected postgres://... or mysql://...)',
    );
  }
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

export function dialectOf(url: string): Dialect {
  const colon = url.indexOf(':');
  const scheme = colon < 0 ? '' : url.slice(0, colon).toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres';
  if (scheme === 'mysql' || scheme === 'mariadb') return 'mysql';
  throw new DatabaseError(
    'database_unconfigured',
    `Database URL scheme "${scheme}:" is not supported; use postgres:// or mysql://`,
  );
}

/** One client per URL for the life of the container; the promise is cached so concurrent first uses share it. */
const databases = new Map<string, Promise<Database>>();

/** Each driver is loaded when its dialect is first used: a PostgreSQL container never evaluates mysql2. */
async function connect(url: string, options: ConnectOptions): Promise<Database> {
  if (dialectOf(url) === 'postgres') return (await import('./postgres-database')).connectPostgres(url, options);
  return (await import('./mysql-database')).connectMysql(url, options);
}

export function selectDatabase(config: Config, database?: string): Promise<Database> {
  const url = databaseUrlFor(config, database);
  let db = databases.get(url);
  if (!db) {
    const { connectTimeoutMs, statementTimeoutMs, poolSize } = config;
    db = connect(url, { connectTimeoutMs, statementTimeoutMs, poolSize });
    databases.set(url, db);
  }
  return db;
}

/** Closes every client (tests and the local server's shutdown). */
export async function closeDatabases(): Promise<void> {
  const all = [...databases.values()];
  databases.clear();
  await Promise.all(all.map(async (db) => (await db).close()));
}
