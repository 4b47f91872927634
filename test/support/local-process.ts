/**
 * End-to-end helpers: run the service as a user does (`npm start`, `serverless offline start`) in its own
 * process group on a free port, wait until it says it is ready, and stop the whole group afterwards.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { snapshotFile } from './pglite';

export const root = path.resolve(__dirname, '..', '..');

export { freePort } from '../../scripts/free-port';

/**
 * The test's environment without the variables that choose what the service serves and who may use it (so a developer's own
 * DATABASE_URL or DEFINITIONS_DIR never leaks in), plus `env`. NODE_OPTIONS is jest's, not the service's.
 */
export function serviceEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(
    ([name]) =>
      !/^(DATABASE_URL(_.*)?|DEFINITIONS_DIR|DEFINITIONS_S3|AUTH_.*|PRIVILEGES|NODE_OPTIONS|PORT|LAMBDA_PORT)$/.test(
        name,
      ),
  );
  return { ...Object.fromEntries(kept), SLS_TELEMETRY_DISABLED: '1', SLS_NOTIFICATIONS_MODE: 'off', ...env };
}

export interface LocalProcess {
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

let started = 0;

/** Starts `command` in the project folder and resolves once its output contains `ready` (or it exits). */
export async function startProcess(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  ready: string,
): Promise<LocalProcess> {
  // an `npm start` on the demo loads the run's seeded snapshot instead of seeding a PGlite of its own
  const demo = await snapshotFile('demo');
  // serverless-offline builds in a folder of its own: two started at once in one folder would remove each other's
  started += 1;
  const workFolder = `.esbuild-test-${process.pid}-${started}`;
  const childEnv = { ...(demo ? { RRS_DEMO_SNAPSHOT: demo } : {}), RRS_ESBUILD_WORK_FOLDER: workFolder, ...env };
  const child: ChildProcess = spawn(command, args, { cwd: root, env: childEnv, detached: true });
  let output = '';
  let timer: NodeJS.Timeout | undefined;
  const readyOrGone = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 120_000);
    child.once('exit', () => resolve());
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) resolve();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
  });
  const stop = async () => {
    if (child.pid && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    rmSync(path.join(root, workFolder), { recursive: true, force: true });
  };
  await readyOrGone;
  clearTimeout(timer);
  if (!output.includes(ready)) {
    await stop();
    throw new Error(`${path.basename(command)} ${args.join(' ')} did not become ready:\n${output}`);
  }
  return { output: () => output, stop };
}
