/**
 * A private PostgreSQL cluster that checks passwords (scram-sha-256), for the credentials tests: the shared test
 * server trusts every login, so it could never refuse a wrong password. initdb and pg_ctl in a temp folder, on a
 * free port of 127.0.0.1, with TLS (a self-signed certificate) and fsync off; run as the `postgres` OS user when
 * the tests run as root (PostgreSQL refuses to run as root). The superuser `postgres` logs in without a password
 * (the tests' own admin connection); every other user needs its password. Stopped and removed by stop().
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/free-port';
import { makeCertificate } from './credentials-tls';

export interface PrivatePostgres {
  readonly port: number;
  /** postgres://postgres@127.0.0.1:port/postgres, no password needed. */
  readonly adminUrl: string;
  stop(): void;
}

/** The folder of initdb and pg_ctl, or undefined when no PostgreSQL server is installed. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

const asRoot = process.getuid?.() === 0;

function run(bin: string, args: string[]): void {
  const [command, all] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  execFileSync(command, all, { stdio: 'pipe' });
}

function ownedByPostgres(file: string): void {
  if (!asRoot) return;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
  chownSync(file, uid, gid);
}

export async function startPrivatePostgres(binDir: string): Promise<PrivatePostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rrs-credentials-pg-'));
  chmodSync(dir, 0o755);
  ownedByPostgres(dir);
  const data = path.join(dir, 'data');
  run(path.join(binDir, 'initdb'), ['-D', data, '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  writeFileSync(
    path.join(data, 'pg_hba.conf'),
    ['local all all trust', 'host all postgres 127.0.0.1/32 trust', 'host all all 127.0.0.1/32 scram-sha-256', ''].join(
      '\n',
    ),
  );
  const certificate = makeCertificate(dir);
  for (const file of [certificate.keyFile, certificate.certFile]) {
    chmodSync(file, 0o600);
    ownedByPostgres(file);
  }
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c ssl=on',
    `-c ssl_cert_file=${certificate.certFile}`,
    `-c ssl_key_file=${certificate.keyFile}`,
  ].join(' ');
  const pgCtl = path.join(binDir, 'pg_ctl');
  run(pgCtl, ['-D', data, '-o', settings, '-l', path.join(dir, 'log'), '-w', 'start']);
  return {
    port,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
