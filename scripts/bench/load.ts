/**
 * The load the HTTP benchmarks drive a server with (bench:http, bench:peer): autocannon over loopback, CONNECTIONS
 * connections with one request in flight each, a warm-up run and then the measured one, each request made by the
 * case from a number that grows over the whole run (so no two inserts repeat a unique name). Counts what did not
 * answer 2xx; the caller decides whether that fails its run. Measures only: never asserted by a test.
 */
import autocannon from 'autocannon';
import { cpuMicros, groupMembers } from './process-usage';

export type BenchRequest = {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
};

export interface LoadOptions {
  readonly seconds: number;
  readonly warmup: number;
  readonly connections: number;
}

export interface Figures {
  /** Requests answered, in the warm-up and the measured run. */
  readonly requests: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Responses of the measured run that were not 2xx, and requests that got no response (errors, timeouts). */
  readonly non2xx: number;
  readonly failed: number;
  /**
   * The server's CPU time (user and system, all processes of its group) per request of the measured run, in µs, when
   * measure() was given the group: unlike req/s, it moves little with what else the machine runs.
   */
  readonly cpuPerRequest?: number;
}

/** `--seconds`, `--warmup` and `--connections` of a benchmark's arguments, with bench:http's defaults. */
export function readLoadOptions(value: (flag: string) => string | undefined): LoadOptions {
  return {
    seconds: Number(value('--seconds') ?? 10),
    warmup: Number(value('--warmup') ?? 3),
    connections: Number(value('--connections') ?? 10),
  };
}

/** Numbers the requests of the whole run. */
let n = 0;

async function load(port: number, request: (n: number) => BenchRequest, seconds: number, connections: number) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    pipelining: 1,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, ...request(n++) }) }],
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    failed: result.errors + result.timeouts,
  } satisfies Figures;
}

/**
 * A warm-up run, then the measured run: the figures are the measured run's, the failures those of both; with the
 * server's process group, the CPU time it spent per request of the measured run.
 */
export async function measure(
  port: number,
  request: (n: number) => BenchRequest,
  options: LoadOptions,
  serverGroup?: number,
): Promise<Figures> {
  const warm = options.warmup > 0 ? await load(port, request, options.warmup, options.connections) : undefined;
  const pids = serverGroup === undefined ? [] : groupMembers(serverGroup);
  const cpuBefore = cpuMicros(pids);
  const measured = await load(port, request, options.seconds, options.connections);
  const cpu = cpuMicros(pids) - cpuBefore;
  return {
    ...measured,
    ...(serverGroup === undefined ? {} : { cpuPerRequest: Math.round(cpu / Math.max(1, measured.requests)) }),
    requests: measured.requests + (warm?.requests ?? 0),
    non2xx: measured.non2xx + (warm?.non2xx ?? 0),
    failed: measured.failed + (warm?.failed ?? 0),
  };
}
