/**
 * `npm run bench`: prints the figures that decide Lambda latency and cost, never asserted by tests:
 * - the read handler's bundle (built as serverless.yml builds it): size, and the time a fresh Node process takes
 *   to load it (the cold-start share that is ours);
 * - latency of R1, R2, C1 and U3 through the real handler, in process, against the embedded demo database (or
 *   DATABASE_URL when set, which must hold the demo: `npm run demo:seed -- <url>`);
 * - how long a changed definition takes to reach a warm container (DEFINITIONS_TTL_S=2, a folder source).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { build } from 'esbuild';
import { seedDemo } from '../demo/seed';
import { startPgliteServer } from '../pglite-server';

const root = path.resolve(__dirname, '..', '..');

async function bundleFigures(): Promise<void> {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'rrs-bench-')), 'read.js');
  await build({
    entryPoints: [path.join(root, 'handlers', 'read.ts')],
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node22',
    outfile: out,
    // as a deployment without IAM authentication or tracing: scripts/deploy/bundle-exclude.js
    external: ['@aws-sdk/*', '@aws-lambda-powertools/tracer'],
    logLevel: 'error',
  });
  const loads = Array.from({ length: 7 }, () => {
    const script = `const t=process.hrtime.bigint();require(${JSON.stringify(out)});console.log(Number(process.hrtime.bigint()-t)/1e6)`;
    return Number(execFileSync(process.execPath, ['-e', script]).toString());
  }).sort((a, b) => a - b);
  console.log(
    `read bundle: ${(statSync(out).size / 1024).toFixed(0)} KiB minified; module load median ${loads[3]?.toFixed(1)} ms (min ${loads[0]?.toFixed(1)}, max ${loads[6]?.toFixed(1)}) over 7 fresh processes`,
  );
}

type Call = { method: string; path: string; query?: string; body?: string; headers?: Record<string, string> };

function event(call: Call) {
  return {
    version: '2.0',
    rawPath: call.path,
    rawQueryString: call.query ?? '',
    headers: call.headers ?? {},
    body: call.body,
    isBase64Encoded: false,
    requestContext: { http: { method: call.method } },
  };
}

async function measure(
  name: string,
  runs: number,
  call: (i: number) => Call,
  handler: (e: unknown) => Promise<{ statusCode: number }>,
): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const result = await handler(event(call(i)));
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (result.statusCode !== 200) throw new Error(`${name} answered ${result.statusCode}`);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]?.toFixed(2);
  console.log(`${name.padEnd(44)} n=${runs}  p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  max ${at(1)} ms`);
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
  await stop();
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
      JSON.parse((await read(event({ method: 'GET', path: '/res/Publisher/1', query: '_output=json' }))).body)
        .publishers[0],
    );
  await fields();
  const file = path.join(dir, 'Publisher.xml');
  const changedAt = Date.now();
  writeFileSync(file, readFileSync(file, 'utf8').replace(', founded', ''));
  let polls = 0;
  while ((await fields()).includes('founded')) {
    polls += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  console.log(
    `definition change visible after ${Date.now() - changedAt} ms with DEFINITIONS_TTL_S=2 (${polls} requests saw the old one)`,
  );
  rmSync(dir, { recursive: true, force: true });
}

(async () => {
  process.env.LOG_LEVEL ??= 'WARN'; // no request log line between the figures
  await bundleFigures();
  await latencyFigures();
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
