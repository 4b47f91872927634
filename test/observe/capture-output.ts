/**
 * Captures what the service writes to stdout and stderr while a test runs (the Powertools Logger and Metrics
 * write there, not to console), and sorts it into log lines and EMF records. useObserveEnv sets the logging and
 * metrics variables for a test file.
 */
import { forgetObservers } from '../../lib/observe/observers';

export interface Captured {
  /** Everything written, as written. */
  text(): string;
  /** The JSON lines whose `message` is `message` (default: the request lines). */
  logLines(message?: string): Record<string, unknown>[];
  /** The CloudWatch embedded metric format records. */
  emf(): Record<string, unknown>[];
  clear(): void;
  restore(): void;
}

function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function captureOutput(): Captured {
  let written = '';
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((stream) => stream.write);
  for (const stream of streams) {
    stream.write = ((chunk: unknown) => {
      written += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
      return true;
    }) as typeof stream.write;
  }
  return {
    text: () => written,
    logLines: (message = 'request') => jsonLines(written).filter((line) => line.message === message),
    emf: () => jsonLines(written).filter((line) => '_aws' in line),
    clear: () => {
      written = '';
    },
    restore: () => {
      streams.forEach((stream, i) => {
        stream.write = originals[i] as typeof stream.write;
      });
    },
  };
}

/** For the whole test file: `env` set (LOG_LEVEL, metrics...) and the observers made again from it, then undone. */
export function useObserveEnv(env: Readonly<Record<string, string>>): void {
  beforeAll(() => {
    for (const [key, value] of Object.entries(env)) process.env[key] = value;
    forgetObservers();
  });
  afterAll(() => {
    for (const key of Object.keys(env)) delete process.env[key];
    forgetObservers();
  });
}
