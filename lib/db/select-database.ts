/**
 * Which connections a definition's `<database default="X">` uses (its writer, and its reader when a read URL is
 * set), and one cached Database per URL for the life of the container. The only place that creates driver clients, each with its login (database-credentials.ts:
 * the URL's password, an IAM token, or a Secrets Manager secret).
 */
import type { Config } from '../config';
import { ConfigurationError, DatabaseError } from '../errors';
import type { Database } from './database';
import { forgetCredentials, resolveLogin } from './database-credentials';
import { withDatabaseName } from './database-url';
import type { Connect, Engine } from './engine';
import { engineNamed, engineOfUrl } from './engines/registry';
import { databaseOf, serverOf } from './mask-url';
import { renewingDatabase } from './renewing-database';

/** The connection chosen for database X: its URL, the variable it came from, whether X replaced its database. */
interface DatabaseChoice {
  /** Undefined when only DATABASE_SECRET_ARN names the server (the secret's host, port and dbname). */
  readonly url?: string;
  /** `DATABASE_URL_X`, `DATABASE_URL`, `DATABASE_READ_URL_X`, `DATABASE_READ_URL` or `DATABASE_SECRET_ARN`. */
  readonly variable: string;
  /** True when the URL is DATABASE_URL (or DATABASE_READ_URL) with its database part replaced by X. */
  readonly replaced: boolean;
}

/** The NAME of `DATABASE_URL_NAME` for database X: upper-cased, any character outside A-Z0-9 turned into `_`. */
const nameOf = (database: string) => database.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/** `DATABASE_URL_X` for database X (`DATABASE_READ_URL_X` for its reader). */
function variableFor(database: string, prefix = 'DATABASE_URL_'): string {
  return `${prefix}${nameOf(database)}`;
}

/** What chooses a database's URL (the secret, when neither DATABASE_URL nor DATABASE_URL_X is set). */
type UrlConfig = Pick<Config, 'databaseUrl' | 'databaseUrls'> & Partial<Pick<Config, 'databaseSecretArn'>>;

/** What chooses a database's reader URL. */
type ReadUrlConfig = Pick<Config, 'databaseUrls' | 'databaseReadUrl' | 'databaseReadUrls'>;

/** DATABASE_URL_X, else DATABASE_URL with its database part replaced by X, else the secret's server. Pure. */
function chooseDatabase(config: UrlConfig, database?: string): DatabaseChoice {
  if (database) {
    const variable = variableFor(database);
    const specific = config.databaseUrls[nameOf(database)];
    if (specific) return { url: specific, variable, replaced: false };
  }
  if (!config.databaseUrl && config.databaseSecretArn) {
    return { variable: 'DATABASE_SECRET_ARN', replaced: Boolean(database) };
  }
  if (!config.databaseUrl) {
    throw new DatabaseError('database_unconfigured', 'No database is configured: set DATABASE_URL (see README)');
  }
  if (!database) return { url: config.databaseUrl, variable: 'DATABASE_URL', replaced: false };
  return {
    url: withDatabaseName(config.databaseUrl, 'DATABASE_URL', database),
    variable: 'DATABASE_URL',
    replaced: true,
  };
}

/**
 * The reader of database X, mirroring chooseDatabase: DATABASE_READ_URL_X, else DATABASE_READ_URL with its
 * database part replaced by X. DATABASE_READ_URL is a replica of DATABASE_URL's server (or the secret's), so a
 * database whose writer is DATABASE_URL_X gets no reader from it: without DATABASE_READ_URL_X its reads stay on
 * its writer. Undefined: reads go to the writer. Pure.
 */
function chooseReadDatabase(config: ReadUrlConfig, database?: string): DatabaseChoice | undefined {
  if (database) {
    const specific = config.databaseReadUrls[nameOf(database)];
    if (specific) return { url: specific, variable: variableFor(database, 'DATABASE_READ_URL_'), replaced: false };
    if (config.databaseUrls[nameOf(database)]) return undefined;
  }
  const url = config.databaseReadUrl;
  if (!url) return undefined;
  if (!database) return { url, variable: 'DATABASE_READ_URL', replaced: false };
  return { url: withDatabaseName(url, 'DATABASE_READ_URL', database), variable: 'DATABASE_READ_URL', replaced: true };
}

/** The URL for database X. Pure. */
export function databaseUrlFor(config: Pick<Config, 'databaseUrl' | 'databaseUrls'>, database?: string): string {
  return chooseDatabase(config, database).url as string;
}

/** The reader URL for database X, or undefined when its reads go to its writer. Pure. */
export function readUrlFor(config: ReadUrlConfig, database?: string): string | undefined {
  return chooseReadDatabase(config, database)?.url;
}

/**
 * What to tell the user when the database a resource uses does not exist on its server (on its reader, with
 * `onReader`): a configuration error, so the sentence names the variable that fixes it. Never shows a password.
 * Pure.
 */
export function explainMissingDatabase(
  config: UrlConfig & Partial<ReadUrlConfig>,
  resource: string,
  database?: string,
  onReader = false,
): string {
  const { databaseUrls, databaseReadUrl, databaseReadUrls = {} } = config;
  const reader = onReader
    ? chooseReadDatabase({ databaseUrls, databaseReadUrl, databaseReadUrls }, database)
    : undefined;
  const { url, variable, replaced } = reader ?? chooseDatabase(config, database);
  const prefix = reader ? 'DATABASE_READ_URL_' : 'DATABASE_URL_';
  if (url === undefined) {
    const secret = `the database secret ${config.databaseSecretArn} (DATABASE_SECRET_ARN)`;
    return database
      ? `Resource ${resource} selects database ${database}, which does not exist on the server of ${secret}; create it there, or set ${variableFor(database)} to the URL of the database to use`
      : `Resource ${resource} uses the database named by ${secret}, which does not exist on its server; create it, or correct the secret's dbname`;
  }
  if (database && replaced) {
    return `Resource ${resource} selects database ${database}, which does not exist on the server of ${variable} (${serverOf(url)}); create it there, or set ${variableFor(database, prefix)} to the URL of the database to use`;
  }
  const uses = database ? `selects database ${database} through` : 'uses';
  return `Resource ${resource} ${uses} ${variable}, whose database ${databaseOf(url)} does not exist on its server (${serverOf(url)}); create it, or set ${variable} to the URL of an existing database`;
}

/** One client per URL for the life of the container; the promise is cached so concurrent first uses share it. */
const databases = new Map<string, Promise<Database>>();

/**
 * The engine's driver, loaded when its first database is opened (a PostgreSQL container never evaluates mysql2),
 * or a configuration error naming the variable when this bundle was packaged for another engine (registry.ts).
 */
function loadDriver(engine: Engine, variable: string): Promise<Connect> {
  const driver = engine.driver();
  if (driver) return driver;
  const packaged = engineNamed(process.env.RRS_BUNDLE_ENGINE as Engine['name']);
  throw new DatabaseError(
    'database_unconfigured',
    `${variable} names a ${engine.label} database, but this deployment has no ${engine.label} driver: ` +
      `it was packaged with --param="engine=${packaged.name}". Set ${variable} to a ${packaged.schemes[0]}:// URL, ` +
      `or package with --param="engine=${engine.name}" or engine=both`,
  );
}

/** The database part of the URL each client was opened with (the secret's dbname when a secret names it). */
const databaseNames = new WeakMap<Database, string>();

/** The database part of the URL `db` was opened with: on MySQL, the schema its unqualified tables live in. */
export function databaseNameOf(db: Database): string {
  return databaseNames.get(db) ?? '';
}

/** The login first (a secret is fetched on first use), then the driver's client. */
async function connect(config: Config, choice: DatabaseChoice, database?: string): Promise<Database> {
  const { url, source } = await resolveLogin(config, choice.url, choice.variable, database);
  const engine = engineOfUrl(url);
  const connectDriver = await loadDriver(engine, choice.variable);
  const { connectTimeoutMs, statementTimeoutMs, poolSize, idleTimeoutS, dbPrepare } = config;
  const options = { connectTimeoutMs, statementTimeoutMs, poolSize, idleTimeoutS, prepare: dbPrepare === true };
  const driverDb = connectDriver(url, options, source);
  const db = source ? renewingDatabase(driverDb, source, engine.errors) : driverDb;
  databaseNames.set(db, databaseOf(url));
  return db;
}

/** The cached client of a choice, connected on first use. */
function open(config: Config, choice: DatabaseChoice, database?: string): Promise<Database> {
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

/** The writer of database X: every write, and every read when X has no reader. */
export function selectDatabase(config: Config, database?: string): Promise<Database> {
  return open(config, chooseDatabase(config, database), database);
}

/** Database X's writer and the Database its reads go to: its reader when one is configured, else the writer. */
export async function selectDatabases(
  config: Config,
  database?: string,
): Promise<{ readonly db: Database; readonly readDb: Database }> {
  const reader = chooseReadDatabase(config, database);
  const [db, readDb] = await Promise.all([
    selectDatabase(config, database),
    reader ? open(config, reader, database) : undefined,
  ]);
  if (!readDb) return { db, readDb: db };
  if (readDb.engine !== db.engine) {
    const writer = chooseDatabase(config, database).variable;
    throw new ConfigurationError(
      `${reader?.variable} is a ${readDb.engine} URL but ${writer} a ${db.engine} one: a reader must be a replica of its writer`,
    );
  }
  return { db, readDb };
}

/**
 * Every database the configuration names, by the variable that names it, as it is (no database part
 * replaced): DATABASE_URL (or DATABASE_SECRET_ARN alone), each DATABASE_URL_<NAME>, DATABASE_READ_URL, each
 * DATABASE_READ_URL_<NAME>. `open` connects (the cached client) with its login. For the health check.
 */
export function configuredDatabases(
  config: Config,
): readonly { readonly variable: string; readonly url?: string; open(): Promise<Database> }[] {
  const named = (prefix: string, urls: Readonly<Record<string, string>>): DatabaseChoice[] =>
    Object.keys(urls)
      .sort()
      .map((name) => ({ url: urls[name], variable: `${prefix}${name}`, replaced: false }));
  const choices: DatabaseChoice[] = [
    ...(config.databaseUrl || config.databaseSecretArn ? [chooseDatabase(config)] : []),
    ...named('DATABASE_URL_', config.databaseUrls),
    ...(config.databaseReadUrl
      ? [{ url: config.databaseReadUrl, variable: 'DATABASE_READ_URL', replaced: false }]
      : []),
    ...named('DATABASE_READ_URL_', config.databaseReadUrls),
  ];
  if (choices.length === 0) {
    const none = () => Promise.resolve().then(() => selectDatabase(config));
    return [{ variable: 'DATABASE_URL', open: none }];
  }
  return choices.map((choice) => ({ variable: choice.variable, url: choice.url, open: () => open(config, choice) }));
}

/** Closes every client and forgets the cached secrets (tests and the local server's shutdown). */
export async function closeDatabases(): Promise<void> {
  const all = [...databases.values()];
  databases.clear();
  forgetCredentials();
  await Promise.all(all.map(async (db) => (await db.catch(() => undefined))?.close()));
}
