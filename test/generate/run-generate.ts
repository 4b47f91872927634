/** Runs `npm run generate` (scripts/generate.ts, by tsx) as a user does, with what it printed and its exit code. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { root, serviceEnv } from '../support/local-process';

export const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function runGenerate(args: readonly string[]): Promise<Run> {
  const run = promisify(execFile)(tsx, ['scripts/generate.ts', ...args], { cwd: root, env: serviceEnv({}) });
  return run.then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Run) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}
