/**
 * `npm run bench:serve`: the server mode as production runs it (`npm run serve`: the esbuild bundle dist/serve.js on
 * node) beside the development mode (`npm run serve:dev`: scripts/serve.ts through tsx), on the same seeded demo:
 * how long each takes from spawn to listening (the median of STARTS starts), its resident memory at idle once
 * started (the sum over its process group: tsx runs the script in a child node), and under a bounded load of one-row
 * reads (bench:http's load: autocannon, 10 connections, a warm-up then the measured seconds): requests/s and the most memory seen.
 * Prints figures; never asserted by a test.
 *   npm run bench:serve -- [--pg URL] [--seconds 10] [--warmup 3] [--connections 10] [--starts 5]
 * The URL defaults to TEST_PG_URL (the demo is seeded into rrs_bench_serve there); without one, the embedded demo.
 */
import { execFileSync } from 'node:child_process';
import { maskUrl } from '../../lib/db/mask-url';
import { seedUrl } from '../demo/seed';
import { freePort } from '../free-port';
import { startEmbeddedDatabase } from '../start';
import { measure, readLoadOptions } from './load';
import { option } from './option';
import { groupMembers, rssKb, whileSampling } from './process-usage';
import { type Running, startScript } from './start-script';

const options = readLoadOptions(option);
const starts = Number(option('--starts') ?? 5);

const modes = [
  { name: 'npm run serve (dist/serve.js, node)', script: 'dist/serve.js' },
  { name: 'npm run serve:dev (tsx)', script: 'scripts/serve.ts' },
] as const;

const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function start(script: string, url: string): Promise<{ running: Running; ms: number }> {
  const port = await freePort();
  const env = { ...process.env, DATABASE_URL: url, DATABASE_URL_BOOKSTORE: url, HOST: '127.0.0.1', PORT: String(port) };
  const began = performance.now();
  const running = await startScript(script, { LOG_LEVEL: 'INFO', DB_POOL_SIZE: '10', ...env }, 'listening', port);
  return { running, ms: performance.now() - began };
}

/** One-row reads by key under bench:http's load; any answer but 2xx fails the run. */
async function reads(port: number): Promise<number> {
  const figures = await measure(port, (n) => ({ method: 'GET', path: `/res/Book/${(n % 200) + 1}` }), options);
  if (figures.non2xx > 0 || figures.failed > 0)
    throw new Error(`${figures.non2xx} answers not 2xx, ${figures.failed} requests without an answer`);
  return figures.rps;
}

async function measureMode(mode: (typeof modes)[number], url: string): Promise<string> {
  const times: number[] = [];
  for (let i = 1; i < starts; i++) {
    const { running, ms } = await start(mode.script, url);
    times.push(ms);
    await running.stop();
  }
  const { running, ms } = await start(mode.script, url);
  times.push(ms);
  try {
    // idle: started, one request served (the definitions and the catalog read), then a second to settle
    await fetch(`http://127.0.0.1:${running.port}/res/Book/1`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = rssKb(groupMembers(running.pid));
    const { result: rps, rss } = await whileSampling(running.pid, () => reads(running.port));
    return (
      `${mode.name.padEnd(36)} listening after ${median(times).toFixed(0)} ms (median of ${times.length}; ` +
      `min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}); memory at idle ${mib(idle)}; ` +
      `R2 under load ${rps.toFixed(0)} req/s, memory at most ${mib(rss.peak)}`
    );
  } finally {
    await running.stop();
  }
}

async function main(): Promise<void> {
  execFileSync('npm', ['run', '--silent', 'build:serve'], { stdio: 'inherit' });
  const pg = option('--pg') ?? process.env.TEST_PG_URL;
  const embedded = pg ? undefined : await startEmbeddedDatabase();
  try {
    let url = embedded?.env.DATABASE_URL as string;
    if (pg) {
      const own = new URL(pg);
      own.pathname = '/rrs_bench_serve';
      url = own.toString();
      await seedUrl(url);
    }
    console.log(
      `bench:serve: ${starts} starts each; R2 by ${options.connections} connections, ${options.warmup} s warm-up, ${options.seconds} s measured (memory at most: over both); LOG_LEVEL=INFO, DB_POOL_SIZE=10; database ${maskUrl(url)}`,
    );
    for (const mode of modes) console.log(await measureMode(mode, url));
  } finally {
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`bench:serve failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
