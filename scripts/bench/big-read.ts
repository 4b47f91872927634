/**
 * `npm run bench:cap`: what a read of a very big table costs the server mode, in figures; never asserted by a test.
 * The goals it is for: a read of 1,000,000 rows without `_limit` answers (413 `too_many_rows`, the row cap
 * MAX_ROWS) within 1 s, the process growing by less than 50 MB; four such reads at once leave a concurrent one-row
 * read under 100 ms; a read of wide rows stops early at MAX_RESULT_BYTES (413 `result_too_large`).
 * In a database of its own (rrs_bench_cap) on a PostgreSQL or MariaDB/MySQL server, it fills big_row (N rows of
 * about 170 bytes: id, name, a note of 100 characters, amount, created) and wide_row (20,000 rows of about 10 KB),
 * or keeps them when they already hold as many rows, and serves them as the flat resources BigRow and WideRow
 * (definitions written to a temporary folder) by the server mode (scripts/serve.ts, LOG_LEVEL=WARN,
 * DB_POOL_SIZE=10). Then it prints, one line each:
 *   a. the server's resident memory (the RSS of its process group: tsx and node, from /proc, so Linux only) at
 *      rest after one warm-up request, and GET /res/BigRow/1 every 20 ms alone: its p50, p99 and max latency;
 *   b. GET /res/BigRow as JSON and c. as XML: status, code (from problem details), bytes, time to the last byte,
 *      and the RSS just before, right after and at its peak (sampled every 20 ms), each as growth over the RSS at
 *      rest (memory an earlier step left shows in `before`);
 *   d. four GET /res/BigRow at once, round after round for 3 s (one round if it takes longer), while GET
 *      /res/BigRow/1 runs every 20 ms: the one-row read's latency (and what the reads that did not answer 200
 *      answered), the answers by status and code with their fastest and slowest times, the RSS as in b.;
 *   e. GET /res/BigRow?_limit=10000, and the same at _offset=N/2: status, bytes, time;
 *   f. GET /res/WideRow as b., then four at once as d.
 *   npm run bench:cap -- [--pg URL | --mysql URL] [--rows 1000000] [--service-root DIR]
 * The URL (any database on the server) defaults to TEST_PG_URL, else TEST_MYSQL_URL. --service-root runs the
 * server mode of another checkout (its node_modules installed), to measure the service before a change. MAX_ROWS
 * and MAX_RESULT_BYTES pass through from the environment. Each request may take 120 s (a service without the cap
 * reads every row, and four such reads at once can outlast DB_STATEMENT_TIMEOUT_MS: 500 database_unreachable); a
 * request that takes longer shows as timed out.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { maskUrl } from '../../lib/db/mask-url';
import { benchDatabase, fillBenchTables, writeBenchDefinitions } from './big-tables';
import { option } from './option';
import { groupMembers, type RssFigures, rssKb, whileSampling } from './process-usage';
import { latencyFigures, readWhile, startServerMode } from './server-mode';

const root = path.resolve(__dirname, '..', '..');
const TIMEOUT_MS = 120_000;
const ONE_ROW = '/res/BigRow/1';
const JSON_ACCEPT = 'application/json, application/problem+json';
const XML_ACCEPT = 'application/xml, application/problem+json';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const growth = (kb: number) => `${kb < 0 ? '-' : '+'}${mb(Math.abs(kb))}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

interface Answer {
  readonly status: string;
  /** The problem details' code, '-' for a 200, else what went wrong. */
  readonly code: string;
  readonly bytes: number;
  readonly ms: number;
}

/** GET `target`, its body counted as it arrives and never kept (but for its start, where an error's code is). */
async function get(base: string, target: string, accept: string): Promise<Answer> {
  const started = performance.now();
  let status = 'failed';
  let bytes = 0;
  let code: string;
  try {
    const response = await fetch(`${base}${target}`, { headers: { accept }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    status = String(response.status);
    let head = '';
    for await (const chunk of response.body ?? []) {
      bytes += chunk.byteLength;
      if (head.length < 2000) head += Buffer.from(chunk).toString('utf8');
    }
    code = response.ok ? '-' : (head.match(/"code":"([^"]+)"/)?.[1] ?? head.slice(0, 40));
  } catch (error) {
    const what = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : String(error).slice(0, 60);
    code = status === 'failed' ? what : `cut off: ${what}`;
  }
  return { status, code, bytes, ms: performance.now() - started };
}

/** The RSS before, right after and at its peak, as growth over the RSS at rest (a.). */
const rssLine = (rss: RssFigures, rest: number) =>
  `RSS over rest: before ${growth(rss.before - rest)}, after ${growth(rss.after - rest)}, peak ${growth(rss.peak - rest)}`;
const answerLine = (answer: Answer) =>
  `${answer.status.padStart(3)} ${answer.code.padEnd(20)} ${size(answer.bytes).padStart(9)} ${seconds(answer.ms).padStart(8)}`;

interface Server {
  readonly base: string;
  readonly pgid: number;
  /** The RSS at rest, in kB. */
  readonly rest: number;
}

/** One request, while the server's RSS is sampled. */
async function single(server: Server, label: string, target: string, accept = JSON_ACCEPT): Promise<void> {
  await pause(1000);
  const { result, rss } = await whileSampling(server.pgid, () => get(server.base, target, accept));
  console.log(`${label.padEnd(52)} ${answerLine(result)} | ${rssLine(rss, server.rest)}`);
}

/** Rounds of four requests at once, one round after another until 3 s have passed (one round if it takes longer). */
async function roundsOfFour(base: string, target: string): Promise<Answer[]> {
  const started = performance.now();
  const answers: Answer[] = [];
  do answers.push(...(await Promise.all([1, 2, 3, 4].map(() => get(base, target, JSON_ACCEPT)))));
  while (performance.now() - started < 3000);
  return answers;
}

/** The answers by status and code: how many, and their fastest and slowest times. */
function answersLine(answers: readonly Answer[]): string {
  const times = new Map<string, number[]>();
  for (const answer of answers)
    times.set(`${answer.status} ${answer.code}`, [...(times.get(`${answer.status} ${answer.code}`) ?? []), answer.ms]);
  const each = [...times].map(
    ([what, ms]) => `${what} x${ms.length} in ${(Math.min(...ms) / 1000).toFixed(2)}-${seconds(Math.max(...ms))}`,
  );
  return `${answers.length / 4} round(s) of four: ${each.join(', ')}`;
}

/** Four requests at once, in rounds, while the one-row read runs every 20 ms and the server's RSS is sampled. */
async function fourAtOnce(server: Server, label: string, target: string): Promise<void> {
  await pause(1000);
  const { result, rss } = await whileSampling(server.pgid, async () => {
    const answers = roundsOfFour(server.base, target);
    const reads = await readWhile(server.base, ONE_ROW, answers);
    return { reads, answers: await answers };
  });
  console.log(`${label.padEnd(52)} ${ONE_ROW}: ${latencyFigures(result.reads)}`);
  console.log(`${''.padEnd(52)} ${answersLine(result.answers)} | ${rssLine(rss, server.rest)}`);
}

async function measure(base: string, pgid: number, rows: number): Promise<void> {
  await get(base, ONE_ROW, JSON_ACCEPT); // warm-up
  await pause(1000);
  const members = groupMembers(pgid);
  const server: Server = { base, pgid, rest: rssKb(members) };
  const each = members.map((pid) => mb(rssKb([pid]))).join(' + ');
  console.log(`a. at rest after one warm-up request: ${mb(server.rest)} (${members.length} processes: ${each})`);
  const alone = await readWhile(server.base, ONE_ROW, pause(3000));
  console.log(`${'a. GET /res/BigRow/1 every 20 ms, alone'.padEnd(52)} ${latencyFigures(alone)}`);
  console.log(`${''.padEnd(56)}status code                     bytes     time`);
  await single(server, 'b. GET /res/BigRow, JSON', '/res/BigRow');
  await single(server, 'c. GET /res/BigRow, XML', '/res/BigRow', XML_ACCEPT);
  await fourAtOnce(server, 'd. four GET /res/BigRow at once, JSON', '/res/BigRow');
  await single(server, 'e. GET /res/BigRow?_limit=10000', '/res/BigRow?_limit=10000');
  const offset = Math.floor(rows / 2);
  await single(
    server,
    `e. GET /res/BigRow?_limit=10000&_offset=${offset}`,
    `/res/BigRow?_limit=10000&_offset=${offset}`,
  );
  await single(server, 'f. GET /res/WideRow, JSON', '/res/WideRow');
  await fourAtOnce(server, 'f. four GET /res/WideRow at once, JSON', '/res/WideRow');
}

/** The checkout's last commit, and whether lib/ holds changes not committed. */
function checkoutOf(serviceRoot: string): string {
  const git = (...args: string[]) => spawnSync('git', ['-C', serviceRoot, ...args], { encoding: 'utf8' });
  const last = git('log', '-1', '--format=%h of %cs');
  if (last.status !== 0) return 'not a git checkout';
  const changed = git('status', '--porcelain', '--', 'lib').stdout.trim() !== '';
  return `commit ${last.stdout.trim()}${changed ? ', and changes in lib/ not committed' : ''}`;
}

async function main(): Promise<void> {
  const rows = Number(option('--rows') ?? 1_000_000);
  const serviceRoot = path.resolve(option('--service-root') ?? root);
  const url = option('--pg') ?? option('--mysql') ?? process.env.TEST_PG_URL ?? process.env.TEST_MYSQL_URL;
  if (!url) throw new Error('it needs a database server: --pg URL, --mysql URL, TEST_PG_URL or TEST_MYSQL_URL');
  if (!Number.isInteger(rows) || rows < 2) throw new Error(`--rows must be a whole number above 1, got ${rows}`);
  const args = process.argv.slice(2).map((arg) => (arg.includes('://') ? maskUrl(arg) : arg));
  console.log(`bench:cap: tsx scripts/bench/big-read.ts ${args.join(' ')}`);
  const database = await benchDatabase(url);
  console.log(`Database: ${database.version} at ${maskUrl(database.url)}`);
  for (const line of await fillBenchTables(database.url, rows)) console.log(`  ${line}`);
  console.log(`Service: the server mode of ${serviceRoot}, ${checkoutOf(serviceRoot)}`);
  const limits = ['MAX_ROWS', 'MAX_RESULT_BYTES'].map((name) => `${name}=${process.env[name] ?? '(default)'}`);
  console.log(`  ${limits.join(', ')}; each request may take ${TIMEOUT_MS / 1000} s\n`);
  const definitions = writeBenchDefinitions();
  try {
    const running = await startServerMode(serviceRoot, { DATABASE_URL: database.url, DEFINITIONS_DIR: definitions });
    try {
      await measure(`http://127.0.0.1:${running.port}`, running.pid, rows);
    } finally {
      await running.stop();
    }
  } finally {
    rmSync(definitions, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench:cap failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
