/**
 * The server mode's log lines, a turn of the event loop at a time: in order on each stream, one write per stream per
 * turn, at once past 64 KiB, and never lost when the process exits (service-logger.test.ts: the same lines as
 * Powertools writes).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { bufferedLineOutput, flushLogLines } from '../../lib/observe/log-output';

function recorder() {
  const writes: string[] = [];
  return { writes, stream: { write: (text: string) => writes.push(text) > 0 } as unknown as NodeJS.WritableStream };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

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
