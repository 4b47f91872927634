/**
 * `npm run bench:events`: what change events cost and how fast they arrive, in the server mode (the bundle `npm run
 * serve` runs) on the demo bookstore seeded into a database of its own on each server, with a webhook receiver in this
 * process. Prints, per database:
 *   - C1 (insert one row by form) on Publisher without events and on the same table with <events on="insert"/>
 *     (a copy of the definition): req/s, p50/p99, the server's CPU per request, and the ratio with/without;
 *   - delivery latency from the write's answer to the webhook's receipt of its event, p50 and p95, for writes sent
 *     one at a time (each answer arrives after its commit, so the figure is at most a little above commit-to-receipt);
 *   - drain throughput: a backlog of events written while no sink was set, published by a server started with one,
 *     in events per second.
 * Never asserted by a test.
 *   npm run bench:events -- [--pg URL] [--mysql URL] [--seconds 10] [--warmup 3] [--connections 10] [--backlog 5000]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { engineOfUrl } from '../../lib/db/engines/registry';
import { maskUrl } from '../../lib/db/mask-url';
import { seedUrl } from '../demo/seed';
import { freePort } from '../free-port';
import { requestText } from '../request-text';
import { urlOf } from '../scratch-database';
import { startEmbeddedDatabase } from '../start';
import { type LoadOptions, measure, readLoadOptions } from './load';
import { benchDatabases, option } from './option';
import { type Running, startScript } from './start-script';

const root = path.resolve(__dirname, '..', '..');
const secret = `whsec_${Buffer.from('bench:events secret, 24 b').toString('base64')}`;
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const run = Date.now().toString(36);

interface Options extends LoadOptions {
  readonly databases: { readonly db: string; readonly url?: string }[];
  readonly backlog: number;
}

function readOptions(): Options {
  return {
    databases: benchDatabases(),
    ...readLoadOptions(option),
    backlog: Number(option('--backlog') ?? 5000),
  };
}

/** The demo's definitions, and PublisherEvents: Publisher with <events on="insert"/>. */
function definitionsFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rrs-bench-events-'));
  const publisher = readFileSync(path.join(root, 'definitions', 'Publisher.xml'), 'utf8');
  writeFileSync(path.join(dir, 'Publisher.xml'), publisher);
  writeFileSync(
    path.join(dir, 'PublisherEvents.xml'),
    publisher.replace('</query>', '</query>\n  <events on="insert"/>'),
  );
  return dir;
}

/** A webhook receiver that notes when each event arrived, by the request id of the write that made it. */
async function startReceiver() {
  const arrived = new Map<string, number>();
  let count = 0;
  let firstAt = 0;
  let lastAt = 0;
  const server = createServer((request, response) => {
    void requestText(request).then((body) => {
      const now = performance.now();
      count++;
      if (count === 1) firstAt = now;
      lastAt = now;
      const requestId = (JSON.parse(body) as { data: { requestId: string } }).data.requestId;
      if (!arrived.has(requestId)) arrived.set(requestId, now);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    arrived,
    count: () => count,
    firstAt: () => firstAt,
    lastAt: () => lastAt,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function serve(url: string, definitions: string, receiver?: Receiver): Promise<Running> {
  const port = await freePort();
  const sink = receiver ? { EVENTS_WEBHOOK_URL: receiver.url, EVENTS_WEBHOOK_SECRET: secret } : {};
  const env = {
    ...process.env,
    DATABASE_URL: url,
    DATABASE_URL_BOOKSTORE: url,
    DEFINITIONS_DIR: definitions,
    PORT: String(port),
    HOST: '127.0.0.1',
    ...sink,
  };
  return startScript('dist/serve.js', env, 'listening', port);
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

async function latency(server: Running, receiver: Receiver, writes: number): Promise<{ p50: number; p95: number }> {
  const answered = new Map<string, number>();
  for (let i = 0; i < writes; i++) {
    const response = await fetch(`http://127.0.0.1:${server.port}/res/PublisherEvents`, {
      method: 'POST',
      headers: { ...form },
      body: `name=l-${run}-${i}`,
    });
    await response.arrayBuffer();
    answered.set(response.headers.get('x-request-id') ?? '', performance.now());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const deadline = Date.now() + 30_000;
  while ([...answered.keys()].some((id) => !receiver.arrived.has(id)) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const times = [...answered].map(([id, at]) => (receiver.arrived.get(id) ?? Number.NaN) - at).sort((a, b) => a - b);
  if (times.some(Number.isNaN)) throw new Error('some events never arrived');
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function drainRate(url: string, definitions: string, backlog: number): Promise<number> {
  const quiet = await serve(url, definitions);
  try {
    const load = { seconds: 1, warmup: 0, connections: 10 };
    let written = 0;
    while (written < backlog) {
      const figures = await measure(quiet.port, c1('PublisherEvents'), load);
      written += figures.requests - figures.non2xx - figures.failed;
    }
  } finally {
    await quiet.stop();
  }
  const receiver = await startReceiver();
  const server = await serve(url, definitions, receiver);
  try {
    let last = -1;
    while (receiver.count() !== last || receiver.count() === 0) {
      last = receiver.count();
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    // from the first delivery to the last: the server's start-up is not the drain's
    return Math.round((receiver.count() - 1) / ((receiver.lastAt() - receiver.firstAt()) / 1000));
  } finally {
    await server.stop();
    await receiver.close();
  }
}

/** C1 on `resource`: a form POST of a new name each time (its own headers: autocannon adds to what it is given). */
const c1 = (resource: string) => (n: number) => ({
  method: 'POST' as const,
  path: `/res/${resource}`,
  headers: { ...form },
  body: `name=${resource}-${run}-${n}`,
});

async function measureC1(db: string, name: string, server: Running, resource: string, options: Options) {
  const f = await measure(server.port, c1(resource), options, server.pid);
  if (f.non2xx > 0 || f.failed > 0) throw new Error(`${name}: ${f.non2xx} non-2xx, ${f.failed} failed`);
  console.log(
    `${db.padEnd(8)} ${name.padEnd(36)} ${String(Math.round(f.rps)).padStart(6)} req/s p50 ${f.p50} ms p99 ${f.p99} ms CPU ${f.cpuPerRequest} µs`,
  );
  return f.rps;
}

async function benchDatabase(db: string, url: string, options: Options, definitions: string): Promise<void> {
  // without a sink: the writes alone, their events left in the outbox
  const quiet = await serve(url, definitions);
  let without: number;
  let outboxOnly: number;
  try {
    without = await measureC1(db, 'C1 without events', quiet, 'Publisher', options);
    outboxOnly = await measureC1(db, 'C1 with events, no sink (outbox only)', quiet, 'PublisherEvents', options);
  } finally {
    await quiet.stop();
  }
  await emptyOutbox(url);
  const receiver = await startReceiver();
  const server = await serve(url, definitions, receiver);
  try {
    const delivered = await measureC1(db, 'C1 with events, delivered to a webhook', server, 'PublisherEvents', options);
    console.log(
      `${db.padEnd(8)} C1 with events / without: ${(outboxOnly / without).toFixed(2)} written to the outbox, ${(delivered / without).toFixed(2)} delivered too`,
    );
    const { p50, p95 } = await latency(server, receiver, 200);
    console.log(
      `${db.padEnd(8)} delivery latency, answer to webhook receipt: p50 ${p50.toFixed(1)} ms p95 ${p95.toFixed(1)} ms`,
    );
  } finally {
    await server.stop();
    await receiver.close();
  }
  await emptyOutbox(url);
  const rate = await drainRate(url, definitions, options.backlog);
  console.log(`${db.padEnd(8)} drain throughput: ${rate} events/s (a backlog of at least ${options.backlog})`);
}

/** The events a run left behind go, so that the next measurement starts from an empty outbox. */
async function emptyOutbox(url: string): Promise<void> {
  const connect = await engineOfUrl(url).driver();
  if (!connect) throw new Error('no driver');
  const db = connect(url, { connectTimeoutMs: 5000, statementTimeoutMs: 60_000, poolSize: 1, idleTimeoutS: 5 });
  try {
    await db.run({ text: 'DELETE FROM rrs_events', params: [] });
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  const options = readOptions();
  execFileSync('npm', ['run', '--silent', 'build:serve'], { stdio: 'inherit', cwd: root });
  const definitions = definitionsFolder();
  console.log(
    `bench:events: ${options.connections} connections, ${options.warmup} s warm-up, ${options.seconds} s measured per C1 run; loopback; dist/serve.js with LOG_LEVEL=${process.env.LOG_LEVEL || 'INFO'}`,
  );
  try {
    for (const { db, url } of options.databases) {
      if (url) {
        const own = urlOf(url, 'rrs_bench_events');
        await seedUrl(own);
        console.log(`${db}: the demo seeded into ${maskUrl(own)}`);
        await benchDatabase(db, own, options, definitions);
      } else {
        const embedded = await startEmbeddedDatabase();
        try {
          await benchDatabase(db, embedded.env.DATABASE_URL as string, options, definitions);
        } finally {
          await embedded.stop();
        }
      }
    }
  } finally {
    rmSync(definitions, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  const cause = error instanceof Error && error.cause ? ` (${String(error.cause)})` : '';
  console.error(`bench:events failed: ${error instanceof Error ? error.message : String(error)}${cause}`);
  process.exit(1);
});
