/**
 * The demo bookstore data: a few hundred rows generated deterministically from a fixed seed (no Math.random,
 * no clock), as INSERT statements with explicit ids, followed by the statements that move each generated-key
 * sequence past those ids. A few fixed rows exercise edge cases (see DEMO_EDGE_CASES).
 */
import type { EngineName } from '../../lib/resource';
import { DEMO_TABLES, type DemoTable } from './schema';
import { insertStatements, type SqlValue } from './sql-text';
import { DEMO_WORDS as W } from './words';

type Row = readonly SqlValue[];

export interface DemoTableRows {
  readonly columns: readonly string[];
  readonly rows: readonly Row[];
}

export type DemoRows = Readonly<Record<DemoTable, DemoTableRows>>;

/** Rows placed on purpose, so tests and examples can rely on them. */
export const DEMO_EDGE_CASES = {
  /** Book 1: an apostrophe, an ampersand and a comma; written by author 1. */
  trickyTitle: "Salt, Smoke & the Sailor's Daughter",
  /** Book 2 costs nothing. */
  freeBookId: 2,
  /** Author 1 has non-ASCII letters. */
  accentedAuthor: { first_name: 'Renée', last_name: 'Müller' },
  /** Author 2 has no first name (NULL). */
  mononymousAuthorId: 2,
  /** Publisher 11 has no country (NULL); publisher 12 has no books. */
  noCountryPublisherId: 11,
  childlessPublisherId: 12,
} as const;

const BOOKS = 200;
const AUTHORS = 60;
const STORES = ['BER', 'LON', 'NYC'] as const;

/** mulberry32: a tiny, well-mixed 32-bit PRNG; the same seed always gives the same sequence. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Rng {
  int(lo: number, hi: number): number;
  pick<T>(list: readonly T[]): T;
  chance(p: number): boolean;
}

function makeRng(seed: number): Rng {
  const next = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return {
    int,
    pick: <T>(list: readonly T[]): T => list[int(0, list.length - 1)] as T,
    chance: (p) => next() < p,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Integer cents as a decimal string with two digits of scale, never through a float. */
const money = (cents: number) => `${Math.floor(cents / 100)}.${pad(cents % 100)}`;

const date = (rng: Rng, fromYear: number, toYear: number) =>
  `${rng.int(fromYear, toYear)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;

/** A timestamp `seconds` after a fixed epoch, formatted as the database stores it (UTC, no zone). */
function timestamp(epochYear: number, seconds: number, millis?: number): string {
  const iso = new Date(Date.UTC(epochYear, 0, 1) + seconds * 1000 + (millis ?? 0)).toISOString();
  return iso.replace('T', ' ').slice(0, millis === undefined ? 19 : 23);
}

function isbn13(bookId: number): string {
  // 7_654_321 is coprime with 10^9, so every book id gets a different number.
  const body = `978${pad((bookId * 7_654_321 + 123_456_789) % 1_000_000_000, 9)}`;
  const sum = [...body].reduce((acc, digit, i) => acc + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

function publishers(): DemoTableRows {
  return { columns: ['publisher_id', 'name', 'country', 'founded'], rows: W.publishers.map((p, i) => [i + 1, ...p]) };
}

function authors(rng: Rng): DemoTableRows {
  const rows: Row[] = [];
  for (let id = 1; id <= AUTHORS; id++) {
    const birth = rng.chance(0.85) ? date(rng, 1921, 1996) : null;
    const { first_name, last_name } = DEMO_EDGE_CASES.accentedAuthor;
    if (id === 1) rows.push([id, first_name, last_name, '1968-04-12']);
    else if (id === DEMO_EDGE_CASES.mononymousAuthorId) rows.push([id, null, 'Sappho', null]);
    else rows.push([id, rng.pick(W.firstNames), rng.pick(W.lastNames), birth]);
  }
  return { columns: ['author_id', 'first_name', 'last_name', 'birth_date'], rows };
}

function authorBios(rng: Rng, authorRows: readonly Row[]): DemoTableRows {
  const rows: Row[] = [];
  for (const [id, first, last] of authorRows) {
    if (id !== 1 && !rng.chance(0.4)) continue;
    const name = [first, last].filter(Boolean).join(' ');
    const bio = `${name} ${rng.pick(W.bioOpeners)} ${rng.pick(W.bioClosers)}`.trim();
    // Müller → muller: drop the accents (NFD splits them off), then anything that is not a letter.
    const slug = String(last)
      .normalize('NFD')
      .toLowerCase()
      .replace(/[^a-z]/g, '');
    rows.push([id as number, bio, rng.chance(0.7) ? `https://www.${slug}${id}.example` : null]);
  }
  return { columns: ['author_id', 'bio', 'website'], rows };
}

function title(rng: Rng, seen: Set<string>): string {
  for (;;) {
    const text = rng
      .pick(W.titleTemplates)
      .replace('{adj}', rng.pick(W.adjectives))
      .replace('{noun}', rng.pick(W.nouns))
      .replace('{place}', rng.pick(W.places))
      .replace('{name}', rng.pick(W.firstNames));
    if (!seen.has(text)) {
      seen.add(text);
      return text;
    }
  }
}

function books(rng: Rng): DemoTableRows {
  const seen = new Set<string>([DEMO_EDGE_CASES.trickyTitle]);
  const rows: Row[] = [];
  for (let id = 1; id <= BOOKS; id++) {
    const name = id === 1 ? DEMO_EDGE_CASES.trickyTitle : title(rng, seen);
    const cents = id === DEMO_EDGE_CASES.freeBookId ? 0 : rng.int(4, 59) * 100 + rng.pick([99, 50, 95, 0]);
    const publisherId = id === 1 ? 1 : rng.int(1, W.publishers.length - 1);
    const published = rng.chance(0.94) || id === 1 ? date(rng, 1951, 2024) : null;
    const pages = rng.chance(0.95) ? rng.int(64, 880) : null;
    const addedAt = timestamp(2024, id * 40_000 + rng.int(0, 30_000), rng.int(0, 999));
    const inPrint = rng.chance(0.8) || id === 1;
    rows.push([id, publisherId, name, isbn13(id), money(cents), published, inPrint, pages, addedAt]);
  }
  const columns = ['book_id', 'publisher_id', 'title', 'isbn', 'price', 'published', 'in_print', 'pages', 'added_at'];
  return { columns, rows };
}

function bookDetails(rng: Rng, bookRows: readonly Row[]): DemoTableRows {
  const rows: Row[] = [];
  for (const [id, , , isbn] of bookRows) {
    if (id !== 1 && !rng.chance(0.5)) continue;
    const summary = `${rng.pick(W.summaryOpeners)} ${rng.pick(W.summaryThemes)}. ${rng.pick(W.summaryClosers)}`;
    const weight = rng.chance(0.9) ? rng.int(120, 1400) : null;
    rows.push([id as number, summary, `https://covers.example.com/${String(isbn)}.jpg`, weight]);
  }
  return { columns: ['book_id', 'summary', 'cover_url', 'weight_grams'], rows };
}

function bookAuthors(rng: Rng): DemoTableRows {
  const rows: Row[] = [];
  for (let bookId = 1; bookId <= BOOKS; bookId++) {
    const ids = new Set<number>(bookId === 1 ? [1] : []);
    const count = bookId === 1 ? 1 : rng.pick([1, 1, 1, 2, 2, 3]);
    while (ids.size < count) ids.add(rng.int(1, AUTHORS));
    [...ids].forEach((authorId, i) => {
      rows.push([bookId, authorId, i + 1]);
    });
  }
  return { columns: ['book_id', 'author_id', 'author_order'], rows };
}

/** Two different lines of a list, in random order. */
function twoLines(rng: Rng, lines: readonly string[]): string {
  const first = rng.int(0, lines.length - 1);
  const other = rng.int(0, lines.length - 2);
  return `${lines[first]} ${lines[other >= first ? other + 1 : other]}`;
}

function reviews(rng: Rng): DemoTableRows {
  const rows: Row[] = [];
  for (let bookId = 1; bookId <= BOOKS; bookId++) {
    const count = rng.pick([0, 0, 0, 1, 1, 2, 2, 3, 4]);
    for (let i = 0; i < count; i++) {
      const reviewer = rng.chance(0.5)
        ? `${rng.pick(W.firstNames)} ${rng.pick(W.lastNames).charAt(0)}.`
        : `${rng.pick(W.handles)}${rng.int(1, 99)}`;
      const reviewedAt = timestamp(2016, rng.int(0, 9 * 365 * 86_400));
      const body = rng.chance(0.85) ? twoLines(rng, W.reviewLines) : null;
      rows.push([rows.length + 1, bookId, reviewer, rng.pick([5, 5, 4, 4, 4, 3, 3, 2, 1]), reviewedAt, body]);
    }
  }
  return { columns: ['review_id', 'book_id', 'reviewer', 'rating', 'reviewed_at', 'body'], rows };
}

function reviewFlags(rng: Rng, reviewRows: readonly Row[]): DemoTableRows {
  const rows: Row[] = [];
  for (const [id] of reviewRows) {
    if (rng.chance(0.08)) rows.push([id as number, rng.chance(0.8), rng.chance(0.85) ? rng.pick(W.flagReasons) : null]);
  }
  return { columns: ['review_id', 'flagged', 'reason'], rows };
}

function inventory(rng: Rng): DemoTableRows {
  const rows: Row[] = [];
  for (const store of STORES) {
    for (let bookId = 1; bookId <= BOOKS; bookId++) {
      if (rng.chance(0.4)) rows.push([store, bookId, rng.chance(0.1) ? 0 : rng.int(1, 40)]);
    }
  }
  return { columns: ['store_code', 'book_id', 'quantity'], rows };
}

/** A price log: one to three cuts per book, by the same step each time, ending at the book's price. */
function priceChanges(rng: Rng, bookRows: readonly Row[]): DemoTableRows {
  const rows: Row[] = [];
  for (const [bookId, , , , price] of bookRows) {
    if (!rng.chance(0.3)) continue;
    const [whole, fraction] = String(price).split('.');
    const finalCents = Number(whole) * 100 + Number(fraction);
    const steps = rng.int(1, 3);
    const step = rng.int(1, 10) * 100;
    let seconds = rng.int(0, 86_400 * 200);
    for (let i = steps; i > 0; i--) {
      seconds += rng.int(86_400, 86_400 * 90);
      const from = finalCents + step * i;
      rows.push([rows.length + 1, bookId as number, timestamp(2024, seconds), money(from), money(from - step)]);
    }
  }
  return { columns: ['change_id', 'book_id', 'changed_at', 'old_price', 'new_price'], rows };
}

/** All demo rows, table by table. Always the same rows: the generator is seeded with a constant. */
export function demoRows(): DemoRows {
  const rng = makeRng(20240917);
  const author = authors(rng);
  const book = books(rng);
  const review = reviews(rng);
  // Property values are drawn in this order; a new table goes last, so the rows of the others never change.
  return {
    publisher: publishers(),
    author,
    author_bio: authorBios(rng, author.rows),
    book,
    book_detail: bookDetails(rng, book.rows),
    book_author: bookAuthors(rng),
    review,
    review_flag: reviewFlags(rng, review.rows),
    inventory: inventory(rng),
    price_change: priceChanges(rng, book.rows),
  };
}

/** Tables with a generated key, and that key's column. */
const GENERATED_KEYS = {
  publisher: 'publisher_id',
  author: 'author_id',
  book: 'book_id',
  review: 'review_id',
  price_change: 'change_id',
};

function sequenceResets(engine: EngineName, data: DemoRows): string[] {
  return Object.entries(GENERATED_KEYS).map(([table, column]) => {
    if (engine === 'postgres') {
      return `select setval(pg_get_serial_sequence('${table}', '${column}'), (select max(${column}) from ${table}))`;
    }
    const maxId = Math.max(...data[table as DemoTable].rows.map((row) => Number(row[0])));
    return `alter table ${table} auto_increment = ${maxId + 1}`;
  });
}

/** INSERT statements for every demo row (tables in dependency order), then the sequence resets. */
export function demoData(engine: EngineName): string[] {
  const data = demoRows();
  const inserts = DEMO_TABLES.flatMap((table) =>
    insertStatements(table, data[table].columns, data[table].rows, engine),
  );
  return [...inserts, ...sequenceResets(engine, data)];
}
