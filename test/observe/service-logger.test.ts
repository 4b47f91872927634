/**
 * The service's logger writes what Powertools' Logger writes, at every level, to the same stream: only the
 * timestamp differs between the two lines of a pair.
 */
import { Logger } from '@aws-lambda-powertools/logger';
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
  const untimed = (text: string) => text.replace(/"timestamp":"[^"]*"/g, '"timestamp":"-"');
  return { stdout: untimed(out.stdout), stderr: untimed(out.stderr) };
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
