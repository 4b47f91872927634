/**
 * Starting a script of the project for a benchmark: tsx runs it (node, when it is a `.js` or `.mjs` file: this
 * process's node unless told another) in a process group of its own, its output going
 * to a file in the temporary folder (the service logs a line per request), until the output says `ready`.
 * `stop()` sends SIGTERM to the group and waits for the script to exit.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

export interface Running {
  readonly port: number;
  /** The script's tsx (or node), which leads the process group (and session) the script runs in. */
  readonly pid: number;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The checkout whose script runs (this one unless told), with this checkout's tsx. */
  readonly cwd?: string;
  /** The node binary that runs a `.js` or `.mjs` script (this process's unless told). */
  readonly node?: string;
  /** The script's arguments. */
  readonly args?: readonly string[];
  /** Options for node before a `.js` or `.mjs` script (`--cpu-prof`, which NODE_OPTIONS does not take). */
  readonly nodeArgs?: readonly string[];
}

export async function startScript(
  script: string,
  env: NodeJS.ProcessEnv,
  ready: string,
  port: number,
  { cwd = root, node = process.execPath, args = [], nodeArgs = [] }: StartOptions = {},
): Promise<Running> {
  const log = path.join(tmpdir(), `rrs-bench-${path.basename(script, '.ts')}-${port}.log`);
  const fd = openSync(log, 'w');
  const built = /\.m?js$/.test(script);
  const runner = built ? node : path.join(root, 'node_modules', '.bin', 'tsx');
  const all = [...(built ? nodeArgs : []), script, ...args];
  const child: ChildProcess = spawn(runner, all, { cwd, env, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  const deadline = Date.now() + 60_000;
  while (!readFileSync(log, 'utf8').includes(ready)) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`${script} did not start:\n${readFileSync(log, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    port,
    pid: child.pid ?? 0,
    stop: async () => {
      if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await exited;
    },
  };
}
