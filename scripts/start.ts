/**
 * `npm start`: runs the service locally with serverless-offline at http://localhost:{PORT}/res/ (D22).
 * Without any database variable it starts an in-memory PGlite seeded with the demo bookstore and serves it over
 * the PostgreSQL wire protocol, so the handlers use the same postgres.js path as in production. With
 * DATABASE_URL or any DATABASE_URL_<NAME> it uses the databases they name as they are (no seeding, no PGlite).
 * With a change events sink configured (EVENTS_WEBHOOK_URL, EVENTS_WEBHOOK_SECRET) it drains their outbox every
 * EVENTS_DRAIN_INTERVAL_MS, so that events can be watched as they arrive. It never prints a password.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { authConfig, type Config, readConfig } from '../lib/config';
import { maskUrl } from '../lib/db/mask-url';
import { closeDatabases } from '../lib/db/select-database';
import { fileSource } from '../lib/definitions/file-source';
import { eventsNotice, startEventsDrain } from '../lib/server/events-drain';
import { signInNotice } from '../lib/server/sign-in-notice';
import { seedDemo } from './demo/seed';
import { startPgliteServer } from './pglite-server';

const ROOT = path.resolve(__dirname, '..');
const DEMO_DEFINITIONS = path.join(ROOT, 'definitions');
/** Enough for every handler worker's pool (five functions, a few connections each) and a psql or two. */
const MAX_CONNECTIONS = 100;
const STOP_GRACE_MS = 10_000;

interface LocalDatabase {
  /** Variables the handlers need on top of the environment npm start was given. */
  readonly env: Readonly<Record<string, string>>;
  /** The banner's lines about the database(s). */
  readonly description: readonly string[];
  /** Resolves once the database answers (the embedded one opens while serverless-offline builds and starts). */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

/** Fails unless the URL answers a parameterised query on several connections at once. */
async function checkConnections(url: string): Promise<void> {
  const sql = postgres(url, { prepare: false, max: 3, onnotice: () => {} });
  try {
    const answers = await Promise.all([1, 2, 3].map((n) => sql`select ${n}::int + count(*)::int as n from publisher`));
    if (answers.some((rows) => typeof rows[0]?.n !== 'number')) throw new Error('unexpected answer');
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * A new PGlite with the demo bookstore. RRS_DEMO_SNAPSHOT, which the tests set, names a dump of a PGlite data folder
 * already seeded with it (PGlite's dumpDataDir) to load instead: initdb and the seed take seconds on a small
 * machine, and a test run starts npm start dozens of times.
 */
async function openDemo(): Promise<PGlite> {
  const snapshot = process.env.RRS_DEMO_SNAPSHOT;
  if (snapshot) return PGlite.create({ loadDataDir: new Blob([readFileSync(snapshot)]) });
  const db = await PGlite.create();
  await seedDemo((statement) => db.exec(statement), 'postgres');
  return db;
}

/**
 * PGlite in memory with the demo bookstore, served on a free port of 127.0.0.1, returned as soon as it listens: its
 * URL is known at once, and `ready` resolves once the demo is loaded and answers (connections wait until then).
 */
async function openEmbeddedDatabase(): Promise<LocalDatabase> {
  console.log('Starting PGlite (embedded PostgreSQL, in memory) with the demo bookstore...');
  const opening = openDemo();
  const server = await startPgliteServer(opening, { maxConnections: MAX_CONNECTIONS });
  const url = server.url('bookstore');
  const stop = async () => {
    await server.stop();
    await (await opening.catch(() => undefined))?.close();
  };
  const ready = opening
    .then(() => checkConnections(url))
    .catch(async (error: unknown) => {
      await stop();
      throw error;
    });
  // a failure is the caller's to report, through ready
  ready.catch(() => {});
  return {
    env: { DATABASE_URL: url },
    description: [`Database: the demo bookstore in PGlite (in memory) at ${url}`],
    ready,
    stop,
  };
}

/** PGlite in memory with the demo bookstore, served on a free port of 127.0.0.1, once it answers. */
export async function startEmbeddedDatabase(): Promise<LocalDatabase> {
  const database = await openEmbeddedDatabase();
  await database.ready;
  return database;
}

function readPort(raw: string | undefined): number {
  const port = Number(raw || 3000);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a port number, got "${raw}"`);
  return port;
}

type SignInSettings = ReturnType<typeof authConfig>;

/**
 * The banner's example requests: the demo's, with its filters, when the demo's folder is served; else the listing
 * and the first resources of the folder served, so every request shown names a resource that is there.
 */
export async function exampleRequests(definitionsDir: string, base: string, auth: string): Promise<string[]> {
  if (path.resolve(definitionsDir) === DEMO_DEFINITIONS)
    return [
      `curl ${auth}${base}/res/Publisher`,
      `curl ${auth}'${base}/res/Book?publisher_id=3&_output=json'`,
      `curl ${auth}-H 'Accept: application/json' ${base}/res/bookstore.Author/1`,
    ];
  const [first, second] = await fileSource(definitionsDir).list();
  if (first === undefined) return [`curl ${auth}${base}/res/    (no definitions under ${definitionsDir} yet)`];
  return [
    `curl ${auth}${base}/res/`,
    `curl ${auth}${base}/res/${first}`,
    ...(second === undefined ? [] : [`curl ${auth}-H 'Accept: application/json' ${base}/res/${second}`]),
  ];
}

async function printBanner(
  port: number,
  definitionsDir: string,
  database: LocalDatabase,
  settings: SignInSettings,
  handlers: Config | undefined,
): Promise<void> {
  const base = `http://localhost:${port}`;
  const auth = settings.authIssuer ? '-H "Authorization: Bearer $TOKEN" ' : '';
  const examples = await exampleRequests(definitionsDir, base, auth);
  const lines = [
    '',
    `  Relational Resource Service: ${base}/res/`,
    ...database.description.map((line) => `  ${line}`),
    ...signInNotice(settings).lines.map((line) => `  ${line}`),
    ...(handlers ? await eventsNotice(handlers) : []).map((line) => `  ${line}`),
    '',
    '  Try:',
    ...(settings.authJwksUrl?.startsWith('file:') ? ['    TOKEN=$(npm run -s token -- --roles reader)'] : []),
    ...examples.map((line) => `    ${line}`),
    '',
    '  Stop with Ctrl-C.',
    '',
  ];
  console.log(lines.join('\n'));
}

/** Copies a child stream through and calls `onReady` once serverless-offline says it listens. */
function pipeThrough(stream: NodeJS.ReadableStream, out: NodeJS.WritableStream, onReady: () => void): void {
  let tail = '';
  stream.setEncoding('utf8'); // whole characters per chunk, the banner's emoji too
  stream.on('data', (text: string) => {
    // the lambda-invoke server listens on a port the kernel picked, which offline prints as ":0"
    out.write(text.replace(/^Offline \[http for lambda\] listening on \S+:0\r?\n/m, ''));
    tail = (tail + text).slice(-500);
    if (/Server ready:/.test(tail)) {
      tail = '';
      onReady();
    }
  });
}

function spawnOffline(env: NodeJS.ProcessEnv): ChildProcess {
  const bin = path.join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'serverless.cmd' : 'serverless');
  // serverless.yml gives the handlers the whole environment (localEnvironment), as when offline runs directly
  return spawn(bin, ['offline', 'start'], { cwd: ROOT, env, stdio: ['inherit', 'pipe', 'pipe'] });
}

/**
 * DATABASE_URL, every DATABASE_URL_<NAME>, and their readers DATABASE_READ_URL[_<NAME>], with a value: the
 * databases the handlers will use.
 */
function givenDatabases(env: NodeJS.ProcessEnv): [string, string][] {
  return Object.entries(env)
    .filter((entry): entry is [string, string] => /^DATABASE_(READ_)?URL(_.+)?$/.test(entry[0]) && Boolean(entry[1]))
    .sort(([a], [b]) => a.localeCompare(b));
}

/**
 * The embedded demo only when no database variable is set: with just DATABASE_URL_<NAME>, serving PGlite as
 * DATABASE_URL would answer for databases the user did not mean.
 */
async function openDatabase(): Promise<LocalDatabase> {
  const given = givenDatabases(process.env);
  if (given.every(([name]) => name.startsWith('DATABASE_READ_URL'))) return openEmbeddedDatabase();
  const width = Math.max(...given.map(([name]) => name.length));
  const lines = given.map(([name, url]) => `  ${name.padEnd(width)}  ${maskUrl(url)}`);
  console.log('Using the databases as they are (not seeded; npm run demo:seed -- <url> loads the demo).');
  const rule =
    'A definition with <database default="x"> uses DATABASE_URL_X, else database x on the server of DATABASE_URL.';
  return { env: {}, description: ['Databases:', ...lines, rule], ready: Promise.resolve(), stop: async () => {} };
}

/** Stops the child on Ctrl-C / SIGTERM (a second signal kills it), then the database; exits with the child. */
function superviseChild(child: ChildProcess, database: LocalDatabase): void {
  let stopping = false;
  const stop = () => {
    if (stopping) {
      child.kill('SIGKILL');
      return;
    }
    stopping = true;
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS).unref();
  };
  const finish = (code: number) =>
    database
      .stop()
      .catch((error: unknown) => console.error(`Stopping the database failed: ${String(error)}`))
      .finally(() => process.exit(code));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.on('exit', (code) => finish(stopping ? 0 : (code ?? 1)));
  child.on('error', (error) => {
    console.error(`Could not run serverless offline: ${error.message}`);
    void finish(1);
  });
}

async function main(): Promise<void> {
  const port = readPort(process.env.PORT);
  // sign-in set up by halves (AUTH_ISSUER without AUTH_AUDIENCE, say) stops npm start before it serves anything;
  // other bad settings are answered by the handlers, as on Lambda
  const settings = authConfig(process.env);
  const definitionsDir = path.resolve(process.env.DEFINITIONS_DIR || DEMO_DEFINITIONS);
  const database = await openDatabase();
  const child = spawnOffline({
    ...process.env,
    SLS_TELEMETRY_DISABLED: '1',
    SLS_NOTIFICATIONS_MODE: 'off',
    PORT: String(port),
    // serverless-offline's lambda-invoke server, which nothing here calls: the kernel picks its port as it binds
    LAMBDA_PORT: '0',
    ...database.env,
    DEFINITIONS_DIR: definitionsDir,
  });
  // the handlers run in serverless-offline's workers; the change events' drain runs here, on the handlers' settings
  const events = handlerSettings({ ...process.env, ...database.env, DEFINITIONS_DIR: definitionsDir });
  // the banner says the service is ready: once serverless-offline listens and the database answers
  let announced = false;
  const announce = () => {
    if (!announced) void database.ready.then(() => printBanner(port, definitionsDir, database, settings, events));
    announced = true;
  };
  database.ready.catch((error: unknown) => {
    console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
    child.kill('SIGTERM');
  });
  pipeThrough(child.stdout as NodeJS.ReadableStream, process.stdout, announce);
  pipeThrough(child.stderr as NodeJS.ReadableStream, process.stderr, announce);
  const drains =
    events &&
    (await startEventsDrain(events).catch((error: unknown) => {
      console.error(`Change events are not drained: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }));
  superviseChild(child, {
    ...database,
    stop: async () => {
      await drains?.stop();
      await closeDatabases();
      await database.stop();
    },
  });
}

/** The handlers' configuration; undefined when it does not read (the handlers answer that, as on Lambda). */
function handlerSettings(env: NodeJS.ProcessEnv): Config | undefined {
  try {
    return readConfig(env);
  } catch {
    return undefined;
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
