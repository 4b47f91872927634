/**
 * `npm run bench`: prints the figures that decide Lambda latency and cost, never asserted by tests:
 * - the read handler's bundle (built as serverless.yml builds it): size, and the time a fresh Node process takes
 *   to load it (the cold-start share that is ours);
 * - latency of R1, R2, C1 and U3 through the real handler, in process, against the embedded demo database (or
 *   DATABASE_URL when set, which must hold the demo: `npm run demo:seed -- <url>`), with the share of it spent
 *   in the database and the statements each ran (from the request log lines, at LOG_LEVEL=INFO as on Lambda);
 * - how long a changed definition takes to reach a warm container (DEFINITIONS_TTL_S=2, a folder source);
 * - a cold container's first request (a fresh process each), with and without a catalog snapshot: its time and
 *   the statements it ran.
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { build } from 'esbuild';
import { seedDemo } from '../demo/seed';
import { startPgliteServer } from '../pglite-server';
import { type Call, gatewayEvent, withLogLines } from './handler-calls';

const root = path.resolve(__dirname, '..', '..');

async function bundleFigures(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rrs-bench-'));
  // as `serverless package` builds it, without IAM authentication or tracing, and without jose (API Gateway
  // verifies tokens): scripts/deploy/bundle-exclude.js; both drivers (the default) or one (bundle-define.js)
  const builds = [
    { name: 'engine=both', engine: undefined },
    { name: 'engine=postgres', engine: 'postgres' },
    { name: 'engine=mysql', engine: 'mysql' },
  ];
  for (const [i, { name, engine }] of builds.entries()) {
    const out = path.join(dir, `read-${i}.js`);
    await build({
      entryPoints: [path.join(root, 'handlers', 'read.ts')],
      bundle: true,
      minify: true,
      platform: 'node',
      target: 'node22',
      outfile: out,
      external: ['@aws-sdk/*', '@aws-lambda-powertools/tracer', 'jose'],
      define: engine ? { 'process.env.RRS_BUNDLE_ENGINE': JSON.stringify(engine) } : {},
      logLevel: 'error',
    });
    const runs = 9;
    const loads = Array.from({ length: runs }, () => {
      const script = `const t=process.hrtime.bigint();require(${JSON.stringify(out)});console.log(Number(process.hrtime.bigint()-t)/1e6)`;
      return Number(execFileSync(process.execPath, ['-e', script]).toString());
    }).sort((a, b) => a - b);
    console.log(
      `read bundle, ${name}: ${(statSync(out).size / 1024).toFixed(0)} KiB minified; module load median ${loads[(runs - 1) / 2]?.toFixed(1)} ms (min ${loads[0]?.toFixed(1)}, max ${loads[runs - 1]?.toFixed(1)}) over ${runs} fresh processes`,
    );
  }
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(
  name: string,
  runs: number,
  call: (i: number) => Call,
  handler: (e: unknown) => Promise<{ statusCode: number }>,
): Promise<void> {
  const times: number[] = [];
  const database: number[] = [];
  const statements = new Set<unknown>();
  // warm: a request before the measured ones loads the resource (a single run measures that first request)
  if (runs > 1) await withLogLines(() => handler(gatewayEvent(call(runs))));
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const { result, lines } = await withLogLines(() => handler(gatewayEvent(call(i))));
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (result.statusCode !== 200) throw new Error(`${name} answered ${result.statusCode}`);
    const line = lines.find((l) => l.message === 'request');
    if (line) {
      database.push(Number(line.db_ms));
      statements.add(line.db_calls);
    }
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]?.toFixed(2);
  const db =
    database.length > 0
      ? `  database p50 ${median(database)?.toFixed(2)} ms, ${[...statements].join('/')} statements`
      : '';
  console.log(`${name.padEnd(44)} n=${runs}  p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  max ${at(1)} ms${db}`);
}

async function latencyFigures(): Promise<void> {
  let stop = async () => {};
  if (!process.env.DATABASE_URL) {
    const db = await PGlite.create();
    await seedDemo((sql) => db.exec(sql), 'postgres');
    const server = await startPgliteServer(db);
    process.env.DATABASE_URL = server.url('bookstore');
    stop = async () => {
      await server.stop();
      await db.close();
    };
  }
  process.env.DEFINITIONS_DIR ??= path.join(root, 'definitions');
  const { handler: read } = await import('../../handlers/read');
  const { handler: insert } = await import('../../handlers/insert');
  const { handler: update } = await import('../../handlers/update');
  const { closeDatabases } = await import('../../lib/db/select-database');
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  console.log(`database: ${process.env.DATABASE_URL?.replace(/\/\/[^@]*@/, '//***@')}`);
  await measure(
    'first request (definition + catalog + connect)',
    1,
    () => ({ method: 'GET', path: '/res/Book/1' }),
    read as never,
  );
  await measure(
    'R2 GET /res/Book/{id}',
    500,
    (i) => ({ method: 'GET', path: `/res/Book/${(i % 200) + 1}` }),
    read as never,
  );
  await measure(
    'R1 GET /res/Book?price=>20&_limit=50 (JSON)',
    200,
    () => ({ method: 'GET', path: '/res/Book', query: 'price=%3E20&_limit=50&_output=json' }),
    read as never,
  );
  await measure(
    'R1 GET /res/BookReviews?_limit=100 (nested)',
    200,
    () => ({ method: 'GET', path: '/res/BookReviews', query: '_limit=100' }),
    read as never,
  );
  await measure(
    'C1 POST /res/Publisher (form)',
    200,
    (i) => ({ method: 'POST', path: '/res/Publisher', headers: form, body: `name=Bench+${i}+${Date.now()}` }),
    insert as never,
  );
  await measure(
    'U3 PUT /res/Book/{id} (form)',
    200,
    (i) => ({ method: 'PUT', path: `/res/Book/${(i % 200) + 1}`, headers: form, body: 'pages=100' }),
    update as never,
  );
  await propagationFigure(read as never);
  await closeDatabases();
  await coldStartFigures();
  await stop();
}

/**
 * A cold container's first R2, each in a fresh process (scripts/bench/cold-request.ts): without a catalog
 * snapshot it reads the catalog first; with one (written as `npm run validate -- --snapshot` writes it) it runs its
 * own statement only, and the snapshot's check beside it.
 */
async function coldStartFigures(runs = 7): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rrs-bench-snapshot-'));
  cpSync(path.join(root, 'definitions'), dir, { recursive: true });
  const { resetConfig, config } = await import('../../lib/config');
  const { forgetResource } = await import('../../lib/definitions/resolve-resource');
  const { validateDefinitions } = await import('../../lib/definitions/validate-definitions');
  const { writeCatalogSnapshot } = await import('../../lib/definitions/write-snapshot');
  const { closeDatabases } = await import('../../lib/db/select-database');
  Object.assign(process.env, { DEFINITIONS_DIR: dir });
  resetConfig();
  forgetResource();
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  // asynchronously: the embedded database answers from this process's event loop
  const cold = async () => {
    const env = { ...process.env, LOG_LEVEL: 'INFO', DEFINITIONS_DIR: dir, POWERTOOLS_METRICS_DISABLED: 'true' };
    const { stdout } = await promisify(execFile)(tsx, [path.join(__dirname, 'cold-request.ts')], { env, cwd: root });
    return JSON.parse(stdout.trim().split('\n').pop() as string) as { status: number; ms: number; statements: number };
  };
  const figure = async (label: string) => {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await cold());
    if (results.some((r) => r.status !== 200)) throw new Error(`${label}: ${JSON.stringify(results)}`);
    const ms = results.map((r) => r.ms).sort((a, b) => a - b);
    const statements = [...new Set(results.map((r) => r.statements))].join('/');
    console.log(
      `${label.padEnd(44)} n=${runs}  p50 ${ms[Math.floor(runs / 2)]?.toFixed(2)} ms  min ${ms[0]?.toFixed(2)} ms  ${statements} statements`,
    );
  };
  await figure('cold first R2, no catalog snapshot');
  const loaded = (await validateDefinitions(config())).filter((r) => r.status !== 'failed').map((r) => r.name);
  await writeCatalogSnapshot(config(), loaded);
  await closeDatabases();
  await figure('cold first R2, catalog snapshot (+1 check)');
  rmSync(dir, { recursive: true, force: true });
}

/**
 * How long a changed definition takes to reach this warm container with DEFINITIONS_TTL_S=2: the definition is
 * changed right after a request, then requests poll every 20 ms until one sees the change.
 */
async function propagationFigure(read: (e: unknown) => Promise<{ statusCode: number; body: string }>): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rrs-bench-defs-'));
  cpSync(path.join(root, 'definitions'), dir, { recursive: true });
  const { resetConfig } = await import('../../lib/config');
  const { forgetResource } = await import('../../lib/definitions/resolve-resource');
  Object.assign(process.env, { DEFINITIONS_DIR: dir, DEFINITIONS_TTL_S: '2' });
  resetConfig();
  forgetResource();
  const fields = async () =>
    Object.keys(
      JSON.parse((await read(gatewayEvent({ method: 'GET', path: '/res/Publisher/1', query: '_output=json' }))).body)
        .publishers[0],
    );
  await withLogLines(fields);
  const file = path.join(dir, 'Publisher.xml');
  const changedAt = Date.now();
  writeFileSync(file, readFileSync(file, 'utf8').replace(', founded', ''));
  let polls = 0;
  while ((await withLogLines(fields)).result.includes('founded')) {
    polls += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  console.log(
    `definition change visible after ${Date.now() - changedAt} ms with DEFINITIONS_TTL_S=2 (${polls} requests saw the old one)`,
  );
  rmSync(dir, { recursive: true, force: true });
}

(async () => {
  // as on Lambda: a log line per request (kept from the output; its database time and statements are figures)
  process.env.LOG_LEVEL ??= 'INFO';
  await bundleFigures();
  await latencyFigures();
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
