/**
 * After an insert or update through a query with the caller's claims, inside its transaction: every row written
 * must be one the query shows the caller, or the request is refused and rolled back. Asks the query as
 * shown-rows.ts does.
 */
import type { Executor } from '../db/database';
import { ForbiddenError } from '../errors';
import { forEachInSlices, mapInSlices } from '../map-in-slices';
import type { CallerQuery, Key } from '../plan/plan';
import type { SqlResource } from '../resource';
import { keyText } from '../values';
import { labelsOf, namedKey, shownKeys } from './shown-rows';

/** A row that a write touched, to check against the caller's query once the write is done. */
export interface WrittenRow {
  readonly parentKey: Key;
  /** Set for a child row (or a many-to-many association). */
  readonly childKey?: Key;
  /** How the error names it: `Row 2`, `Player row 1 of row 2`. */
  readonly where?: string;
}

/**
 * The first of `keys` the query does not show. A key whose text matches no key the query returned is asked alone,
 * so that the database compares it (a key given as `abc` is the row stored as `ABC` under a case-insensitive
 * collation, `5.0` is `5.00`).
 */
async function firstHidden(
  tx: Executor,
  resource: SqlResource,
  query: CallerQuery,
  labels: readonly string[],
  keys: readonly Key[],
): Promise<number> {
  const seen = new Set(await mapInSlices(await shownKeys(tx, resource, query, labels, keys), keyText));
  const unseen: number[] = [];
  await forEachInSlices(keys, (key, i) => {
    if (!seen.has(keyText(key))) unseen.push(i);
  });
  for (const i of unseen) {
    if ((await shownKeys(tx, resource, query, labels, [keys[i] as Key])).length === 0) return i;
  }
  return -1;
}

/**
 * Refuses the request (403, rolled back) when the caller's query does not show every written row: an insert of
 * another caller's row, or an update that would move a row out of the caller's sight.
 */
export async function requireVisible(
  tx: Executor,
  resource: SqlResource,
  query: CallerQuery,
  rows: readonly WrittenRow[],
  what: 'insert' | 'update',
): Promise<void> {
  for (const child of [false, true]) {
    const group = rows.filter((row) => (row.childKey !== undefined) === child);
    if (group.length === 0) continue;
    const labels = labelsOf(resource, child);
    const keys = group.map((row) => (child ? [...row.parentKey, ...(row.childKey as Key)] : row.parentKey));
    const missing = await firstHidden(tx, resource, query, labels, keys);
    if (missing < 0) continue;
    const key = keys[missing] as Key;
    const named = namedKey(labels, key);
    throw new ForbiddenError(
      'forbidden',
      what === 'insert'
        ? `${group[missing]?.where ?? 'A row'} (${named}) is not a row that ${resource.name} shows this caller, so nothing was written`
        : `The update would move the row ${named} out of the rows that ${resource.name} shows this caller, so nothing was changed`,
    );
  }
}
