/**
 * The ceiling for `npm run bench:http`: what a bare node:http server with the database driver and a hand-written
 * XML serializer reaches for the benchmark's four fixed requests, on the demo bookstore (PostgreSQL through
 * postgres.js, MySQL/MariaDB through mysql2, a pool of DB_POOL_SIZE, default 5, as the server mode's). No
 * definitions, routing table, parsing, planning, validation, negotiation, transaction or logging: the figure the
 * service's overhead is measured against. Its answers are the service's, byte for byte, with the same headers.
 * Never a product; run by scripts/bench/http-bench.ts:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bookstore PORT=3100 tsx scripts/bench/ceiling-server.ts
 *   GET /r2/{id}  R2: one book by key         GET /r1h  R1: BookReviews' first 100 rows, nested
 *   GET /r1       R1: the first 100 books     POST /c1  C1: a publisher from a form body (name=...)
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import mysql from 'mysql2/promise';
import postgres from 'postgres';

type Row = Record<string, unknown>;

interface Queries {
  book(id: number): Promise<Row[]>;
  books(): Promise<Row[]>;
  bookReviews(): Promise<Row[]>;
  insertPublisher(name: string): Promise<Row>;
  end(): Promise<void>;
}

const BOOK = `book_id as id, publisher_id, title, isbn, price, round(price * 100) as price_cents,
  published, in_print, pages, added_at`;
const BOOK_REVIEWS = `book.book_id, book.title, review.review_id, review.reviewer, review.rating, review.reviewed_at,
  review.body, review_flag.flagged, review_flag.reason
  from book left join review on review.book_id = book.book_id
  left join review_flag on review_flag.review_id = review.review_id
  order by book.book_id, review.review_id limit 100`;

function postgresQueries(url: string, max: number): Queries {
  // dates and timestamps as PostgreSQL prints them: no Date objects to format back
  const sql = postgres(url, { max, prepare: true, onnotice: () => {}, types: { date: dateText() } });
  return {
    book: (id) => sql.unsafe(`select ${BOOK} from book where book_id = $1`, [id], { prepare: true }),
    books: () => sql.unsafe(`select ${BOOK} from book order by book_id limit 100`, [], { prepare: true }),
    bookReviews: () => sql.unsafe(`select ${BOOK_REVIEWS}`, [], { prepare: true }),
    insertPublisher: async (name) =>
      (await sql`insert into publisher (name) values (${name}) returning publisher_id as id, name`)[0] as Row,
    end: () => sql.end({ timeout: 1 }),
  };
}

/** postgres.js's custom type for date, timestamp and timestamptz that keeps the text. */
function dateText() {
  return { to: 1082, from: [1082, 1114, 1184], serialize: (x: string) => x, parse: (x: string) => x };
}

function mysqlQueries(url: string, max: number): Queries {
  const pool = mysql.createPool({ uri: url, connectionLimit: max, dateStrings: true, decimalNumbers: false });
  const rows = async (text: string, params: unknown[] = []) => (await pool.query(text, params))[0] as Row[];
  return {
    book: (id) => rows(`select ${BOOK} from book where book_id = ?`, [id]),
    books: () => rows(`select ${BOOK} from book order by book_id limit 100`),
    bookReviews: () => rows(`select ${BOOK_REVIEWS}`),
    insertPublisher: async (name) => {
      const [result] = await pool.query('insert into publisher (name) values (?)', [name]);
      return { id: (result as { insertId: number }).insertId, name };
    },
    end: () => pool.end(),
  };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const special = /[&<>"']/;
/** Most values need no escaping, and one test says so (as the service's writer does). */
const escapeXml = (text: string) => (special.test(text) ? text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string) : text);

/** ` name="value"` for each column with a value; booleans (MySQL's 0/1 in the named columns) as true/false. */
function attributes(row: Row, columns: readonly string[], booleans: readonly string[] = []): string {
  let out = '';
  for (const column of columns) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    const text = booleans.includes(column) ? String(value === true || value === 1) : String(value);
    out += ` ${column}="${escapeXml(text)}"`;
  }
  return out;
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>';
const BOOK_COLUMNS = [
  'id',
  'publisher_id',
  'title',
  'isbn',
  'price',
  'price_cents',
  'published',
  'in_print',
  'pages',
  'added_at',
];
const REVIEW_COLUMNS = ['review_id', 'reviewer', 'rating', 'reviewed_at', 'body', 'flagged', 'reason'];

function serializeBooks(rows: Row[]): string {
  let out = `${HEAD}<readResponse>`;
  for (const row of rows) out += `<book${attributes(row, BOOK_COLUMNS, ['in_print'])}/>`;
  return `${out}</readResponse>`;
}

/** Rows ordered by book: one <book> per book_id holding its <review>s; a book without reviews is `<book .../>`. */
function serializeBookReviews(rows: Row[]): string {
  let out = `${HEAD}<readResponse>`;
  let open: unknown;
  let children = 0;
  const close = () => {
    if (open !== undefined) out += children > 0 ? '</book>' : '/>';
  };
  for (const row of rows) {
    if (row.book_id !== open) {
      close();
      open = row.book_id;
      children = 0;
      out += `<book${attributes(row, ['book_id', 'title'])}`;
    }
    if (row.review_id !== null) {
      out += `${children++ === 0 ? '>' : ''}<review${attributes(row, REVIEW_COLUMNS, ['flagged'])}/>`;
    }
  }
  close();
  return `${out}</readResponse>`;
}

/** The service's headers too: its Cache-Control (reads: the demo's default; writes: no-store) and a request id. */
function send(response: ServerResponse, status: number, body: string, cacheControl: string): void {
  response.writeHead(status, {
    'Content-Type': 'application/xml',
    'Cache-Control': cacheControl,
    'X-Request-Id': randomUUID(),
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(body);
}

function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => resolve(new URLSearchParams(body)));
    request.on('error', reject);
  });
}

async function answer(request: IncomingMessage, queries: Queries): Promise<[number, string]> {
  const url = request.url ?? '/';
  const byKey = /^\/r2\/(\d+)$/.exec(url);
  if (request.method === 'GET' && byKey) return [200, serializeBooks(await queries.book(Number(byKey[1])))];
  if (request.method === 'GET' && url === '/r1') return [200, serializeBooks(await queries.books())];
  if (request.method === 'GET' && url === '/r1h') return [200, serializeBookReviews(await queries.bookReviews())];
  if (request.method === 'POST' && url === '/c1') {
    const row = await queries.insertPublisher((await readForm(request)).get('name') ?? '');
    return [
      200,
      `${HEAD}<writeResponse rowsAffected="1"><publisher${attributes(row, ['id', 'name'])}/></writeResponse>`,
    ];
  }
  return [404, `${HEAD}<error/>`];
}

function main(): void {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL must name the demo bookstore');
  const max = Number(process.env.DB_POOL_SIZE || 5);
  const queries = /^mysql:/i.test(url) ? mysqlQueries(url, max) : postgresQueries(url, max);
  const server = createServer({ keepAlive: true }, (request, response) => {
    const cacheControl = request.method === 'GET' ? 'no-cache, no-transform' : 'no-store';
    answer(request, queries).then(
      ([status, body]) => send(response, status, body, cacheControl),
      (error: unknown) => send(response, 500, `${HEAD}<error>${escapeXml(String(error))}</error>`, 'no-store'),
    );
  });
  server.keepAliveTimeout = 65_000;
  const port = Number(process.env.PORT || 3100);
  server.listen(port, process.env.HOST || '127.0.0.1', () =>
    console.log(`ceiling listening on ${port} (pid ${process.pid})`),
  );
  const stop = () => server.close(() => void queries.end().then(() => process.exit(0)));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main();
