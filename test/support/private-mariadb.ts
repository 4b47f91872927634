/**
 * A private MariaDB server started with settings of the test's own (an sql_mode the shared server must not get),
 * for the tests of how the service treats such a server: mariadb-install-db and mariadbd in a temp folder, on a free
 * port of 127.0.0.1, without grant tables (any user logs in) and without the binary log. Stopped and removed by
 * stop().
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { freePort } from '../../scripts/free-port';

export interface PrivateMariadb {
  /** mysql://root@127.0.0.1:port/test */
  readonly url: string;
  stop(): Promise<void>;
}

const programs = { install: '/usr/bin/mariadb-install-db', server: '/usr/sbin/mariadbd' };

/** True when MariaDB's server programs are installed. */
export function mariadbInstalled(): boolean {
  return existsSync(programs.install) && existsSync(programs.server);
}

/** Until the server answers a login, or its process ends (its log says why). */
async function ready(url: string, server: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (server.exitCode !== null) throw new Error(`mariadbd ended (${server.exitCode}): ${log()}`);
    try {
      const conn = await mysql.createConnection({ uri: url });
      await conn.end();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`mariadbd did not answer within 10 s: ${log()}`);
}

/** `settings`: mariadbd options, e.g. `--sql-mode=NO_BACKSLASH_ESCAPES`. The database `test` exists. */
export async function startPrivateMariadb(settings: readonly string[]): Promise<PrivateMariadb> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rrs-mariadb-'));
  const data = path.join(dir, 'data');
  const user = os.userInfo().username;
  execFileSync(programs.install, ['--no-defaults', `--datadir=${data}`, `--user=${user}`, '--skip-test-db'], {
    stdio: 'pipe',
  });
  const port = await freePort();
  let output = '';
  const server = spawn(
    programs.server,
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--port=${port}`,
      `--socket=${path.join(dir, 'mariadb.sock')}`,
      `--pid-file=${path.join(dir, 'mariadb.pid')}`,
      '--bind-address=127.0.0.1',
      `--user=${user}`,
      '--skip-grant-tables',
      '--skip-log-bin',
      '--innodb-buffer-pool-size=16M',
      ...settings,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  server.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  server.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const root = `mysql://root@127.0.0.1:${port}`;
  const stop = async () => {
    if (server.exitCode === null) {
      const ended = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await ended;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await ready(`${root}/mysql`, server, () => output);
    const admin = await mysql.createConnection({ uri: `${root}/mysql` });
    await admin.query('CREATE DATABASE test CHARACTER SET utf8mb4');
    await admin.end();
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `${root}/test`, stop };
}
