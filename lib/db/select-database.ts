/**
 * The client cache: one Database per connection for the life of the container, opened on first use with its login
 * (resolve-login.ts: the URL's password, an IAM token, or a Secrets Manager secret) through its engine's driver.
 * The only place that creates driver clients. Which connection a database uses is choose-database.ts's to say.
 */
import { createCache } from '../cache';
import type { Config } from '../config';
import { ConfigurationError, DatabaseError } from '../errors';
import { chooseDatabase, chooseReadDatabase, configuredChoices, type DatabaseChoice } from './choose-database';
import type { Database } from './database';
import type { Connect, Engine } from './engine';
import { engineNamed, engineOfUrl } from './engines/registry';
import { databaseOf } from './mask-url';
import { renewingDatabase } from './renewing-database';
import { resolveLogin } from './resolve-login';
import { forgetSecrets } from './secret-source';

/** What opening a client needs beyond its key: the request's configuration, the choice, and the database X. */
interface Opening {
  readonly config: Config;
  readonly choice: DatabaseChoice;
  readonly database?: string;
}

/** Every client opened (or being opened), so that closeDatabases closes each. */
const opened = new Set<Promise<Database>>();

const clients = createCache<string, Database, Opening>({
  // a client (its pool) lives as long as the container: a connection's URL and login do not change
  ttlMs: Number.POSITIVE_INFINITY,
  staleWhileRevalidate: false,
  // one key per URL the configuration names, or per database of the secret's server: never reached, so no client
  // in use is ever dropped
  max: 1000,
  load: (_key, _stale, opening) => {
    if (!opening) throw new Error('a client is opened with its configuration');
    const pending = connect(opening);
    opened.add(pending);
    // a failure (a secret that could not be read) is not kept: the next request tries again
    pending.catch(() => opened.delete(pending));
    return pending;
  },
});

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
async function connect({ config, choice, database }: Opening): Promise<Database> {
  const login = await resolveLogin(config, choice.url, choice.variable, database);
  const { url, source } = login;
  const engine = engineOfUrl(url);
  const connectDriver = await loadDriver(engine, choice.variable);
  const { connectTimeoutMs, statementTimeoutMs, poolSize, idleTimeoutS, dbPrepare } = config;
  const options = { connectTimeoutMs, statementTimeoutMs, poolSize, idleTimeoutS, prepare: dbPrepare === true };
  const driverDb = connectDriver(url, options, source);
  const db = source ? renewingDatabase(driverDb, { url, source }, engine.errors) : driverDb;
  databaseNames.set(db, databaseOf(url));
  return db;
}

/** The cached client of a choice, connected on first use. */
function open(config: Config, choice: DatabaseChoice, database?: string): Promise<Database> {
  // the secret's own server: one client per database X of it
  const key = choice.url ?? `${config.databaseSecretArn}\u0000${database ?? ''}`;
  return clients.get(key, { config, choice, database });
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
 * Every database the configuration names (choose-database's configuredChoices), each with `open`, which connects
 * (the cached client) with its login. For the health check; with none configured, DATABASE_URL, whose `open`
 * rejects as selectDatabase does.
 */
export function configuredDatabases(
  config: Config,
): readonly { readonly variable: string; readonly url?: string; open(): Promise<Database> }[] {
  const choices = configuredChoices(config);
  if (choices.length === 0) {
    const none = () => Promise.resolve().then(() => selectDatabase(config));
    return [{ variable: 'DATABASE_URL', open: none }];
  }
  return choices.map((choice) => ({ variable: choice.variable, url: choice.url, open: () => open(config, choice) }));
}

/** Closes every client and forgets the cached secrets (tests and the local server's shutdown). */
export async function closeDatabases(): Promise<void> {
  const all = [...opened];
  opened.clear();
  clients.clear();
  forgetSecrets();
  await Promise.all(all.map(async (db) => (await db.catch(() => undefined))?.close()));
}
