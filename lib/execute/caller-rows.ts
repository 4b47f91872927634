/**
 * Which rows a write may touch when the resource's query uses claims: only the rows that the query, run with the
 * caller's claims inside the write's transaction, shows the caller. Parent rows are locked before they are
 * checked, so that no other request changes them between the check and the write; rows written are checked
 * again afterwards, and a row the caller could not then see is a 403 that rolls the whole request back.
 */
import type { Executor } from '../db/database';
import { ForbiddenError } from '../errors';
import type { CallerQuery, Key } from '../plan/plan';
import type { SqlResource } from '../resource';
import { keyLabels, tableOf } from '../resource-levels';
import { compileSelect, compileSelectWhere } from '../sql/compile-select';
import { sqlDialect } from '../sql/dialect';
import { chunks } from './statement-size';
import { byKey } from './table-links';

/** The labels of the Parent's key, then (`child`) of the Child's: the planner has checked the query selects them. */
function labelsOf(resource: SqlResource, child: boolean): string[] {
  const parent = keyLabels(resource, tableOf(resource, 'Parent')) ?? [];
  return child ? [...parent, ...(keyLabels(resource, tableOf(resource, 'Child')) ?? [])] : parent;
}

const same = (key: readonly unknown[]) => JSON.stringify(key.map(String));

/** Of `keys` (values of `labels`), those that the caller's query shows, in their order. */
async function shown(
  tx: Executor,
  resource: SqlResource,
  query: CallerQuery,
  labels: readonly string[],
  keys: readonly Key[],
): Promise<Key[]> {
  const found = new Set<string>();
  for (const chunk of chunks(keys)) {
    const spec = { columns: labels, distinct: true, filters: [], orderBy: [], keys: { labels, keys: chunk } };
    const { rows } = await tx.run(compileSelect(sqlDialect(resource.dialect), query, spec));
    for (const row of rows) found.add(same(labels.map((l) => row[l] ?? null)));
  }
  return keys.filter((key) => found.has(same(key)));
}

/** Of the Parent `keys`, those the caller's query shows. */
export function visibleParents(
  tx: Executor,
  resource: SqlResource,
  query: CallerQuery,
  keys: readonly Key[],
): Promise<Key[]> {
  return shown(tx, resource, query, labelsOf(resource, false), keys);
}

/** Locks the Parent rows of `keys` for the rest of the transaction; returns those the caller's query shows. */
export async function lockVisibleParents(
  tx: Executor,
  resource: SqlResource,
  query: CallerQuery,
  keys: readonly Key[],
): Promise<Key[]> {
  const parent = tableOf(resource, 'Parent');
  for (const chunk of chunks(keys)) {
    await tx.run(
      compileSelectWhere(sqlDialect(resource.dialect), parent, parent.primaryKey, [byKey(parent, chunk)], true),
    );
  }
  return visibleParents(tx, resource, query, keys);
}

/** Of the Child keys under one parent, those the caller's query shows (with that parent). */
export async function visibleChildren(
  tx: Executor,
  resource: SqlResource,
  query: CallerQuery,
  parentKey: Key,
  childKeys: readonly Key[],
): Promise<Key[]> {
  const pairs = childKeys.map((key) => [...parentKey, ...key]);
  const found = await shown(tx, resource, query, labelsOf(resource, true), pairs);
  return found.map((pair) => pair.slice(parentKey.length));
}

/** A row that a write touched, to check against the caller's query once the write is done. */
export interface WrittenRow {
  readonly parentKey: Key;
  /** Set for a child row (or a many-to-many association). */
  readonly childKey?: Key;
  /** How the error names it: `Row 2`, `Player row 1 of row 2`. */
  readonly where?: string;
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
    const seen = new Set((await shown(tx, resource, query, labels, keys)).map(same));
    const missing = keys.findIndex((key) => !seen.has(same(key)));
    if (missing < 0) continue;
    const key = keys[missing] as Key;
    const named = labels.map((label, i) => `${label} ${String(key[i])}`).join(', ');
    throw new ForbiddenError(
      'forbidden',
      what === 'insert'
        ? `${group[missing]?.where ?? 'A row'} (${named}) is not a row that ${resource.name} shows this caller, so nothing was written`
        : `The update would move the row ${named} out of the rows that ${resource.name} shows this caller, so nothing was changed`,
    );
  }
}
