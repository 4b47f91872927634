/**
 * Row-level helpers shared by the write executors: the tables of a resource by role, how a table links to its
 * owner, inserting one row and reading it back as stored, and finding which keys exist. Everything runs through
 * an Executor inside the request's transaction; the SQL comes from lib/sql.
 */
import { NotFoundError } from '../errors';
import type { ColumnValues, Key, RowMatch, Target, TypedFilter } from '../plan/types';
import type { ResourceTable, SqlResource, TableLink } from '../resource';
import { keyLabels, tableOf } from '../resource-levels';
import type { DbValue } from '../serial/types';
import { compileSelect } from '../sql/compile-select';
import { compileInsert, compileSelectWhere, type Match } from '../sql/compile-write';
import type { Executor, Param } from './types';

export type StoredRow = Record<string, DbValue>;

/** Keys per statement: keeps every statement far below RDS Proxy's 16 KB and the drivers' parameter limits. */
const chunkSize = 500;

export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += chunkSize) out.push(items.slice(i, i + chunkSize));
  return out;
}

/** The extension tables whose rows belong to their owner's row; a lookup's rows are shared, never written. */
export function ownedExtensions(resource: SqlResource, role: 'ParentExtension' | 'ChildExtension'): ResourceTable[] {
  return Object.values(resource.tables).filter((t) => t.role === role && !t.lookup);
}

/** The rows that `owner`'s row looks up many-to-one (D4), read so that a write's echo shows them as a read would. */
export async function readLookups(
  tx: Executor,
  resource: SqlResource,
  owner: ResourceTable,
  ownerRow: StoredRow,
  stored: Map<string, StoredRow>,
): Promise<void> {
  for (const table of Object.values(resource.tables)) {
    if (table.lookup?.owner !== owner.name) continue;
    const key = table.lookup.columns.map((c) => (ownerRow[c] ?? null) as Param);
    if (key.some((v) => v === null)) continue;
    const row = await selectRow(tx, resource, table, [{ columns: table.lookup.references, keys: [key] }]);
    if (row) stored.set(table.name, row);
  }
}

/** How `table` points at `target` (its columns, in the order of the target's key). */
export function linkTo(table: ResourceTable, target: ResourceTable): TableLink {
  return table.links.find((l) => l.target === target.name) as TableLink;
}

/** The link columns of a row of `table`, taken from the row of its target. */
export function linkValues(
  link: TableLink,
  targetRow: Readonly<Record<string, DbValue | Param>>,
): Record<string, Param> {
  return Object.fromEntries(
    link.columns.map((c, i) => [c, (targetRow[link.references[i] as string] ?? null) as Param]),
  );
}

export function keyRow(columns: readonly string[], key: Key): Record<string, Param> {
  return Object.fromEntries(columns.map((c, i) => [c, key[i] ?? null]));
}

export const byKey = (table: ResourceTable, keys: readonly Key[]): Match => ({ columns: table.primaryKey, keys });
export const byLink = (link: TableLink, keys: readonly Key[]): Match => ({ columns: link.columns, keys });

/** Inserts one row; returns it as stored (PostgreSQL RETURNING, MySQL read back by key, D15). */
export async function insertTableRow(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  values: ColumnValues,
): Promise<StoredRow> {
  const result = await tx.run(compileInsert(resource.dialect, table, values));
  if (resource.dialect === 'postgres') return { ...(result.rows[0] ?? {}) };
  const key = table.primaryKey.map((c) =>
    c in values ? values[c] : table.generatedColumns.includes(c) ? (result.insertId ?? null) : null,
  );
  if (table.primaryKey.length === 0 || key.some((v) => v === null || v === undefined))
    return { ...values } as StoredRow;
  return (await selectRow(tx, resource, table, [byKey(table, [key as Key])])) ?? ({ ...values } as StoredRow);
}

export async function selectRow(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  where: readonly Match[],
): Promise<StoredRow | undefined> {
  const { rows } = await tx.run(compileSelectWhere(resource.dialect, table, '*', where));
  return rows[0] ? { ...rows[0] } : undefined;
}

/** The values of `columns` of every row matching `where` plus one of `keys` on `keyColumns`. */
export async function selectKeys(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  columns: readonly string[],
  match: Match,
  where: readonly Match[] = [],
): Promise<Key[]> {
  const found: Key[] = [];
  for (const chunk of chunks(match.keys)) {
    const { rows } = await tx.run(
      compileSelectWhere(resource.dialect, table, columns, [{ columns: match.columns, keys: chunk }, ...where]),
    );
    for (const row of rows) found.push(columns.map((c) => row[c] as Param));
  }
  return found;
}

/** D17: a parent named in the path must exist; returns it as stored. */
export async function requireParent(tx: Executor, resource: SqlResource, key: Key): Promise<StoredRow> {
  const parent = tableOf(resource, 'Parent');
  const row = await selectRow(tx, resource, parent, [byKey(parent, [key])]);
  if (!row) {
    throw new NotFoundError(
      'parent_not_found',
      `${resource.name} has no ${resource.rowName} ${key.map(String).join('/')}`,
    );
  }
  return row;
}

/** The Parent keys a target addresses: given, or those of the Parent rows the filter matches (U2, D2). */
export async function keysOf(tx: Executor, resource: SqlResource, target: Target): Promise<readonly Key[]> {
  if (target.kind === 'keys') return target.keys;
  const parent = tableOf(resource, 'Parent');
  if (target.match.by === 'key') {
    const labels = keyLabels(resource, parent) ?? [];
    const { rows } = await tx.run(
      compileSelect(resource, { columns: labels, distinct: true, filters: target.filters, orderBy: [] }),
    );
    return rows.map((row) => labels.map((l) => row[l] as Param));
  }
  // The query selects no key: the keys of the Parent rows equal to a matched row in every selected field (D18)
  const found = new Map<string, Key>();
  const values = await matchedValues(tx, resource, target.filters, target.match);
  for (const match of valueMatches(target.match.columns, values)) {
    const { rows } = await tx.run(compileSelectWhere(resource.dialect, parent, parent.primaryKey, [match]));
    for (const row of rows) {
      const key = parent.primaryKey.map((c) => row[c] as Param);
      found.set(JSON.stringify(key.map(String)), key);
    }
  }
  return [...found.values()];
}

/** The distinct values of the Parent fields that a filter target matches by value (D18). */
export async function matchedValues(
  tx: Executor,
  resource: SqlResource,
  filters: readonly TypedFilter[],
  { labels }: Extract<RowMatch, { by: 'values' }>,
): Promise<Param[][]> {
  const { rows } = await tx.run(compileSelect(resource, { columns: labels, distinct: true, filters, orderBy: [] }));
  return rows.map((row) => labels.map((l) => row[l] as Param));
}

/** Parameters per statement when rows are found by value: keeps each statement far under 16 KB. */
const valueParams = 400;

/** By-value matches of `rows` on `columns`, a statement's worth each. */
export function valueMatches(columns: readonly string[], rows: readonly Param[][]): Match[] {
  const size = Math.max(1, Math.floor(valueParams / columns.length));
  const out: Match[] = [];
  for (let i = 0; i < rows.length; i += size) out.push({ columns, keys: rows.slice(i, i + size), byValue: true });
  return out;
}
