/**
 * The service's logger writes what Powertools' Logger writes, at every level, to the same stream: only the
 * timestamp differs between the two lines of a pair. So does it through the server mode's output (log-output.ts),
 * a turn at a time.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { bufferedLineOutput } from '../../lib/observe/log-output';
import { ServiceLogger } from '../../lib/observe/service-logger';

function written(log: (logger: Logger) => void, logger: Logger): { stdout: string; stderr: string } {
  const out = { stdout: '', stderr: '' };
  const originals = [process.stdout.write, process.stderr.write];
  process.stdout.write = ((chunk: string) => {
    out.stdout += chunk;
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => {
    out.stderr += chunk;
    return true;
  }) as typeof process.stderr.write;
  try {
    log(logger);
  } finally {
    [process.stdout.write, process.stderr.write] = originals as [
      typeof process.stdout.write,
      typeof process.stderr.write,
    ];
  }
  return { stdout: untimed(out.stdout), stderr: untimed(out.stderr) };
}

const untimed = (text: string) => text.replace(/"timestamp":"[^"]*"/g, '"timestamp":"-"');

/** A stream that keeps what is written to it, write by write. */
function recorder() {
  const writes: string[] = [];
  return { writes, stream: { write: (text: string) => writes.push(text) > 0 } as unknown as NodeJS.WritableStream };
}

const fields = { request_id: 'r-1', status: 500, error_cause: new Error('cause'), big: 10n, nested: { a: [1] } };

it.each([
  ['trace', (l: Logger) => l.trace('request', fields)],
  ['debug', (l: Logger) => l.debug('database call', fields)],
  ['info', (l: Logger) => l.info('request', fields)],
  ['warn', (l: Logger) => l.warn('request', fields)],
  ['error', (l: Logger) => l.error('request', fields)],
  ['critical', (l: Logger) => l.critical('request', fields)],
])('writes the %s line Powertools writes', (_level, log) => {
  const options = { serviceName: 'relational-resource-service', logLevel: 'TRACE' as const };
  const ours = written(log, new ServiceLogger(options));
  expect(ours.stdout + ours.stderr).toContain('"request_id":"r-1"');
  expect(ours).toEqual(written(log, new Logger(options)));
});

it('writes the same lines through the server mode output, one write per stream for a turn', async () => {
  const options = { serviceName: 'relational-resource-service', logLevel: 'TRACE' as const };
  const levels = ['trace', 'debug', 'info', 'warn', 'error', 'critical'] as const;
  const all = (l: Logger) => {
    for (const level of levels) l[level]('request', fields);
  };
  const [out, err] = [recorder(), recorder()];
  all(new ServiceLogger(options, bufferedLineOutput(out.stream, err.stream)));
  await new Promise((resolve) => setImmediate(resolve));
  expect(out.writes).toHaveLength(1);
  expect(err.writes).toHaveLength(1);
  expect({ stdout: untimed(out.writes.join('')), stderr: untimed(err.writes.join('')) }).toEqual(
    written(all, new Logger(options)),
  );
});
