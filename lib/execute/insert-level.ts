/**
 * One level of an insert (the parent rows, or one-to-many child rows): the rows of its table, then their extension
 * rows a table at a time, linked to their owners, each row echoed as stored with its lookups. A slice of rows at a
 * time (map-in-slices).
 */
import type { Executor } from '../db/database';
import { forEachInSlices, mapInSlices } from '../map-in-slices';
import type { ColumnValues, ExtensionValues } from '../plan/plan';
import type { ResourceTable, SqlResource } from '../resource';
import type { Value } from '../values';
import { echoValues } from './insert-echo';
import { insertRows } from './insert-rows';
import { readLookupsOfRows, type StoredRow } from './stored-rows';
import { linkTo, linkValues } from './table-links';

/** A row written: as stored, as echoed, and how many rows it took (itself and its extension rows). */
export interface Written {
  readonly row: StoredRow;
  readonly echo: Record<string, Value>;
  readonly written: number;
}

/** A row of one level to insert: its table's values and its extension rows. */
export interface LevelItem {
  readonly values: ColumnValues;
  readonly extensions: readonly ExtensionValues[];
}

/** Rows of one level (parent or one-to-many child) with their extension rows, a table at a time; echoed. */
export async function insertLevel(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  items: readonly LevelItem[],
): Promise<Written[]> {
  if (items.length === 0) return [];
  const rows = await insertRows(
    tx,
    resource,
    table,
    items.map((item) => item.values),
  );
  const stored = await mapInSlices(rows, (row) => new Map<string, StoredRow>([[table.name, row]]));
  await insertExtensions(tx, resource, table, items, rows, stored);
  const written = stored.map((s) => s.size);
  await readLookupsOfRows(tx, resource, table, rows, stored);
  const level = table.role === 'Parent' ? 'parent' : 'child';
  return mapInSlices(rows, (row, k) => ({
    row,
    echo: echoValues(resource, level, stored[k] as Map<string, StoredRow>),
    written: written[k] ?? 0,
  }));
}

/** The extension rows of `items`, a table at a time, linked to their owners' `rows`; each kept in its `stored`. */
async function insertExtensions(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  items: readonly LevelItem[],
  rows: readonly StoredRow[],
  stored: readonly Map<string, StoredRow>[],
): Promise<void> {
  const extTables = new Set<string>();
  await forEachInSlices(items, (item) => {
    for (const ext of item.extensions) extTables.add(ext.table);
  });
  for (const name of extTables) {
    const ext = resource.tables[name] as ResourceTable;
    const link = linkTo(ext, table);
    const owners: { k: number; e: ExtensionValues }[] = [];
    await forEachInSlices(items, (item, k) => {
      for (const e of item.extensions) if (e.table === name) owners.push({ k, e });
    });
    const values = await mapInSlices(owners, ({ k, e }) => ({
      ...e.values,
      ...linkValues(link, rows[k] as StoredRow),
    }));
    const extRows = await insertRows(tx, resource, ext, values);
    await forEachInSlices(owners, ({ k }, n) => stored[k]?.set(ext.name, extRows[n] as StoredRow));
  }
}
