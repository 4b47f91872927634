/**
 * Which connection a definition's `<database default="X">` uses, and one cached Database per URL for the
 * life of the container. The only place that creates driver clients, each with its login (database-credentials.ts:
 * the URL's password, an IAM token, or a Secrets Manager secret).
 */
import type { Config } from '../config';
import { DatabaseError } from '../errors';
import type { Dialect } from '../resource';
import type { Database } from './database';
import { forgetCredentials, type PasswordSource, resolveLogin } from './database-credentials';
import { databaseOf, serverOf } from './mask-url';
import type { ConnectOptions } from './postgres-database';
import { renewingDatabase } from './renewing-database';

/** The connection chosen for database X: its URL, the variable it came from, whether X replaced its database. */
interface DatabaseChoice {
  /** Undefined when only DATABASE_SECRET_ARN names the server (the secret's host, port and dbname). */
  readonly url?: string;
  /** `DATABASE_URL_X`, `DATABASE_URL`, or `DATABASE_SECRET_ARN`. */
  readonly variable: string;
  /** True when the URL is DATABASE_URL with its database part replaced by X. */
  readonly replaced: boolean;
}

/** `DATABASE_URL_X` for database X: upper-cased, any character outside A-Z0-9 turned into `_`. */
function variableFor(database: string): string {
  return `DATABASE_URL_${database.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** What chooses a database's URL (the secret, when neither DATABASE_URL nor DATABASE_URL_X is set). */
type UrlConfig = Pick<Config, 'databaseUrl' | 'databaseUrls'> & Partial<Pick<Config, 'databaseSecretArn'>>;

/** DATABASE_URL_X, else DATABASE_URL with its database part replaced by X, else the secret's server. Pure. */
function chooseDatabase(config: UrlConfig, database?: string): DatabaseChoice {
  if (database) {
    const variable = variableFor(database);
    const specific = config.databaseUrls[variable.slice('DATABASE_URL_'.length)];
    if (specific) return { url: specific, variable, replaced: false };
  }
  if (!config.databaseUrl && config.databaseSecretArn) {
    return { variable: 'DATABASE_SECRET_ARN', replaced: Boolean(database) };
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
  return chooseDatabase(config, database).url as string;
}

/**
 * What to tell the user when the database a resource uses does not exist on its server: a configuration
 * error, so the sentence names the variable that fixes it. Never shows a password. Pure.
 */
export function explainMissingDatabase(config: UrlConfig, resource: string, database?: string): string {
  const { url, variable, replaced } = chooseDatabase(config, database);
  if (url === undefined) {
    const secret = `the database secret ${config.databaseSecretArn} (DATABASE_SECRET_ARN)`;
    return database
      ? `Resource ${resource} selects database ${database}, which does not exist on the server of ${secret}; create it there, or set ${variableFor(database)} to the URL of the database to use`
      : `Resource ${resource} uses the database named by ${secret}, which does not exist on its server; create it, or correct the secret's dbname`;
  }
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

type Connect = (url: string, options: ConnectOptions, source?: PasswordSource) => Database;

/** Each driver is loaded when its database is first used: a PostgreSQL container never evaluates mysql2. */
const drivers: Readonly<Record<Dialect, () => Promise<Connect>>> = {
  postgres: async () => (await import('./postgres-database')).connectPostgres,
  mysql: async () => (await import('./mysql-database')).connectMysql,
};

/** The login first (a secret is fetched on first use), then the driver's client. */
async function connect(config: Config, choice: DatabaseChoice, database?: string): Promise<Database> {
  const { url, source } = await resolveLogin(config, choice.url, choice.variable, database);
  const connectDriver = await drivers[dialectOf(url)]();
  const { connectTimeoutMs, statementTimeoutMs, poolSize, idleTimeoutS } = config;
  const db = connectDriver(url, { connectTimeoutMs, statementTimeoutMs, poolSize, idleTimeoutS }, source);
  return source ? renewingDatabase(db, source) : db;
}

export function selectDatabase(config: Config, database?: string): Promise<Database> {
  const choice = chooseDatabase(config, database);
  // the secret's own server: one client per database X of it
  const key = choice.url ?? `${config.databaseSecretArn}\u0000${database ?? ''}`;
  let db = databases.get(key);
  if (!db) {
    const pending = connect(config, choice, database);
    db = pending;
    databases.set(key, pending);
    // a failure (a secret that could not be read) is not kept: the next request tries again
    pending.catch(() => {
      if (databases.get(key) === pending) databases.delete(key);
    });
  }
  return db;
}

/** Closes every client and forgets the cached secrets (tests and the local server's shutdown). */
export async function closeDatabases(): Promise<void> {
  const all = [...databases.values()];
  databases.clear();
  forgetCredentials();
  await Promise.all(all.map(async (db) => (await db.catch(() => undefined))?.close()));
}
