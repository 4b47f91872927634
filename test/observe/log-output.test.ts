/**
 * The server mode's log lines, a turn of the event loop at a time: the same lines as Powertools writes, in order on
 * each stream, one write per stream per turn, at once past 64 KiB, and never lost when the process exits.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { bufferedLineOutput, flushLogLines } from '../../lib/observe/log-output';
import { ServiceLogger } from '../../lib/observe/service-logger';

function recorder() {
  const writes: string[] = [];
  return { writes, stream: { write: (text: string) => writes.push(text) > 0 } as unknown as NodeJS.WritableStream };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const untimed = (text: string) => text.replace(/"timestamp":"[^"]*"/g, '"timestamp":"-"');

it('writes the lines of a turn in one write per stream, warnings and errors to stderr, in order', async () => {
  const [out, err] = [recorder(), recorder()];
  const lines = bufferedLineOutput(out.stream, err.stream);
  lines.info('a');
  lines.warn('w1');
  lines.debug('b');
  lines.error('w2');
  lines.trace('c');
  expect(out.writes).toEqual([]);
  await turn();
  expect(out.writes).toEqual(['a\nb\nc\n']);
  expect(err.writes).toEqual(['w1\nw2\n']);
  lines.log('d');
  await turn();
  expect(out.writes).toEqual(['a\nb\nc\n', 'd\n']);
  expect(err.writes).toEqual(['w1\nw2\n']);
});

it('writes at once when 64 KiB wait', () => {
  const out = recorder();
  const lines = bufferedLineOutput(out.stream, recorder().stream);
  const line = 'x'.repeat(1023);
  for (let i = 0; i < 63; i++) lines.info(line);
  expect(out.writes).toEqual([]);
  lines.info(line);
  expect(out.writes).toEqual([`${line}\n`.repeat(64)]);
  flushLogLines();
  expect(out.writes).toHaveLength(1);
});

it('gives the lines Powertools writes, at every level', async () => {
  const options = { serviceName: 'relational-resource-service', logLevel: 'TRACE' as const };
  const fields = { request_id: 'r-1', status: 500, error_cause: new Error('cause'), big: 10n, nested: { a: [1] } };
  const [out, err] = [recorder(), recorder()];
  const ours = new ServiceLogger(options, bufferedLineOutput(out.stream, err.stream));
  const levels = ['trace', 'debug', 'info', 'warn', 'error', 'critical'] as const;
  for (const level of levels) ours[level]('request', fields);
  await turn();
  const theirs = { stdout: '', stderr: '' };
  const originals = [process.stdout.write, process.stderr.write];
  process.stdout.write = ((chunk: string) => {
    theirs.stdout += chunk;
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => {
    theirs.stderr += chunk;
    return true;
  }) as typeof process.stderr.write;
  try {
    const powertools = new Logger(options);
    for (const level of levels) powertools[level]('request', fields);
  } finally {
    [process.stdout.write, process.stderr.write] = originals as [
      typeof process.stdout.write,
      typeof process.stderr.write,
    ];
  }
  expect(untimed(out.writes.join(''))).toBe(untimed(theirs.stdout));
  expect(untimed(err.writes.join(''))).toBe(untimed(theirs.stderr));
  expect(out.writes).toHaveLength(1);
});

it('writes what waits when the process exits in the same turn', () => {
  const module = path.join(__dirname, '..', '..', 'lib', 'observe', 'log-output.ts');
  const script = `const { bufferedLineOutput } = require(${JSON.stringify(module)});
    const lines = bufferedLineOutput();
    lines.info('first'); lines.error('oops'); lines.info('last');
    process.exit(3);`;
  const tsx = path.join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx');
  let result: { status: number | null; stdout: string; stderr: string };
  try {
    execFileSync(tsx, ['-e', script], { encoding: 'utf8', stdio: 'pipe' });
    result = { status: 0, stdout: '', stderr: '' };
  } catch (error) {
    result = error as { status: number; stdout: string; stderr: string };
  }
  expect(result.status).toBe(3);
  expect(result.stdout).toBe('first\nlast\n');
  expect(result.stderr).toBe('oops\n');
});
