/**
 * `npm run soak`: a bounded soak of the running service on loopback, never asserted by tests. It starts the
 * embedded demo database (PGlite over the wire) and `npm start` against it, warms every route up, then drives
 * a mix of reads and writes with autocannon for SOAK_SECONDS (default 60) over SOAK_CONNECTIONS (default 8)
 * client connections, and prints requests, errors by status, latency percentiles, and the database's client
 * connections before, during (the most seen) and after the load. Errors should be 0, and connections should
 * stay within what the database allows (serverless-offline runs a worker per concurrent invocation, as Lambda
 * runs a container, each with its own pool) and be back at their warm level once the service's pools
 * have closed what the load left idle (the service runs with DB_IDLE_TIMEOUT_S=SOAK_IDLE_S, default 5).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import autocannon from 'autocannon';
import { seedDemo } from '../demo/seed';
import { startPgliteServer } from '../pglite-server';

const root = path.resolve(__dirname, '..', '..');
const seconds = Number(process.env.SOAK_SECONDS ?? 60);
const clients = Number(process.env.SOAK_CONNECTIONS ?? 8);
const idleS = Number(process.env.SOAK_IDLE_S ?? 5);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** `npm start` against the given database; resolves once it says it is ready. */
async function startService(databaseUrl: string, port: number): Promise<ChildProcess> {
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    DEFINITIONS_DIR: '',
    NODE_OPTIONS: '',
    DB_IDLE_TIMEOUT_S: String(idleS),
  };
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['scripts/start.ts'], {
    cwd: root,
    env,
    detached: true,
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const deadline = Date.now() + 120_000;
  while (!output.includes('Stop with Ctrl-C')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm start did not become ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return child;
}

const random = (n: number) => 1 + Math.floor(Math.random() * n);
const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** One request of the mix: half reads, then price-log inserts and deletes and book updates. */
function nextRequest(): {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
} {
  const roll = Math.random();
  if (roll < 0.25) return { method: 'GET', path: `/res/Book/${random(200)}` };
  if (roll < 0.4) return { method: 'GET', path: `/res/Book?price=%3E${random(50)}&_limit=20&_output=json` };
  if (roll < 0.5) return { method: 'GET', path: `/res/BookReviews?book_id=${random(200)}` };
  if (roll < 0.7) {
    const body = `book_id=${random(200)}&changed_at=2025-01-0${random(9)} 10:00:00&old_price=${random(50)}.00&new_price=${random(50)}.50`;
    return { method: 'POST', path: '/res/PriceHistory', headers: form, body };
  }
  if (roll < 0.9)
    return { method: 'PUT', path: `/res/Book/${random(200)}`, headers: form, body: `pages=${random(800)}` };
  return { method: 'DELETE', path: `/res/PriceHistory?book_id=${random(200)}&new_price=%3E${random(50)}` };
}

function percentile(sorted: readonly number[], p: number): string {
  return (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(2);
}

async function main(): Promise<void> {
  const db = await PGlite.create();
  await seedDemo((statement) => db.exec(statement), 'postgres');
  const database = await startPgliteServer(db, { maxConnections: 100 });
  const port = await freePort();
  const service = await startService(database.url('bookstore'), port);
  try {
    const base = `http://127.0.0.1:${port}`;
    for (const route of ['/res/Book/1', '/res/BookReviews/1', '/res/PriceHistory?book_id=0']) await fetch(base + route);
    await fetch(`${base}/res/Book/1`, { method: 'PUT', headers: form, body: 'pages=100' });
    await fetch(`${base}/res/PriceHistory?book_id=0`, { method: 'DELETE' });
    await fetch(`${base}/res/PriceHistory`, {
      method: 'POST',
      headers: form,
      body: 'book_id=1&changed_at=2025-01-01 10:00:00&old_price=1.00&new_price=2.00',
    });
    const before = database.connections();
    let during = before;
    const sampler = setInterval(() => {
      during = Math.max(during, database.connections());
    }, 200);
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    const result = await autocannon({
      url: base,
      connections: clients,
      duration: seconds,
      requests: [{ setupRequest: (request) => ({ ...request, ...nextRequest() }) }],
      setupClient: (client) => {
        client.on('response', (status: number, _bytes: number, ms: number) => {
          latencies.push(ms);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        });
      },
    });
    clearInterval(sampler);
    const settled = Date.now();
    // the pools close connections idle for DB_IDLE_TIMEOUT_S; wait for that, and a margin, at most
    while (database.connections() > before && Date.now() - settled < (idleS + 5) * 1000)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const after = database.connections();
    const afterS = ((Date.now() - settled) / 1000).toFixed(1);
    latencies.sort((a, b) => a - b);
    const errors = [...statuses].filter(([status]) => status >= 400);
    console.log(
      `soak: ${seconds} s, ${clients} client connections, mixed reads and writes against npm start (embedded demo)`,
    );
    console.log(
      `requests ${latencies.length} (${(latencies.length / seconds).toFixed(0)}/s); transport errors ${result.errors}, timeouts ${result.timeouts}`,
    );
    console.log(
      `status ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ')}`,
    );
    console.log(
      `errors ${errors.reduce((sum, [, n]) => sum + n, 0)}${errors.length ? ` (${errors.map(([s, n]) => `${s}: ${n}`).join(', ')})` : ''}`,
    );
    console.log(
      `latency p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms, p99 ${percentile(latencies, 99)} ms, max ${percentile(latencies, 100)} ms`,
    );
    console.log(
      `database connections: ${before} warm before, ${during} at most during, ${after} after the load (${afterS} s later; idle connections close after ${idleS} s)`,
    );
  } finally {
    if (service.pid) process.kill(-service.pid, 'SIGTERM');
    await new Promise((resolve) => service.once('exit', resolve));
    await database.stop();
    await db.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
