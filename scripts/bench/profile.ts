/**
 * `npm run bench:profile`: where the server mode's CPU time goes under load. Builds the server bundle unminified
 * (dist/serve-profile.js, so a profile names functions and modules), seeds the demo into a database of its own on
 * each server, starts the bundle under `node --cpu-prof`, drives one case of bench:http at it (autocannon, 10
 * connections), stops it, and prints the self time by group (ours, each package, node internals, GC) and the top
 * functions, in microseconds per request answered, so that two runs compare whatever their rates. The profile
 * includes the start-up (about 0.2 s) and the warm-up. `--ceiling` profiles the ceiling server of bench:http
 * (bundled the same way) under the same load instead. Asserts nothing.
 *   npm run bench:profile -- [--pg URL] [--mysql URL] [--cases R2,C1] [--seconds 10] [--warmup 2]
 *     [--connections 10] [--database rrs_bench_profile] [--top 25] [--service-root DIR] [--ceiling]
 * The URLs default to TEST_PG_URL and TEST_MYSQL_URL (at least one is needed). The profiles stay in the temporary
 * folder (the path is printed) for Chrome DevTools. The server mode runs with the environment given (LOG_LEVEL...).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { maskUrl } from '../../lib/db/mask-url';
import { seedUrl } from '../demo/seed';
import { freePort } from '../free-port';
import { urlOf } from '../scratch-database';
import { casesNamed } from './http-cases';
import { type Figures, measure } from './load';
import { option } from './option';
import { startScript } from './start-script';
import { type CpuProfile, formatSummary, summarizeProfile } from './summarize-profile';

const root = path.resolve(__dirname, '..', '..');
const ceiling = process.argv.includes('--ceiling');
const BUNDLE = ceiling ? 'dist/ceiling-profile.js' : 'dist/serve-profile.js';

function buildUnminified(serviceRoot: string): void {
  const esbuild = path.join(root, 'node_modules', '.bin', 'esbuild');
  const source = ceiling ? 'scripts/bench/ceiling-server.ts' : 'scripts/serve.ts';
  const args = [source, '--bundle', '--platform=node', '--target=node20', `--outfile=${BUNDLE}`];
  execFileSync(esbuild, [...args, '--log-level=warning'], { cwd: serviceRoot, stdio: 'inherit' });
}

async function profileCase(url: string, serviceRoot: string, name: string, seconds: number[], connections: number) {
  const [c] = casesNamed([name]);
  if (!c) throw new Error(`no case named ${name}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'rrs-profile-'));
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: url,
    DATABASE_URL_BOOKSTORE: url,
    HOST: '127.0.0.1',
    PORT: String(port),
    DEFINITIONS_DIR: path.join(serviceRoot, 'definitions'),
  };
  const args = ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250'];
  const server = await startScript(BUNDLE, env, 'listening', port, { cwd: serviceRoot, nodeArgs: args });
  let figures: Figures;
  try {
    const [warmup = 0, measured = 0] = seconds;
    figures = await measure(port, ceiling ? c.ceiling : c.service, { warmup, seconds: measured, connections });
  } finally {
    await server.stop();
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile was written in ${dir}`);
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
  const bundle = readFileSync(path.join(serviceRoot, BUNDLE), 'utf8');
  const { rps, requests } = figures;
  return { c, rps, requests, file: path.join(dir, file), summary: summarizeProfile(profile, bundle, BUNDLE) };
}

/** The servers given: [name, URL] of PostgreSQL and of MariaDB. */
function servers(): [string, string][] {
  const pg = option('--pg') ?? process.env.TEST_PG_URL;
  const my = option('--mysql') ?? process.env.TEST_MYSQL_URL;
  const given: [string, string][] = [];
  if (pg) given.push(['postgres', pg]);
  if (my) given.push(['mariadb', my]);
  if (given.length === 0) throw new Error('give --pg or --mysql (or TEST_PG_URL / TEST_MYSQL_URL)');
  return given;
}

function readOptions() {
  return {
    serviceRoot: path.resolve(option('--service-root') ?? root),
    seconds: [Number(option('--warmup') ?? 2), Number(option('--seconds') ?? 10)],
    connections: Number(option('--connections') ?? 10),
    top: Number(option('--top') ?? 25),
    names: (option('--cases') ?? 'R2,C1').split(',').filter((word) => word !== ''),
    database: option('--database') ?? 'rrs_bench_profile',
  };
}

async function main(): Promise<void> {
  const { serviceRoot, seconds, connections, top, names, database } = readOptions();
  buildUnminified(serviceRoot);
  console.log(
    `bench:profile: ${path.join(serviceRoot, BUNDLE)} (unminified), LOG_LEVEL=${process.env.LOG_LEVEL || 'INFO'}, ` +
      `${connections} connections, ${seconds[0]} s warm-up + ${seconds[1]} s, profiled throughout`,
  );
  for (const [db, url] of servers()) {
    const own = urlOf(url, database);
    await seedUrl(own);
    for (const name of names) {
      const { c, rps, requests, file, summary } = await profileCase(own, serviceRoot, name, seconds, connections);
      const what = ceiling ? 'the ceiling server' : 'the service';
      console.log(`\n${c.name}, ${what} on ${db} (${maskUrl(own)}): ${Math.round(rps)} req/s while profiled; ${file}`);
      for (const line of formatSummary(summary, top, requests)) console.log(line);
    }
  }
}

main().catch((error: unknown) => {
  console.error(`bench:profile failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
