/**
 * The server mode under load, for the benchmarks that measure it (xml-bodies.ts, big-read.ts): scripts/serve.ts
 * of a checkout started on a free port, a one-row read every 20 ms while a load runs, and that read's latency in
 * figures. Asserts nothing: a read that does not answer 200 is counted, with what it answered.
 */
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
  return startScript('scripts/serve.ts', all, 'listening', port, serviceRoot);
}

export interface OneRowReads {
  /** Of every read, in ms, whatever it answered. */
  readonly latencies: number[];
  /** What the reads that did not answer 200 answered: status and code, or why no answer came. */
  readonly failures: string[];
}

/** GET `path` (a one-row read, as JSON) every 20 ms until `until` settles. */
export async function readWhile(base: string, path: string, until: Promise<unknown>): Promise<OneRowReads> {
  let done = false;
  const stop = () => {
    done = true;
  };
  until.then(stop, stop);
  const reads: OneRowReads = { latencies: [], failures: [] };
  while (!done) {
    const started = performance.now();
    const failure = await fetch(`${base}${path}`, { headers: { accept: 'application/json, application/problem+json' } })
      .then(async (response) => {
        const body = await response.text();
        return response.status === 200 ? undefined : `${response.status} ${body.match(/"code":"([^"]+)"/)?.[1] ?? ''}`;
      })
      .catch((error: unknown) => `no answer (${error instanceof Error ? error.message : String(error)})`);
    reads.latencies.push(performance.now() - started);
    if (failure) reads.failures.push(failure);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return reads;
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
