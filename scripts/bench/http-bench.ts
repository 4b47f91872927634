/**
 * `npm run bench:http`: the server mode measured against its ceiling, over loopback HTTP. For each database it
 * seeds the demo bookstore into a database of its own (rrs_bench_http), starts the ceiling server
 * (scripts/bench/ceiling-server.ts: node:http + driver + hand-written XML for fixed queries) and the server mode
 * as `npm run serve` runs it (the bundle of scripts/serve.ts that `npm run build:serve` builds) on it, and drives both with the same bounded load (autocannon: CONNECTIONS connections, a
 * warm-up, then the measured seconds) for R2 by key, R1 with 100 flat rows, R1 with 100 nested rows and C1.
 * Before each read is measured, both answer it once and must answer the same (status, Content-Type, body bytes).
 * Prints req/s, p50 and p99 of both, the CPU time each server spent per request (its whole process group, from /proc:
 * this figure moves little with the machine's load, where req/s moves a lot), and the ratio of req/s; never asserted
 * by a test.
 *   npm run bench:http -- [--pg URL] [--mysql URL] [--seconds 10] [--warmup 3] [--connections 10] [--json [file]]
 *     [--database rrs_bench_http] [--cases R2,C1] [--service-root DIR]
 * The URLs default to TEST_PG_URL and TEST_MYSQL_URL; without either it uses the embedded PGlite demo. The
 * server mode runs with the environment given (LOG_LEVEL=WARN drops its per-request log line, say).
 * `--database` names the database seeded on each server, `--cases` keeps the cases whose names start with one of
 * the words, and `--service-root` measures the server mode of another checkout (built there, run from there, with
 * its own definitions): run it with and without, one after the other, for a before/after in one session.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { maskUrl } from '../../lib/db/mask-url';
import { seedUrl } from '../demo/seed';
import { freePort } from '../free-port';
import { urlOf } from '../scratch-database';
import { startEmbeddedDatabase } from '../start';
import { type Case, casesNamed } from './http-cases';
import { type Figures, type LoadOptions, measure, type BenchRequest as Request, readLoadOptions } from './load';
import { benchDatabases } from './option';
import { type Running, startScript } from './start-script';

interface Options extends LoadOptions {
  readonly databases: { readonly db: string; readonly url?: string }[];
  readonly json?: string;
  readonly database: string;
  /** Prefixes of the case names to run (all when empty). */
  readonly cases: readonly string[];
  /** The checkout whose server mode is measured. */
  readonly serviceRoot: string;
}

function readOptions(argv: readonly string[]): Options {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at < 0 ? undefined : argv[at + 1];
  };
  const at = argv.indexOf('--json');
  const next = argv[at + 1];
  return {
    databases: benchDatabases(value),
    ...readLoadOptions(value),
    ...(at < 0 ? {} : { json: next && !next.startsWith('--') ? next : '-' }),
    database: value('--database') ?? 'rrs_bench_http',
    cases: (value('--cases') ?? '').split(',').filter((word) => word !== ''),
    serviceRoot: path.resolve(value('--service-root') ?? path.join(__dirname, '..', '..')),
  };
}

/** The ceiling must not do less than the service: for a read, the same body and Content-Type. */
async function checkSameAnswer(c: Case, service: number, ceiling: number): Promise<void> {
  const get = async (port: number, request: Request) => {
    const response = await fetch(`http://127.0.0.1:${port}${request.path}`);
    return `${response.status} ${response.headers.get('content-type')}\n${await response.text()}`;
  };
  const [ours, top] = [await get(service, c.service(0)), await get(ceiling, c.ceiling(0))];
  if (ours !== top) throw new Error(`${c.name}: the ceiling's answer differs from the service's:\n${top}\n${ours}`);
}

/** The ceiling's load and the service's must answer 2xx, every request. */
async function measureAll2xx(server: Running, request: (n: number) => Request, options: Options): Promise<Figures> {
  const figures = await measure(server.port, request, options, server.pid);
  if (figures.non2xx > 0 || figures.failed > 0)
    throw new Error(`port ${server.port}: ${figures.non2xx} non-2xx, ${figures.failed} errors or timeouts`);
  return figures;
}

interface Row {
  readonly name: string;
  readonly db: string;
  readonly service_rps: number;
  readonly ceiling_rps: number;
  readonly ratio: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly ceiling_p50_ms: number;
  readonly ceiling_p99_ms: number;
  readonly cpu_us: number;
  readonly ceiling_cpu_us: number;
}

async function benchDatabase(db: string, url: string, options: Options, print: (line: string) => void) {
  const env = { ...process.env, DATABASE_URL: url, DATABASE_URL_BOOKSTORE: url, HOST: '127.0.0.1' };
  const [top, ours] = [await freePort(), await freePort()];
  const ceiling = await startScript('scripts/bench/ceiling-server.ts', { ...env, PORT: String(top) }, 'listening', top);
  const serviceEnv = { ...env, PORT: String(ours), DEFINITIONS_DIR: path.join(options.serviceRoot, 'definitions') };
  const service = await startScript('dist/serve.js', serviceEnv, 'listening', ours, { cwd: options.serviceRoot });
  const rows: Row[] = [];
  try {
    for (const c of casesNamed(options.cases)) {
      if (c.read) await checkSameAnswer(c, service.port, ceiling.port);
      // the ceiling first, then the service, on the same data: each case's two runs are back to back
      const top = await measureAll2xx(ceiling, c.ceiling, options);
      const ours = await measureAll2xx(service, c.service, options);
      const row = {
        name: c.name,
        db,
        service_rps: Math.round(ours.rps),
        ceiling_rps: Math.round(top.rps),
        ratio: Number((ours.rps / top.rps).toFixed(3)),
        p50_ms: ours.p50,
        p99_ms: ours.p99,
        ceiling_p50_ms: top.p50,
        ceiling_p99_ms: top.p99,
        cpu_us: ours.cpuPerRequest ?? 0,
        ceiling_cpu_us: top.cpuPerRequest ?? 0,
      };
      rows.push(row);
      print(
        `${c.name.padEnd(26)} ${db.padEnd(8)} service ${String(row.service_rps).padStart(6)} req/s p50 ${ours.p50} ms p99 ${ours.p99} ms CPU ${row.cpu_us} µs | ` +
          `ceiling ${String(row.ceiling_rps).padStart(6)} req/s p50 ${top.p50} ms p99 ${top.p99} ms CPU ${row.ceiling_cpu_us} µs | ratio ${row.ratio.toFixed(2)}`,
      );
    }
  } finally {
    await service.stop();
    await ceiling.stop();
  }
  return rows;
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  // the service as `npm run serve` runs it: compiled, not through tsx
  execFileSync('npm', ['run', '--silent', 'build:serve'], { stdio: 'inherit', cwd: options.serviceRoot });
  // with the JSON on stdout, the table goes to stderr
  const print = (line: string) => (options.json === '-' ? console.error(line) : console.log(line));
  print(
    `bench:http: ${options.connections} connections, ${options.warmup} s warm-up, ${options.seconds} s measured per run; loopback; ` +
      `the service (${path.relative(process.cwd(), path.join(options.serviceRoot, 'dist/serve.js')) || 'dist/serve.js'}) with LOG_LEVEL=${process.env.LOG_LEVEL || 'INFO'}, DB_PREPARE=${process.env.DB_PREPARE || 'true'}`,
  );
  const rows: Row[] = [];
  for (const { db, url } of options.databases) {
    if (url) {
      const own = urlOf(url, options.database);
      await seedUrl(own);
      print(`${db}: the demo seeded into ${maskUrl(own)}`);
      rows.push(...(await benchDatabase(db, own, options, print)));
    } else {
      const embedded = await startEmbeddedDatabase();
      const own = embedded.env.DATABASE_URL as string;
      try {
        rows.push(...(await benchDatabase(db, own, options, print)));
      } finally {
        await embedded.stop();
      }
    }
  }
  const json = `${JSON.stringify({ cases: rows }, null, 2)}\n`;
  if (options.json === '-') process.stdout.write(json);
  else if (options.json) writeFileSync(options.json, json);
}

main().catch((error: unknown) => {
  console.error(`bench:http failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
