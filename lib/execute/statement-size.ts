/**
 * How many keys or rows one statement carries: few enough that every statement stays below RDS Proxy's 16 KB
 * of text (a longer one pins the client's session) and the drivers' parameter limits. Keys go by count; the rows
 * of a multi-row INSERT or UPDATE go by the statement itself: compiled, its text measured as the driver sends it
 * (the engine's SQL shape says how), and compiled again with fewer rows when it is too long. Pure.
 */
import { nextTurn } from '../map-in-slices';
import type { CompiledQuery } from '../sql/compiled-query';
import type { Match } from '../sql/match';
import type { SqlShape } from '../sql-shape';
import type { Value } from '../values';

/** Keys per statement. */
export const keysPerStatement = 500;

export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += keysPerStatement) out.push(items.slice(i, i + keysPerStatement));
  return out;
}

/** Parameters per statement when rows are found by value. */
const valueParams = 400;

/** By-value matches of `rows` on `columns`, a statement's worth each. */
export function valueMatches(columns: readonly string[], rows: readonly Value[][]): Match[] {
  const size = Math.max(1, Math.floor(valueParams / columns.length));
  const out: Match[] = [];
  for (let i = 0; i < rows.length; i += size) out.push({ columns, keys: rows.slice(i, i + size), byValue: true });
  return out;
}

/** Bytes of text of one statement as sent: below RDS Proxy's 16 KB (16,384 bytes), with a margin. */
const statementBytes = 16_000;
/** Bind parameters of one statement: PostgreSQL's protocol counts them in 16 bits. */
const maxParams = 65_535;
/** Items the first statement is tried with; later ones start from the bytes per item of the one before. */
const firstTry = 64;
/** A statement this much under the limits is compiled again with more items, once. */
const roomToGrow = 1.25;
/** A new item count aims this far under the limits: a statement's head makes its items look bigger than they are. */
const aim = 0.97;

/** A run of consecutive items and the one statement that carries them. */
export interface Fitted<T> {
  readonly items: readonly T[];
  readonly statement: CompiledQuery;
}

/**
 * How many times over the statement would still fit: below 1 when it is too long. `bounded`: a bound on its size will
 * do when it fits (the run is the last, so nothing is scaled by the answer), which spares writing the statement out.
 */
function room(shape: SqlShape, statement: CompiledQuery, bounded: boolean): number {
  const params = maxParams / Math.max(1, statement.params.length);
  const most = bounded ? bytesAtMost(statement) : Number.POSITIVE_INFINITY;
  return Math.min(statementBytes / (most <= statementBytes ? most : shape.sentBytes(statement)), params);
}

/**
 * At least as many bytes as any driver sends for `statement`, with its values written into the text: a text at most
 * doubles as it is escaped, bytes are written as hexadecimal, and any other value is a short literal.
 */
function bytesAtMost(statement: CompiledQuery): number {
  let bytes = Buffer.byteLength(statement.text);
  for (const value of statement.params) {
    if (typeof value === 'string') bytes += 2 * Buffer.byteLength(value) + 2;
    else if (value instanceof Uint8Array) bytes += 2 * value.byteLength + 3;
    else bytes += 48;
  }
  return bytes;
}

/**
 * `items` in consecutive runs, each compiled by `compile` into one statement within the limits above. A run
 * starts with as many items as the statement before suggests; one compiled too long is compiled again with
 * fewer, one well short again with more (once). An item too long on its own still gets a statement of its own.
 * A turn of the event loop passes between statements (map-in-slices), as between slices of rows.
 */
export async function fittedStatements<T>(
  shape: SqlShape,
  items: readonly T[],
  compile: (run: readonly T[]) => CompiledQuery,
): Promise<Fitted<T>[]> {
  const out: Fitted<T>[] = [];
  let next = firstTry;
  for (let start = 0; start < items.length; ) {
    if (out.length > 0) await nextTurn();
    const left = items.length - start;
    let count = Math.min(next, left);
    let grown = false;
    for (;;) {
      const run = items.slice(start, start + count);
      const statement = compile(run);
      const fits = room(shape, statement, count === left);
      const scaled = Math.max(1, Math.floor(count * fits * aim));
      if (fits >= 1 && !grown && fits >= roomToGrow && count < left) {
        grown = true;
        count = Math.min(scaled, left);
      } else if (fits >= 1 || count === 1) {
        out.push({ items: run, statement });
        start += count;
        next = scaled;
        break;
      } else count = Math.min(scaled, count - 1);
    }
  }
  return out;
}
