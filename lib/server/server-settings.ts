/**
 * The settings of the server mode alone (`npm run serve`), read from the environment it is given: where it
 * listens, how long it waits for a request's head and whole, how many connections and request bytes it holds at
 * once, and how long a stop may take. Pure: reads only the object it is given; throws a ConfigurationError that
 * names the variable for a value it cannot use, so the server stops before it listens.
 */
import { ConfigurationError } from '../errors';

export interface ServerSettings {
  readonly port: number;
  readonly host: string;
  /** How long a request's head (line and headers) may take to arrive: a slow client is cut with a 408. */
  readonly headersTimeoutMs: number;
  /** How long a whole request, body included, may take to arrive. */
  readonly requestTimeoutMs: number;
  /** Connections served at once; a request on a connection beyond is a 503 (twice as many are closed unread). */
  readonly maxConnections: number;
  /** Bytes of request bodies held at once, from the first byte read to the response; beyond, a 503. */
  readonly bodyBytesInFlight: number;
  /** How long SIGTERM waits for the requests in flight. */
  readonly shutdownGraceMs: number;
}

/**
 * The defaults. Headers: 10 s, far more than any client on a working network needs for a few hundred bytes, and
 * what a connection that sends nothing may hold a slot. Request: 30 s, the bound API Gateway sets on Lambda, in
 * which even a 5 MiB body arrives at 200 KB/s. Connections: 500, well under the usual 1024 open files. Bytes in
 * flight: 64 MiB, a dozen bodies of the largest size at once.
 */
const defaults = {
  port: 3000,
  host: '0.0.0.0',
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 500,
  bodyBytesInFlight: 64 * 1024 * 1024,
  shutdownGraceMs: 25_000,
};

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, smallest: number, largest?: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < smallest || (largest !== undefined && n > largest)) {
    const range =
      largest !== undefined
        ? `an integer from ${smallest} to ${largest}`
        : smallest === 0
          ? 'a non-negative integer'
          : 'a positive integer';
    throw new ConfigurationError(`${name} must be ${range}, got "${raw}"`);
  }
  return n;
}

/** `maxBodyBytes` is MAX_BODY_BYTES: one body of that size must fit in the bytes in flight. */
export function serverSettings(env: NodeJS.ProcessEnv, maxBodyBytes: number): ServerSettings {
  const settings: ServerSettings = {
    port: integer(env, 'PORT', defaults.port, 0, 65535),
    host: env.HOST || defaults.host,
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', defaults.headersTimeoutMs, 1),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', defaults.requestTimeoutMs, 1),
    maxConnections: integer(env, 'MAX_CONNECTIONS', defaults.maxConnections, 1),
    bodyBytesInFlight: integer(env, 'MAX_BODY_BYTES_IN_FLIGHT', defaults.bodyBytesInFlight, 1),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', defaults.shutdownGraceMs, 0),
  };
  if (settings.headersTimeoutMs > settings.requestTimeoutMs)
    throw new ConfigurationError(
      `HEADERS_TIMEOUT_MS (${settings.headersTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${settings.requestTimeoutMs}): the head is part of the request`,
    );
  if (settings.bodyBytesInFlight < maxBodyBytes)
    throw new ConfigurationError(
      `MAX_BODY_BYTES_IN_FLIGHT (${settings.bodyBytesInFlight}) must be at least MAX_BODY_BYTES (${maxBodyBytes}): a body of the largest size must fit`,
    );
  return settings;
}
