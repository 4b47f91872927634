/**
 * `npm run bench:costs`: what each per-request cost the server-mode profile names comes to, measured alone in this
 * process (microseconds per request; a median of rounds, so a busy machine's pauses weigh less):
 * - the request record's AsyncLocalStorage: an async chain of PROMISES awaits with and without a record entered
 *   (once one has been entered, Node keeps its promise hook on for every promise of the process);
 *   with DATABASE_URL (the demo), the promises one R2 makes through the read handler are counted first;
 * - reading a request: the API Gateway event built and read back (toEvent, fromEvent) against the direct reader;
 * - the log line at INFO (Powertools Logger, written to /dev/null as a file is written), and the whole
 *   observation of a request (record, line, metrics off) at INFO and at WARN (no line for a 200).
 * Asserts nothing. `npm run bench:costs -- [--rounds 15] [--n 20000]`
 */
import { createHook } from 'node:async_hooks';
import { openSync, writeSync } from 'node:fs';
import { fromEvent } from '../../lib/http/from-event';
import { observeRequest } from '../../lib/observe/observe-request';
import { forgetObservers, observers } from '../../lib/observe/observers';
import { newRequestRecord, withRequestRecord } from '../../lib/request-context';
import { toEvent } from '../../lib/server/to-event';
import { toHttpRequest } from '../../lib/server/to-http-request';
import { option } from './option';

const rounds = Number(option('--rounds') ?? 15);
const n = Number(option('--n') ?? 20000);
const PROMISES = 60;

/** Microseconds per call of `run`, the median of `rounds` rounds of `n` calls (one at a time). */
async function perCall(run: () => unknown): Promise<number> {
  const medians: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    for (let i = 0; i < n; i++) await run();
    medians.push(((performance.now() - started) * 1000) / n);
  }
  medians.sort((a, b) => a - b);
  return medians[Math.floor(medians.length / 2)] as number;
}

async function step(depth: number): Promise<number> {
  return depth === 0 ? 0 : (await step(depth - 1)) + 1;
}

/** Promises one R2 creates through the read handler, when DATABASE_URL names the demo. */
async function promisesPerRead(): Promise<number | undefined> {
  if (!process.env.DATABASE_URL) return undefined;
  const { functions } = await import('../../lib/server/functions');
  const request = { method: 'GET', path: '/res/Book/1', rawQuery: '', headers: {} };
  await functions.read.serveHttp(request, 'warm');
  let count = 0;
  const hook = createHook({
    init: (_id, type) => {
      if (type === 'PROMISE') count++;
    },
  }).enable();
  await functions.read.serveHttp(request, 'count');
  hook.disable();
  return count;
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

async function main(): Promise<void> {
  console.error(`bench:costs: median of ${rounds} rounds of ${n} calls, one at a time, microseconds per call`);
  // before anything enters a record: the promise hook is off until then
  const plain = await perCall(() => step(PROMISES));
  const hooked = await perCall(() => withRequestRecord(newRequestRecord(), {}, () => step(PROMISES)));
  print(`an async chain of ${PROMISES} awaits, no request record ever entered`, plain);
  print('the same chain inside a request record (AsyncLocalStorage)', hooked);
  print('  the record, per promise', (hooked - plain) / PROMISES);
  const restore = quietStdout();
  const promises = await promisesPerRead().finally(restore);
  if (promises !== undefined) {
    const what = `  x ${promises} promises of one R2 through the read handler`;
    print(what, ((hooked - plain) / PROMISES) * promises);
  }
  const head = {
    method: 'GET',
    url: '/res/Book/17',
    headers: { host: 'localhost:3000', accept: '*/*' },
    httpVersion: '1.1',
  };
  const none = Buffer.alloc(0);
  print(
    'an R2 request read through the API Gateway event (toEvent, fromEvent)',
    await perCall(() => fromEvent(toEvent(head, none))),
  );
  print('the same request read directly (toHttpRequest)', await perCall(() => toHttpRequest(head, none)));
  const quiet = quietStdout();
  try {
    const fields = {
      request_id: 'a6c1d8b4-2a55-4f31-9d0c-3f5f0b2a9e11',
      method: 'GET',
      route: '/res/{resource}/{id}',
      resource: 'Book',
      operation: 'R2',
      status: 200,
      duration_ms: 1.2,
      db_ms: 0.4,
      db_calls: 1,
      rows: 1,
      cold_start: false,
    };
    for (const level of ['INFO', 'WARN']) {
      process.env.LOG_LEVEL = level;
      forgetObservers();
      const logger = observers().logger;
      if (level === 'INFO')
        print(
          'the log line at INFO (Powertools Logger, to /dev/null)',
          await perCall(() => logger.info('request', fields)),
        );
      const outcome = { status: 200, method: 'GET', path: '/res/Book/17', result: 'x' };
      print(
        `a request observed at ${level} (record, log line when written, no metrics)`,
        await perCall(() => observeRequest('id', undefined, async () => outcome)),
      );
    }
  } finally {
    quiet();
  }
}

main().catch((error: unknown) => {
  console.error(`bench:costs failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
