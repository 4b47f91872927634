/**
 * The server mode under load, for the benchmarks that measure it (xml-bodies.ts, big-read.ts): scripts/serve.ts
 * of a checkout started on a free port, a one-row read every 20 ms from a process of its own while a load runs, and
 * that read's latency in figures. Asserts nothing: a read that does not answer 200 is counted, with what it answered.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../free-port';
import { type Running, startScript } from './start-script';

/**
 * The server mode of `serviceRoot` (with this checkout's tsx), with `env` on top of this process's. It logs at
 * LOG_LEVEL=WARN, and has DB_POOL_SIZE=10: the loads hold a few connections for seconds, so the one-row read gets
 * one of its own and waits for the event loop only.
 */
export async function startServerMode(serviceRoot: string, env: Readonly<Record<string, string>>): Promise<Running> {
  const port = await freePort();
  const all = { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'WARN', DB_POOL_SIZE: '10', ...env };
  return startScript('scripts/serve.ts', all, 'listening', port, { cwd: serviceRoot });
}

export interface OneRowReads {
  /** Of every read, in ms, whatever it answered. */
  readonly latencies: number[];
  /** What the reads that did not answer 200 answered: status and code, or why no answer came. */
  readonly failures: string[];
}

/**
 * GET `path` (a one-row read, as JSON) every 20 ms until `until` settles, from a process of its own
 * (one-row-reader.js): the load this process sends does not delay the reads it times.
 */
export async function readWhile(base: string, path: string, until: Promise<unknown>): Promise<OneRowReads> {
  const reader = spawn(process.execPath, [join(__dirname, 'one-row-reader.js'), base, path], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  reader.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise((resolve) => reader.once('exit', resolve));
  await until.catch(() => undefined);
  reader.stdin.end('stop\n');
  await exited;
  return JSON.parse(output) as OneRowReads;
}

export function latencyFigures({ latencies, failures }: OneRowReads): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(0);
  const counts = new Map<string, number>();
  for (const failure of failures) counts.set(failure, (counts.get(failure) ?? 0) + 1);
  const failed = [...counts].map(([failure, count]) => `${failure} x${count}`).join(', ');
  return (
    `${String(latencies.length).padStart(4)} reads: p50 ${at(0.5).padStart(5)} ms, p99 ${at(0.99).padStart(5)} ms, max ${at(1).padStart(5)} ms` +
    (failed ? `; not 200: ${failed}` : '')
  );
}
