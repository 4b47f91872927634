/**
 * `npm run bench:xml`: what big request bodies cost, in figures; never asserted by a test.
 * 1. Reading, in process, bodies of about 1 MB and 4.7 MB (MAX_BODY_BYTES is 5 MiB): flat rows of seven attributes
 *    (books), flat rows of ten short attributes, and hierarchical rows (books holding three reviews each). For each:
 *    readXmlBody (the saxes reader, which the service uses), the checked reader alone (fast-xml-parser: how every
 *    XML body was read before), and the same rows as JSON (readJsonBody); ms per MB, best and median of the runs;
 *    and, read by readXmlBodyInSlices as the pipeline reads it, the longest time the event loop was held (slices
 *    and garbage collection). Then 4.7 MB bodies the saxes reader declines: malformed at the end (in lines, and on
 *    one line), which the checked reader reads but for the rows read already; and one whose first comment ends in
 *    `--->`, which only the checked reader would read, in one piece, and so is refused in a body this big; and one
 *    with `--` in a comment at the start, which the saxes reader reads.
 * 2. The server mode (scripts/serve.ts) on the demo bookstore in PostgreSQL or MariaDB: a one-row read (GET
 *    /res/Book/1) every 20 ms, alone and then while five 4.7 MB bodies are POSTed at once to /res/Book: bodies
 *    whose 31,000 rows each are inserted, bodies refused once read (an unknown element or key at the end),
 *    bodies malformed at the end, in XML and in JSON; and XML bodies that only the checked reader would read (a
 *    comment ending in `--->` at the start), refused as soon as that is seen. JSON bodies are read in slices too.
 *    Prints the read's latency (p50, p99, max) and the writes'.
 *   npm run bench:xml -- [--pg URL | --mysql URL] [--runs 5] [--only parse|server] [--service-root DIR]
 * The URL defaults to TEST_PG_URL, else TEST_MYSQL_URL; the demo is seeded into a database of its own
 * (rrs_bench_xml) on that server. --service-root runs the server mode of another checkout (its node_modules
 * installed), to measure the service before a change with the same load. The service logs at LOG_LEVEL=WARN and
 * has DB_POOL_SIZE=10, so that the read never waits for a connection the five writes hold.
 */
import path from 'node:path';
import { maskUrl } from '../../lib/db/mask-url';
import { readJsonBody } from '../../lib/request/read-json-body';
import { readXmlBody, readXmlBodyInSlices } from '../../lib/request/read-xml-body';
import { readXmlChecked } from '../../lib/request/read-xml-checked';
import { seedUrl } from '../demo/seed';
import { option } from './option';
import { latencyFigures, readWhile, startServerMode } from './server-mode';

const root = path.resolve(__dirname, '..', '..');
const MB = 1024 * 1024;
const BIG = 4.7 * MB;

// Bodies -----------------------------------------------------------------------------------------------------------

type Row = Record<string, string>;

interface Shape {
  readonly name: string;
  /** The row element (XML) and collection key (JSON). */
  readonly element: string;
  readonly collection: string;
  row(i: number, run: number): Row;
  /** Child rows of a hierarchical row. */
  readonly children?: { readonly element: string; readonly collection: string; rows(i: number): Row[] };
}

const isbn = (run: number, i: number) => String(9_700_000_000_000 + run * 1_000_000 + i);

const book: Shape = {
  name: 'flat, 7 attributes',
  element: 'book',
  collection: 'books',
  row: (i, run) => ({
    title: `A book & its title, number ${i}`,
    isbn: isbn(run, i),
    price: ((i % 9000) / 100 + 1).toFixed(2),
    publisher_id: String(1 + (i % 10)),
    published: `2020-01-${String(1 + (i % 28)).padStart(2, '0')}`,
    in_print: i % 3 === 0 ? 'false' : 'true',
    pages: String(100 + (i % 900)),
  }),
};

const short: Shape = {
  name: 'flat, 10 short attributes',
  element: 'item',
  collection: 'items',
  row: (i) => ({ a: String(i), b: 'x', c: '1', d: '2', e: 'y', f: '3', g: 'z', h: '4', j: '5', k: '6' }),
};

const reviews: Shape = {
  name: 'hierarchical, 1+3 rows',
  element: 'book',
  collection: 'books',
  row: (i) => ({ book_id: String(i), title: `Book ${i}` }),
  children: {
    element: 'review',
    collection: 'reviews',
    rows: (i) =>
      [1, 2, 3].map((n) => ({
        reviewer: `reader ${n}`,
        rating: String(1 + ((i + n) % 5)),
        reviewed_at: '2024-05-01T10:00:00Z',
        body: `Review ${n} of book ${i}: <fine> & "quoted"`,
      })),
  },
};

const escapeXml = (value: string) =>
  value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
const attributes = (row: Row) =>
  Object.entries(row)
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('');

function xmlRow(shape: Shape, i: number, run: number): string {
  const start = `<${shape.element}${attributes(shape.row(i, run))}`;
  if (!shape.children) return `  ${start}/>\n`;
  const { element, rows } = shape.children;
  return `  ${start}>${rows(i)
    .map((row) => `<${element}${attributes(row)}/>`)
    .join('')}</${shape.element}>\n`;
}

function jsonRow(shape: Shape, i: number, run: number): string {
  const row = shape.row(i, run);
  const children = shape.children ? { [shape.children.collection]: shape.children.rows(i) } : {};
  return JSON.stringify({ ...row, ...children });
}

/** The rows of `shape` as XML and as JSON, as many as make `bytes` of XML; `tail` ends the XML's rows. */
function bodies(shape: Shape, bytes: number, run = 0, tail = '') {
  const xml: string[] = [];
  const json: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const row = xmlRow(shape, i, run);
    xml.push(row);
    json.push(jsonRow(shape, i, run));
    size += Buffer.byteLength(row);
  }
  return {
    rows: xml.length,
    xml: `<?xml version="1.0" encoding="UTF-8"?>\n<request>\n${xml.join('')}${tail}</request>\n`,
    json: `{"${shape.collection}":[\n${json.join(',\n')}\n]}`,
  };
}

// 1. Reading, in process -------------------------------------------------------------------------------------------

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function timed(runs: number, work: () => unknown): number[] {
  work(); // warm-up
  return Array.from({ length: runs }, () => {
    const started = performance.now();
    work();
    return performance.now() - started;
  });
}

function perMb(times: readonly number[], text: string): string {
  const mb = Buffer.byteLength(text) / MB;
  return `${(Math.min(...times) / mb).toFixed(0).padStart(4)} / ${(median(times) / mb).toFixed(0).padStart(4)}`;
}

/** readXmlBodyInSlices's time, and the longest time the event loop was held while it read (or refused) a body. */
async function sliced(text: string): Promise<{ ms: number; longestHold: number }> {
  let last = performance.now();
  let longestHold = 0;
  let reading = true;
  const tick = () => {
    const now = performance.now();
    longestHold = Math.max(longestHold, now - last);
    last = now;
    if (reading) setImmediate(tick);
  };
  setImmediate(tick);
  const started = performance.now();
  await readXmlBodyInSlices(text).catch(() => undefined);
  const ended = performance.now();
  reading = false;
  // the stretch since the last turn of the loop, up to the end of the reading
  return { ms: ended - started, longestHold: Math.max(longestHold, ended - last) };
}

async function readingFigures(runs: number): Promise<void> {
  console.log(`Reading bodies in process: ms per MB, best / median of ${runs} runs (after a warm-up)`);
  console.log(
    `${'body'.padEnd(27)} ${'size'.padStart(7)} ${'rows'.padStart(6)} | ${'XML now'.padStart(11)} | ${'XML before'.padStart(11)} | ${'JSON'.padStart(11)} | sliced: ms, longest hold`,
  );
  for (const shape of [book, short, reviews]) {
    for (const bytes of [MB, BIG]) {
      const { rows, xml, json } = bodies(shape, bytes);
      const now = timed(runs, () => readXmlBody(xml));
      const before = timed(runs, () => readXmlChecked(xml));
      const asJson = timed(runs, () => readJsonBody(json));
      const slices = [];
      for (let i = 0; i < runs; i++) slices.push(await sliced(xml));
      console.log(
        `${shape.name.padEnd(27)} ${`${(Buffer.byteLength(xml) / MB).toFixed(1)} MB`.padStart(7)} ${String(rows).padStart(6)} | ` +
          `${perMb(now, xml)} | ${perMb(before, xml)} | ${perMb(asJson, json)} | ` +
          `${median(slices.map((s) => s.ms)).toFixed(0)} ms, ${median(slices.map((s) => s.longestHold)).toFixed(1)} ms (max ${Math.max(...slices.map((s) => s.longestHold)).toFixed(1)})`,
      );
    }
  }
  for (const [name, text] of [
    ['malformed at the end', bodies(book, BIG, 0, '  <book title="unclosed">\n').xml],
    ['the same on one line', bodies(book, BIG, 0, '  <book title="unclosed">\n').xml.replaceAll('\n', ' ')],
    ['a comment ending in --->', bodies(book, BIG, 0).xml.replace('<request>', '<request><!-- a --->')],
    ['-- in a comment', bodies(book, BIG, 0).xml.replace('<request>', '<request><!-- a -- b -->')],
  ] as const) {
    const now = timed(runs, () => readOutcome(() => readXmlBody(text)));
    const before = timed(runs, () => readOutcome(() => readXmlChecked(text)));
    const slices = [];
    for (let i = 0; i < runs; i++) slices.push(await sliced(text));
    console.log(
      `${name.padEnd(29)}4.7 MB: ${median(now).toFixed(0)} ms (before: ${median(before).toFixed(0)} ms), ` +
        `sliced: longest hold ${median(slices.map((s) => s.longestHold)).toFixed(0)} ms; ${readOutcome(() => readXmlBody(text))}`,
    );
  }
}

function readOutcome(read: () => unknown): string {
  try {
    read();
    return 'read';
  } catch (error) {
    return error instanceof Error ? error.message.slice(0, 50) : String(error);
  }
}

// 2. The server mode -----------------------------------------------------------------------------------------------

interface Load {
  readonly name: string;
  readonly type: 'xml' | 'json';
  body(run: number): string;
}

const loads: readonly Load[] = [
  { name: 'XML, rows inserted', type: 'xml', body: (run) => bodies(book, BIG, run).xml },
  { name: 'XML, refused once read', type: 'xml', body: (run) => bodies(book, BIG, run, '  <nope/>\n').xml },
  {
    name: 'XML, malformed at the end',
    type: 'xml',
    body: (run) => bodies(book, BIG, run, '  <book title="unclosed">\n').xml,
  },
  {
    name: 'XML, `--->` ending a comment',
    type: 'xml',
    body: (run) => bodies(book, BIG, run).xml.replace('<request>', '<request><!-- a --->'),
  },
  { name: 'JSON, rows inserted', type: 'json', body: (run) => bodies(book, BIG, run).json },
  {
    name: 'JSON, refused once read',
    type: 'json',
    body: (run) => `${bodies(book, BIG, run).json.slice(0, -1)},"nope":1}`,
  },
];

async function serverFigures(url: string, serviceRoot: string): Promise<void> {
  const own = new URL(url);
  own.pathname = '/rrs_bench_xml';
  await seedUrl(own.toString());
  const server = await startServerMode(serviceRoot, {
    DATABASE_URL: own.toString(),
    DATABASE_URL_BOOKSTORE: own.toString(),
    DEFINITIONS_DIR: path.join(serviceRoot, 'definitions'),
  });
  const base = `http://127.0.0.1:${server.port}`;
  console.log(
    `\nThe server mode of ${serviceRoot} on ${maskUrl(own.toString())}: GET /res/Book/1 every 20 ms, while five 4.7 MB bodies are POSTed at once`,
  );
  try {
    await readWhile(base, '/res/Book/1', new Promise((resolve) => setTimeout(resolve, 1000))); // warm-up
    const alone = await readWhile(base, '/res/Book/1', new Promise((resolve) => setTimeout(resolve, 3000)));
    console.log(`${'no writes'.padEnd(27)} ${latencyFigures(alone)}`);
    for (const [index, load] of loads.entries()) {
      const texts = [0, 1, 2, 3, 4].map((n) => load.body(1 + index * 5 + n));
      const started = performance.now();
      const writes = Promise.all(
        texts.map(async (body) => {
          const response = await fetch(`${base}/res/Book`, {
            method: 'POST',
            headers: { 'content-type': `application/${load.type}`, accept: 'application/json' },
            body,
          });
          await response.text();
          return { status: response.status, ms: performance.now() - started };
        }),
      );
      const latencies = await readWhile(base, '/res/Book/1', writes);
      const answers = await writes;
      console.log(
        `${load.name.padEnd(27)} ${latencyFigures(latencies)} | writes: ${answers.map((a) => a.status).join(' ')}, the last done after ${Math.max(...answers.map((a) => a.ms)).toFixed(0)} ms`,
      );
    }
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const runs = Number(option('--runs') ?? 5);
  const only = option('--only');
  const serviceRoot = path.resolve(option('--service-root') ?? root);
  const url = option('--pg') ?? option('--mysql') ?? process.env.TEST_PG_URL ?? process.env.TEST_MYSQL_URL;
  if (only !== 'server') await readingFigures(runs);
  if (only === 'parse') return;
  if (!url) throw new Error('the server part needs a database: --pg URL, --mysql URL, TEST_PG_URL or TEST_MYSQL_URL');
  await serverFigures(url, serviceRoot);
}

main().catch((error: unknown) => {
  console.error(`bench:xml failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
