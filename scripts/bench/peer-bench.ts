/**
 * `npm run bench:peer`: the server mode measured against a peer a Node.js team would pick instead, Platformatic DB
 * (a REST API generated from the schema, on Fastify), in one run, on the same data, both on the same Node 22 binary.
 * For each database it seeds the demo bookstore into a database of its own (rrs_bench_peer), starts the peer
 * (scripts/bench/peer: pinned, installed there on first run, started with a configuration this script writes) and
 * the service as `npm run serve` runs it (dist/serve.js, DB_PREPARE=true), both with a pool of 10 connections,
 * no authorization, JSON both ways, and checks that both answer the read cases with the same rows (values compared
 * once written one way, same-rows.ts) and the insert with the row sent. Then, per case, the two are loaded back to
 * back (which one first alternates from case to case) with the same load as bench:http (load.ts), and it prints
 * req/s, p50 and p99 of both, the ratio ours/peer, and the responses that were not 2xx (it fails when there are).
 *   npm run bench:peer -- [--pg URL] [--mysql URL] [--seconds 10] [--warmup 3] [--connections 10] [--log info|warn]
 * PostgreSQL is required (--pg or TEST_PG_URL); MariaDB/MySQL runs too when --mysql or TEST_MYSQL_URL names it.
 * --log info (the default, as each ships): the service writes its one line per request, the peer Fastify's two
 * (request received, response sent); --log warn: neither writes a line per request. Never asserted by a test.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { maskUrl } from '../../lib/db/mask-url';
import { seedUrl } from '../demo/seed';
import { freePort } from '../free-port';
import { containerNodeArgs, node22Binary } from '../node22';
import { installedPackage } from '../pinned-folder';
import { urlOf } from '../scratch-database';
import { type BenchRequest, type Figures, type LoadOptions, measure, readLoadOptions } from './load';
import { option } from './option';
import { writePeerConfig } from './peer-config';
import { type Row, rowDifferences } from './same-rows';
import { startScript } from './start-script';

interface Options extends LoadOptions {
  readonly databases: { readonly db: string; readonly url: string }[];
  readonly logLevel: 'info' | 'warn';
}

function readOptions(): Options {
  const pg = option('--pg') ?? process.env.TEST_PG_URL;
  if (!pg) throw new Error('PostgreSQL is required: --pg postgres://... or TEST_PG_URL');
  const my = option('--mysql') ?? process.env.TEST_MYSQL_URL;
  const logLevel = option('--log') ?? 'info';
  if (logLevel !== 'info' && logLevel !== 'warn') throw new Error(`--log is info or warn, not ${logLevel}`);
  return {
    databases: [{ db: 'postgres', url: pg }, ...(my ? [{ db: 'mariadb', url: my }] : [])],
    logLevel,
    ...readLoadOptions(option),
  };
}

interface Case {
  readonly name: string;
  ours(n: number): BenchRequest;
  peer(n: number): BenchRequest;
  /** Checked before the load: the rows of a read, or the row a write answered with (its name, what was sent). */
  readonly check: 'rows' | 'created';
  /** The keys the check covers: every key the load reads, or one insert. */
  readonly checked: readonly number[];
  oursRows(body: Row): Row[];
  peerRows(body: unknown): Row[];
}

// new headers for every request: autocannon writes the Content-Length of its body into the object it is given
const accept = () => ({ accept: 'application/json' });
const sendJson = () => ({ accept: 'application/json', 'content-type': 'application/json' });
const books = (body: Row) => body.books as Row[];
const run = Date.now().toString(36);
const keys = Array.from({ length: 200 }, (_, n) => n);

const cases: readonly Case[] = [
  {
    name: 'R2 one row by key',
    ours: (n) => ({ method: 'GET', path: `/res/Book/${(n % 200) + 1}`, headers: accept() }),
    peer: (n) => ({ method: 'GET', path: `/book/${(n % 200) + 1}`, headers: accept() }),
    check: 'rows',
    checked: keys,
    oursRows: books,
    peerRows: (body) => [body as Row],
  },
  {
    name: 'R1 100 rows',
    ours: () => ({ method: 'GET', path: '/res/Book?_limit=100', headers: accept() }),
    peer: () => ({ method: 'GET', path: '/book/?limit=100&orderby.bookId=asc', headers: accept() }),
    check: 'rows',
    checked: [0],
    oursRows: books,
    peerRows: (body) => body as Row[],
  },
  {
    name: 'C1 insert one row',
    ours: (n) => ({ method: 'POST', path: '/res/Publisher', headers: sendJson(), body: publishers(`o-${run}-${n}`) }),
    peer: (n) => ({
      method: 'POST',
      path: '/publisher/',
      headers: sendJson(),
      body: JSON.stringify({ name: `p-${run}-${n}` }),
    }),
    check: 'created',
    checked: [-1],
    oursRows: (body) => body.publishers as Row[],
    peerRows: (body) => [body as Row],
  },
];

function publishers(name: string): string {
  return JSON.stringify({ publishers: [{ name }] });
}

/**
 * One request on a connection of its own (an idle pooled connection may be closed by the server just as fetch reuses
 * it, and fetch does not retry a POST), answering the parsed JSON body of a 2xx response.
 */
function answer(port: number, { method, path: at, headers, body }: BenchRequest): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, method, path: at, headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        if (status < 200 || status > 299) reject(new Error(`${method} ${at} on ${port}: ${status} ${text}`));
        else resolve(JSON.parse(text));
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** The comparison is fair only when both do the same: the same rows read, the row sent inserted. */
async function checkSameAnswers(c: Case, ours: number, peer: number): Promise<void> {
  for (const n of c.checked) {
    const ourRows = c.oursRows((await answer(ours, c.ours(n))) as Row);
    const peerRows = c.peerRows(await answer(peer, c.peer(n)));
    const differences =
      c.check === 'rows'
        ? rowDifferences(ourRows, peerRows, { book_id: 'id' })
        : [
            ...(ourRows[0]?.name === `o-${run}-${n}` ? [] : [`the service inserted ${JSON.stringify(ourRows)}`]),
            ...(peerRows[0]?.name === `p-${run}-${n}` ? [] : [`the peer inserted ${JSON.stringify(peerRows)}`]),
          ];
    if (differences.length > 0) throw new Error(`${c.name} (n=${n}): not the same answers:\n${differences.join('\n')}`);
  }
}

const figures = (name: string, f: Figures) =>
  `${name} ${String(Math.round(f.rps)).padStart(6)} req/s p50 ${f.p50} ms p99 ${f.p99} ms CPU ${f.cpuPerRequest} µs/req`;

/** Each case's two loads back to back, the first of them alternating; true when every response was 2xx. */
async function benchDatabase(db: string, url: string, options: Options, versions: Versions): Promise<boolean> {
  const [oursPort, peerPort] = [await freePort(), await freePort()];
  const env = { ...process.env, DATABASE_URL: url, DATABASE_URL_BOOKSTORE: url, HOST: '127.0.0.1' };
  const ourEnv = { ...env, PORT: String(oursPort), DB_POOL_SIZE: '10', DB_PREPARE: 'true' };
  const service = await startScript(
    'dist/serve.js',
    { ...ourEnv, LOG_LEVEL: options.logLevel.toUpperCase() },
    'listening',
    oursPort,
    // as the container image runs it
    { node: versions.node, nodeArgs: containerNodeArgs },
  );
  const config = writePeerConfig({
    url,
    port: peerPort,
    poolSize: 10,
    logLevel: options.logLevel,
    version: versions.peer,
  });
  const peer = await startScript(path.join(versions.peerDir, 'peer-server.mjs'), env, 'peer listening', peerPort, {
    node: versions.node,
    args: [config],
  }).catch(async (error: unknown) => {
    await service.stop();
    throw error;
  });
  let all2xx = true;
  try {
    for (const c of cases) await checkSameAnswers(c, oursPort, peerPort);
    for (const [at, c] of cases.entries()) {
      const peerFirst = at % 2 === 0;
      const runOurs = () => measure(oursPort, c.ours, options, service.pid);
      const runPeer = () => measure(peerPort, c.peer, options, peer.pid);
      const first = peerFirst ? await runPeer() : await runOurs();
      const second = peerFirst ? await runOurs() : await runPeer();
      const [ours, theirs] = peerFirst ? [second, first] : [first, second];
      all2xx &&= ours.non2xx + ours.failed + theirs.non2xx + theirs.failed === 0;
      console.log(
        `${c.name.padEnd(18)} ${db.padEnd(8)} ${figures('ours', ours)} | ${figures('peer', theirs)} | ` +
          `ours/peer ${(ours.rps / theirs.rps).toFixed(2)} | not 2xx: ours ${ours.non2xx + ours.failed}, peer ${theirs.non2xx + theirs.failed}`,
      );
    }
  } finally {
    await peer.stop();
    await service.stop();
  }
  return all2xx;
}

interface Versions {
  readonly node: string;
  readonly peer: string;
  readonly peerDir: string;
}

/** Node 22 and the peer, installed from their pinned folders when missing. */
function installTools(): Versions {
  const node = node22Binary();
  const peerPackage = installedPackage('scripts/bench/peer', '@platformatic/db');
  const { version } = JSON.parse(readFileSync(path.join(peerPackage, 'package.json'), 'utf8')) as { version: string };
  return { node, peer: version, peerDir: path.resolve(peerPackage, '..', '..', '..') };
}

async function main(): Promise<void> {
  const options = readOptions();
  const versions = installTools();
  execFileSync('npm', ['run', '--silent', 'build:serve'], { stdio: 'inherit' });
  const nodeVersion = execFileSync(versions.node, ['--version'], { encoding: 'utf8' }).trim();
  console.log(
    `bench:peer: ${options.connections} connections, ${options.warmup} s warm-up, ${options.seconds} s measured per run; loopback; ` +
      `node ${nodeVersion} for both; the service (${containerNodeArgs.join(' ')} dist/serve.js, as the container image runs it) with LOG_LEVEL=${options.logLevel.toUpperCase()}, DB_PREPARE=true, DB_POOL_SIZE=10; ` +
      `Platformatic DB ${versions.peer} with its logger at ${options.logLevel}, poolSize 10`,
  );
  let all2xx = true;
  for (const { db, url } of options.databases) {
    const own = urlOf(url, 'rrs_bench_peer');
    await seedUrl(own);
    console.log(`${db}: the demo seeded into ${maskUrl(own)}`);
    all2xx = (await benchDatabase(db, own, options, versions)) && all2xx;
  }
  if (!all2xx) throw new Error('some responses were not 2xx (see "not 2xx" above): the figures do not compare');
}

main().catch((error: unknown) => {
  console.error(`bench:peer failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
