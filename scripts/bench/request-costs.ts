/**
 * `npm run bench:costs`: what each per-request cost the server-mode profile names comes to, measured alone in this
 * process (microseconds per request; a median of rounds, so a busy machine's pauses weigh less):
 * - the request record's AsyncLocalStorage: an async chain of PROMISES awaits with and without one entered
 *   (once one has been entered, Node keeps its promise hook on for every promise of the process);
 *   with DATABASE_URL (the demo), the promises one R2 and one C1 make through their handlers are counted first (the
 *   C1s insert two Publisher rows);
 * - reading a request: the API Gateway event built and read back (toEvent, fromEvent) against the direct reader;
 * - the log line at INFO (written to /dev/null as a file is written), through Powertools' Logger as it comes and
 *   through the service's, and the whole observation of a request (record, line, metrics off) at INFO and at WARN.
 * Asserts nothing. `npm run bench:costs -- [--rounds 15] [--n 20000]`
 */
import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import { openSync, writeSync } from 'node:fs';
import { Logger } from '@aws-lambda-powertools/logger';
import { fromEvent } from '../../lib/http/from-event';
import { observeRequest } from '../../lib/observe/observe-request';
import { serviceName } from '../../lib/observe/observe-settings';
import { forgetObservers, observers } from '../../lib/observe/observers';
import { toEvent } from '../../lib/server/to-event';
import { toHttpRequest } from '../../lib/server/to-http-request';
import { option } from './option';

const rounds = Number(option('--rounds') ?? 15);
const n = Number(option('--n') ?? 20000);
const PROMISES = 60;

/**
 * Microseconds per call of each of `runs`, the median of `rounds` rounds of `n` calls (one at a time); the rounds of
 * the runs alternate, so that a busy spell of the machine weighs on each alike.
 */
async function perCall(...runs: (() => unknown)[]): Promise<number[]> {
  const times: number[][] = runs.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [at, run] of runs.entries()) {
      const started = performance.now();
      for (let i = 0; i < n; i++) await run();
      times[at]?.push(((performance.now() - started) * 1000) / n);
    }
  }
  return times.map((all) => all.sort((a, b) => a - b)[Math.floor(all.length / 2)] as number);
}

async function step(depth: number): Promise<number> {
  return depth === 0 ? 0 : (await step(depth - 1)) + 1;
}

/** Promises one R2 and one C1 (an insert of one Publisher from a form) create through their handlers, with the demo. */
async function promisesPerRequest(): Promise<{ read: number; insert: number } | undefined> {
  if (!process.env.DATABASE_URL) return undefined;
  const { functions } = await import('../../lib/server/functions');
  const read = { method: 'GET', path: '/res/Book/1', rawQuery: '', headers: {} };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const insert = (n: string) => ({
    method: 'POST',
    path: '/res/Publisher',
    rawQuery: '',
    headers: form,
    body: `name=${n}`,
  });
  const suffix = Date.now().toString(36);
  await functions.read.serveHttp(read, 'warm');
  await functions.insert.serveHttp(insert(`costs-warm-${suffix}`), 'warm');
  const counted = async (serve: () => Promise<unknown>) => {
    let count = 0;
    const hook = createHook({
      init: (_id, type) => {
        if (type === 'PROMISE') count++;
      },
    }).enable();
    await serve();
    hook.disable();
    return count;
  };
  return {
    read: await counted(() => functions.read.serveHttp(read, 'count')),
    insert: await counted(() => functions.insert.serveHttp(insert(`costs-${suffix}`), 'count')),
  };
}

function quietStdout(): () => void {
  const devNull = openSync('/dev/null', 'w');
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    if (typeof chunk === 'string') writeSync(devNull, chunk);
    else writeSync(devNull, chunk);
    return true;
  }) as typeof process.stdout.write;
  return () => {
    process.stdout.write = write;
  };
}

/** Figures are printed on stderr: stdout takes the log lines, and is sent to /dev/null while they are measured. */
const print = (what: string, us: number) => console.error(`${us.toFixed(2).padStart(8)} µs  ${what}`);

const fields = {
  request_id: 'a6c1d8b4-2a55-4f31-9d0c-3f5f0b2a9e11',
  method: 'GET',
  route: '/res/{resName}/{resId+}',
  resource: 'Book',
  operation: 'R2',
  status: 200,
  duration_ms: 1.2,
  db_ms: 0.4,
  db_calls: 1,
  rows: 1,
  cold_start: false,
};

/**
 * The record's cost: the chain with an AsyncLocalStorage entered as the record is, and without any (the storage
 * disabled after each round, which turns Node's promise hook off again while no other storage is in use: so
 * before the service's own record is ever entered).
 */
async function recordCosts(): Promise<void> {
  const storage = new AsyncLocalStorage<object>();
  const [plain = 0, hooked = 0] = await perCall(
    () => step(PROMISES),
    async () => {
      await storage.run({}, () => step(PROMISES));
      storage.disable();
    },
  );
  print(`an async chain of ${PROMISES} awaits, no AsyncLocalStorage entered`, plain);
  print('the same chain inside an AsyncLocalStorage, as the request record is entered', hooked);
  print('  per promise', (hooked - plain) / PROMISES);
  const restore = quietStdout();
  const promises = await promisesPerRequest().finally(restore);
  if (promises === undefined) return;
  const perPromise = (hooked - plain) / PROMISES;
  print(`  x ${promises.read} promises of one R2 through the read handler`, perPromise * promises.read);
  print(`  x ${promises.insert} promises of one C1 through the insert handler`, perPromise * promises.insert);
}

async function readCosts(): Promise<void> {
  const headers = { host: 'localhost:3000', accept: '*/*' };
  const head = { method: 'GET', url: '/res/Book/17', headers, httpVersion: '1.1' };
  const none = Buffer.alloc(0);
  const [event = 0, direct = 0] = await perCall(
    () => fromEvent(toEvent(head, none)),
    () => toHttpRequest(head, none),
  );
  print('an R2 request read through the API Gateway event (toEvent, fromEvent)', event);
  print('the same request read directly (toHttpRequest)', direct);
}

async function logCosts(): Promise<void> {
  const quiet = quietStdout();
  const outcome = { status: 200, method: 'GET', path: '/res/Book/17', result: 'x' };
  const observe = () => observeRequest('a6c1d8b4-2a55-4f31-9d0c-3f5f0b2a9e11', undefined, async () => outcome);
  try {
    process.env.LOG_LEVEL = 'INFO';
    forgetObservers();
    const service = observers().logger;
    const powertools = new Logger({ serviceName, logLevel: 'INFO' });
    const [asIs = 0, ours = 0, info = 0] = await perCall(
      () => powertools.info('request', fields),
      () => service.info('request', fields),
      observe,
    );
    process.env.LOG_LEVEL = 'WARN';
    forgetObservers();
    const [warn = 0] = await perCall(observe);
    quiet();
    print("the log line at INFO, Powertools' Logger as it comes (to /dev/null)", asIs);
    print("the same line through the service's logger", ours);
    print('a request observed at INFO (record, log line, no metrics)', info);
    print('a request observed at WARN (record, no line for a 200)', warn);
  } finally {
    quiet();
  }
}

async function main(): Promise<void> {
  console.error(`bench:costs: median of ${rounds} rounds of ${n} calls, one at a time, microseconds per call`);
  await recordCosts();
  await readCosts();
  await logCosts();
}

main().catch((error: unknown) => {
  console.error(`bench:costs failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
