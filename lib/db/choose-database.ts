/**
 * Which database a definition's `<database default="X">` uses: its writer's URL (DATABASE_URL_X, else DATABASE_URL
 * with its database part replaced by X, else the server of DATABASE_SECRET_ARN), its reader's (DATABASE_READ_URL_X,
 * else DATABASE_READ_URL likewise), every database the configuration names (for the health check), and what to
 * say when the chosen database does not exist. Pure: nothing is connected to here (select-database.ts does).
 */
import type { Config } from '../config';
import { DatabaseError } from '../errors';
import { withDatabaseName } from './database-url';
import { databaseOf, serverOf } from './mask-url';

/** The connection chosen for database X: its URL, the variable it came from, whether X replaced its database. */
export interface DatabaseChoice {
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
export function chooseDatabase(config: UrlConfig, database?: string): DatabaseChoice {
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
export function chooseReadDatabase(config: ReadUrlConfig, database?: string): DatabaseChoice | undefined {
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

/**
 * Every database the configuration names, by the variable that names it, as it is (no database part replaced):
 * DATABASE_URL (or DATABASE_SECRET_ARN alone), each DATABASE_URL_<NAME>, DATABASE_READ_URL, each
 * DATABASE_READ_URL_<NAME>. Empty when none is configured.
 */
export function configuredChoices(config: Config): DatabaseChoice[] {
  const named = (prefix: string, urls: Readonly<Record<string, string>>): DatabaseChoice[] =>
    Object.keys(urls)
      .sort()
      .map((name) => ({ url: urls[name], variable: `${prefix}${name}`, replaced: false }));
  return [
    ...(config.databaseUrl || config.databaseSecretArn ? [chooseDatabase(config)] : []),
    ...named('DATABASE_URL_', config.databaseUrls),
    ...(config.databaseReadUrl
      ? [{ url: config.databaseReadUrl, variable: 'DATABASE_READ_URL', replaced: false }]
      : []),
    ...named('DATABASE_READ_URL_', config.databaseReadUrls),
  ];
}
