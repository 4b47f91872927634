/**
 * Which connection a definition's `<database default="X">` uses, and one cached Database per URL for the
 * life of the container. The only place that creates driver clients.
 */
import type { Config } from '../config';
import { DatabaseError } from '../errors';
import type { Dialect } from '../resource';
import type { Database } from './database';
import { databaseOf, serverOf } from './mask-url';
import type { ConnectOptions } from './postgres-database';

/** The connection chosen for database X: its URL, the variable it came from, whether X replaced its database. */
interface DatabaseChoice {
  readonly url: string;
  /** `DATABASE_URL_X` or `DATABASE_URL`. */
  readonly variable: string;
  /** True when the URL is DATABASE_URL with its database part replaced by X. */
  readonly replaced: boolean;
}

/** `DATABASE_URL_X` for database X: upper-cased, any character outside A-Z0-9 turned into `_`. */
function variableFor(database: string): string {
  return `DATABASE_URL_${database.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** DATABASE_URL_X, else DATABASE_URL with its database part replaced by X. Pure. */
function chooseDatabase(config: Pick<Config, 'databaseUrl' | 'databaseUrls'>, database?: string): DatabaseChoice {
  if (database) {
    const variable = variableFor(database);
    const specific = config.databaseUrls[variable.slice('DATABASE_URL_'.length)];
    if (specific) return { url: specific, variable, replaced: false };
  }
  if (!config.databaseUrl) {
    throw new DatabaseError('database_unconfigured', 'No database is configured: set DATABASE_URL (see README)');
  }
  if (!database) return { url: config.databaseUrl, variable: 'DATABASE_URL', replaced: false };
  let url: URL;
  try {
    url = new URL(config.databaseUrl);
  } catch (error) {
    throw new DatabaseError(
      'database_unconfigured',
      'DATABASE_URL is not a valid URL (expected postgres://... or mysql://...)',
      error,
    );
  }
  url.pathname = `/${encodeURIComponent(database)}`;
  return { url: url.toString(), variable: 'DATABASE_URL', replaced: true };
}

/** The URL for database X. Pure. */
export function databaseUrlFor(config: Pick<Config, 'databaseUrl' | 'databaseUrls'>, database?: string): string {
  return chooseDatabase(config, database).url;
}

/**
 * What to tell the user when the database a resource uses does not exist on its server: a configuration
 * error, so the sentence names the variable that fixes it. Never shows a password. Pure.
 */
export function explainMissingDatabase(
  config: Pick<Config, 'databaseUrl' | 'databaseUrls'>,
  resource: string,
  database?: string,
): string {
  const { url, variable, replaced } = chooseDatabase(config, database);
  if (database && replaced) {
    return `Resource ${resource} selects database ${database}, which does not exist on the server of DATABASE_URL (${serverOf(url)}); create it there, or set ${variableFor(database)} to the URL of the database to use`;
  }
  const uses = database ? `selects database ${database} through` : 'uses';
  return `Resource ${resource} ${uses} ${variable}, whose database ${databaseOf(url)} does not exist on its server (${serverOf(url)}); create it, or set ${variable} to the URL of an existing database`;
}

/** URL schemes and the database each names. */
const schemes: Readonly<Record<string, Dialect>> = {
  postgres: 'postgres',
  postgresql: 'postgres',
  mysql: 'mysql',
  mariadb: 'mysql',
};

export function dialectOf(url: string): Dialect {
  const colon = url.indexOf(':');
  const scheme = colon < 0 ? '' : url.slice(0, colon).toLowerCase();
  const dialect = Object.hasOwn(schemes, scheme) ? schemes[scheme] : undefined;
  if (dialect) return dialect;
  throw new DatabaseError(
    'database_unconfigured',
    `Database URL scheme "${scheme}:" is not supported; use postgres:// or mysql://`,
  );
}

/** One client per URL for the life of the container; the promise is cached so concurrent first uses share it. */
const databases = new Map<string, Promise<Database>>();

/** Each driver is loaded when its database is first used: a PostgreSQL container never evaluates mysql2. */
const drivers: Readonly<Record<Dialect, (url: string, options: ConnectOptions) => Promise<Database>>> = {
  postgres: async (url, options) => (await import('./postgres-database')).connectPostgres(url, options),
  mysql: async (url, options) => (await import('./mysql-database')).connectMysql(url, options),
};

export function selectDatabase(config: Config, database?: string): Promise<Database> {
  const url = databaseUrlFor(config, database);
  let db = databases.get(url);
  if (!db) {
    const { connectTimeoutMs, statementTimeoutMs, poolSize, idleTimeoutS } = config;
    db = drivers[dialectOf(url)](url, { connectTimeoutMs, statementTimeoutMs, poolSize, idleTimeoutS });
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
