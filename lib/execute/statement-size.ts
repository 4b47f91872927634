/**
 * How many keys or rows one statement carries: few enough that every statement stays far below RDS Proxy's
 * 16 KB and the drivers' parameter limits. Pure.
 */
import type { Match } from '../sql/match';
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
