/**
 * How many keys or rows one statement carries: few enough that every statement stays below RDS Proxy's 16 KB
 * of text (a longer one pins the client's session) and the drivers' parameter limits. Many rows are sized a
 * slice at a time (map-in-slices). Pure.
 */
import { forEachInSlices } from '../map-in-slices';
import type { ColumnValues } from '../plan/plan';
import type { Match } from '../sql/match';
import type { SqlShape } from '../sql-shape';
import type { Value } from '../values';

/** Keys per statement. */
const chunkSize = 500;

export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += chunkSize) out.push(items.slice(i, i + chunkSize));
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

/** Text bytes of the rows of one statement: below RDS Proxy's 16 KB with room for its head and RETURNING. */
const statementBytes = 15_000;
/** Bind parameters of one statement: PostgreSQL's protocol counts them in 16 bits. */
const maxParams = 65_535;

/** What one item adds to a statement: bytes of text and bind parameters. */
export interface ItemSize {
  readonly bytes: number;
  readonly params: number;
}

/**
 * `items` in consecutive runs, one statement each: a run ends before the item that would take its text past
 * statementBytes or its parameters past maxParams. An item too long on its own still gets a statement of its own.
 */
export async function sizedRuns<T>(items: readonly T[], sizeOf: (item: T) => ItemSize): Promise<T[][]> {
  const out: T[][] = [];
  let run: T[] = [];
  let bytes = 0;
  let params = 0;
  await forEachInSlices(items, (item) => {
    const size = sizeOf(item);
    if (run.length > 0 && (bytes + size.bytes > statementBytes || params + size.params > maxParams)) {
      out.push(run);
      run = [];
      bytes = 0;
      params = 0;
    }
    run.push(item);
    bytes += size.bytes;
    params += size.params;
  });
  if (run.length > 0) out.push(run);
  return out;
}

/** Bytes of a placeholder written into the text, with the value where the driver writes it there too. */
export function paramBytes(shape: SqlShape, value: Value): number {
  // `$12345` is the longest a placeholder within maxParams gets; `?` is shorter
  return 6 + (shape.valuesInText ? inlineBytes(value) : 0);
}

/** `rows` in runs of a multi-row INSERT over `columns` each (a missing column is written DEFAULT). */
export function insertBatches(
  shape: SqlShape,
  columns: readonly string[],
  rows: readonly ColumnValues[],
): Promise<ColumnValues[][]> {
  return sizedRuns(rows, (row) => {
    let bytes = 4; // "(", ")", ", "
    let params = 0;
    for (const column of columns) {
      if (!(column in row))
        bytes += 9; // "DEFAULT, "
      else {
        params += 1;
        bytes += paramBytes(shape, row[column] ?? null) + 2;
      }
    }
    return { bytes, params };
  });
}

/** The most bytes a value takes written into SQL text: quoted, every special character escaped. */
function inlineBytes(value: Value): number {
  if (value === null) return 4;
  if (typeof value === 'string') return Buffer.byteLength(value) + 2 + escapes(value);
  if (value instanceof Uint8Array) return value.length * 2 + 3;
  return String(value).length + 2;
}

/** Characters that the driver writes as two: quotes, the backslash, and control characters. */
function escapes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 32 || code === 34 || code === 39 || code === 92) n++;
  }
  return n;
}
