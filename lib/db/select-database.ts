/**
 * D5: which connection a definition's `<database default="X">` uses, and one cached Database per URL for the
 * life of the container. The only place that creates driver clients.
 */
import type { Config } from '../config';
import { DatabaseError } from '../errors';
import type { Dialect } from '../resource';
import { connectMysql } from './mysql-database';
import { connectPostgres } from './postgres-database';
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

const databases = new Map<string, Database>();

export function selectDatabase(config: Config, database?: string): Database {
  const url = databaseUrlFor(config, database);
  let db = databases.get(url);
  if (!db) {
    const options = {
      connectTimeoutMs: config.connectTimeoutMs,
      statementTimeoutMs: config.statementTimeoutMs,
      poolSize: config.poolSize,
    };
    db = dialectOf(url) === 'postgres' ? connectPostgres(url, options) : connectMysql(url, options);
    databases.set(url, db);
  }
  return db;
}

/** Closes every client (tests and the local server's shutdown). */
export async function closeDatabases(): Promise<void> {
  const all = [...databases.values()];
  databases.clear();
  await Promise.all(all.map((db) => db.close()));
}
