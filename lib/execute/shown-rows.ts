/**
 * Which rows a write may touch: only the rows that the resource's query shows (its WHERE and joins), run with the
 * caller's claims when it has them, the way an update through a SQL view behaves. Inside the write's transaction the
 * Parent rows are locked first, then the query is asked which of them it shows, reading the rows as committed now:
 * a row changed by another request in between is judged as it is when it is written. A query that shows every row
 * of its one table needs no asking. Keys come back as the database holds them, so later statements match them as
 * the database compares (letter case, padding, decimal scale), never by their text.
 */
import type { Executor } from '../db/database';
import { sqlShapeOf } from '../db/engines/registry';
import { ForbiddenError, NotFoundError } from '../errors';
import type { CallerQuery, ChildChanges, Key, Target, TypedFilter } from '../plan/plan';
import type { SqlResource } from '../resource';
import { keyLabels, tableOf } from '../resource-levels';
import { compileSelect, compileSelectWhere } from '../sql/compile-select';
import { keyText, type Value } from '../values';
import { chunks } from './statement-size';
import { type StoredRow, selectKeys } from './stored-rows';
import { byKey, byLink, linkTo } from './table-links';
import { keysOf } from './target-keys';

/** The labels of the Parent's key, then (`child`) of the Child's: the planner has checked the query selects them. */
export function labelsOf(resource: SqlResource, child: boolean): string[] {
  const parent = keyLabels(resource, tableOf(resource, 'Parent')) ?? [];
  return child ? [...parent, ...(keyLabels(resource, tableOf(resource, 'Child')) ?? [])] : parent;
}

/** A row named by its key for an error message: `team_id 1, player_id 7`. */
export function namedKey(labels: readonly string[], key: Key): string {
  return labels.map((label, i) => `${label} ${String(key[i])}`).join(', ');
}

/** A write must ask which rows the query shows: unless it shows every row of its table to every caller. */
export function checksRows(resource: SqlResource, query: CallerQuery | undefined): boolean {
  return query !== undefined || resource.showsEveryRow !== true;
}

/**
 * Of `keys` (values of `labels`), the ones the query shows now among the rows that pass `filters`, as the query
 * returns them (so as stored).
 */
export async function shownKeys(
  tx: Executor,
  resource: SqlResource,
  query: CallerQuery | undefined,
  labels: readonly string[],
  keys: readonly Key[],
  filters: readonly TypedFilter[] = [],
): Promise<Key[]> {
  const found: Key[] = [];
  for (const chunk of chunks(keys)) {
    const spec = {
      columns: labels,
      distinct: true,
      filters,
      orderBy: [],
      keys: { labels, keys: chunk },
      current: true,
    };
    const { rows } = await tx.run(compileSelect(sqlShapeOf(resource.engine), query ?? resource.query, spec));
    for (const row of rows) found.push(labels.map((l) => row[l] ?? null));
  }
  return found;
}

/** Locks the Parent rows of `keys` until the transaction ends; returns those that exist, as stored. */
async function lockParents(
  tx: Executor,
  resource: SqlResource,
  keys: readonly Key[],
  columns: readonly string[] | '*' = tableOf(resource, 'Parent').primaryKey,
): Promise<StoredRow[]> {
  const parent = tableOf(resource, 'Parent');
  const rows: StoredRow[] = [];
  for (const chunk of chunks(keys)) {
    const statement = compileSelectWhere(sqlShapeOf(resource.engine), parent, columns, [byKey(parent, chunk)], true);
    for (const row of (await tx.run(statement)).rows) rows.push({ ...row });
  }
  return rows;
}

/**
 * A parent named in the path (for child rows under it) must exist, and be one the query shows (with the caller's
 * claims, when it has them): one it does not show is answered as one that does not exist. Returns it as stored,
 * locked until the transaction ends.
 */
export async function requireParent(
  tx: Executor,
  resource: SqlResource,
  key: Key,
  query?: CallerQuery,
): Promise<StoredRow> {
  const [row] = await lockParents(tx, resource, [key], '*');
  const shown =
    row !== undefined &&
    (!checksRows(resource, query) ||
      (await shownParents(tx, resource, { kind: 'keys', keys: [parentKeyOf(resource, row)] }, query)).length > 0);
  if (!row || !shown) {
    throw new NotFoundError(
      'parent_not_found',
      `${resource.name} has no ${resource.rowName} ${key.map(String).join('/')}`,
    );
  }
  return row;
}

/** A row's Parent key, in key order. */
function parentKeyOf(resource: SqlResource, row: Readonly<Record<string, Value>>): Key {
  return tableOf(resource, 'Parent').primaryKey.map((c) => row[c] ?? null);
}

/**
 * The Parent rows a target names (listed keys, or a filter's matches) that the query shows now, locked for the rest
 * of the transaction; their keys as stored. A filter that is the statement's own WHERE never comes here.
 */
export async function shownParents(
  tx: Executor,
  resource: SqlResource,
  target: Target,
  query: CallerQuery | undefined,
): Promise<Key[]> {
  const checks = checksRows(resource, query);
  if (target.kind === 'keys' && !checks) return [...target.keys];
  const candidates = target.kind === 'keys' ? target.keys : await keysOf(tx, resource, target, query);
  if (candidates.length === 0) return [];
  const locked = (await lockParents(tx, resource, candidates)).map((row) => parentKeyOf(resource, row));
  if (!checks || locked.length === 0) return locked;
  if (target.kind === 'keys') return shownKeys(tx, resource, query, labelsOf(resource, false), locked);
  if (target.match.by === 'key')
    return shownKeys(tx, resource, query, labelsOf(resource, false), locked, target.filters);
  // found by values: those values are asked again, as committed now; both lists hold the table's own key values,
  // as the same database returns them, so their texts are equal exactly when the keys are
  const now = new Set((await keysOf(tx, resource, target, query, true)).map(keyText));
  return locked.filter((key) => now.has(keyText(key)));
}

/**
 * The parent that children listed under it belong to, as stored: one named by the path must exist and be shown (a
 * 404 otherwise); one named in a body row that the query does not show is left alone (undefined).
 */
export async function ownParent(
  tx: Executor,
  resource: SqlResource,
  change: Pick<ChildChanges, 'parentKey' | 'mustExist'>,
  query: CallerQuery | undefined,
): Promise<Key | undefined> {
  if (change.mustExist) return parentKeyOf(resource, await requireParent(tx, resource, change.parentKey, query));
  return (await shownParents(tx, resource, { kind: 'keys', keys: [change.parentKey] }, query))[0];
}

/** Of the Child keys under one parent, those the query shows with that parent now; their keys as stored. */
export async function shownChildren(
  tx: Executor,
  resource: SqlResource,
  query: CallerQuery | undefined,
  parentKey: Key,
  childKeys: readonly Key[],
): Promise<Key[]> {
  const pairs = childKeys.map((key) => [...parentKey, ...key]);
  const found = await shownKeys(tx, resource, query, labelsOf(resource, true), pairs);
  return found.map((pair) => pair.slice(parentKey.length));
}

/**
 * With the caller's query, a parent of a hierarchical resource is deleted or updated only when the query shows the
 * caller every child row (or association) it has: a parent shared with other callers' children is theirs too, and
 * deleting it would delete their rows. A 403 that rolls the request back otherwise.
 */
export async function requireAllChildrenShown(
  tx: Executor,
  resource: SqlResource,
  query: CallerQuery,
  parentKeys: readonly Key[],
  what: 'delete' | 'update',
): Promise<void> {
  if (resource.kind === 'flat' || parentKeys.length === 0) return;
  const parent = tableOf(resource, 'Parent');
  const child = tableOf(resource, 'Child');
  // (parent, child) of every row that ties a child to these parents, as that row holds them
  const [table, parentColumns, childColumns] =
    resource.kind === 'many-to-many'
      ? [
          tableOf(resource, 'Join'),
          linkTo(tableOf(resource, 'Join'), parent).columns,
          linkTo(tableOf(resource, 'Join'), child).columns,
        ]
      : [child, linkTo(child, parent).columns, child.primaryKey];
  const owned = new Map<string, Key>();
  for (const key of await selectKeys(
    tx,
    resource,
    table,
    [...parentColumns, ...childColumns],
    byLink(linkTo(table, parent), parentKeys),
  ))
    owned.set(keyText(key), key);
  if (owned.size === 0) return;
  // the database compares the pairs with what the query shows; each shown pair comes back once
  const shown = await shownKeys(tx, resource, query, labelsOf(resource, true), [...owned.values()]);
  if (shown.length >= owned.size) return;
  throw new ForbiddenError(
    'forbidden',
    `A ${resource.rowName} row to ${what} has ${resource.childRowName} rows that ${resource.name} does not show this caller, so nothing was changed`,
  );
}
