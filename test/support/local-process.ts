/**
 * End-to-end helpers: run the service as a user does (`npm start`, `serverless offline start`) in its own
 * process group on a free port, wait until it says it is ready, and stop the whole group afterwards.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

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

/** Starts `command` in the project folder and resolves once its output contains `ready`. */
export async function startProcess(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  ready: string,
): Promise<LocalProcess> {
  const child: ChildProcess = spawn(command, args, { cwd: root, env, detached: true });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const stop = async () => {
    if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 120_000;
  while (!output.includes(ready) && Date.now() < deadline && child.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (!output.includes(ready)) {
    await stop();
    throw new Error(`${path.basename(command)} ${args.join(' ')} did not become ready:\n${output}`);
  }
  return { output: () => output, stop };
}
