/**
 * Calling the real handlers in process, as the benchmarks do: an API Gateway HTTP API (payload 2.0) event for a
 * call, and a way to keep the service's request log lines (LOG_LEVEL=INFO, as on Lambda) out of the output while
 * reading the figures they hold: each request's time in the database and the statements it ran.
 */

export interface Call {
  readonly method: string;
  readonly path: string;
  readonly query?: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

export function gatewayEvent(call: Call) {
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

/** Runs `work` with what it writes to stdout kept, not shown, and returns its result and the log lines written. */
export async function withLogLines<T>(
  work: () => Promise<T>,
): Promise<{ result: T; lines: Record<string, unknown>[] }> {
  let written = '';
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    written += chunk.toString();
    return true;
  }) as typeof process.stdout.write;
  try {
    const result = await work();
    const lines = written
      .split('\n')
      .filter((line) => line.startsWith('{"level"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    return { result, lines };
  } finally {
    process.stdout.write = write;
  }
}
