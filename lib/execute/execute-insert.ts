/**
 * Inserts (a form's row, XML or JSON rows, or child rows under the parent in the path): parent rows with their
 * extension rows; under a parent, one-to-many children with their extension rows, or many-to-many association rows
 * for existing children. Echoes every row as stored, in the request's nested shape; a parent that was not inserted
 * appears by its key only. With the caller's query (claims), every row written, and every parent written under, must
 * be one it shows the caller. What is done for each of many rows between statements is done a slice at a time
 * (map-in-slices).
 */

import type { Executor } from '../db/database';
import { forEachInSlices, mapInSlices } from '../map-in-slices';
import type { CallerQuery, ChildRow, ColumnValues, ExtensionValues, InsertRow, Key } from '../plan/plan';
import type { ResourceTable, SqlResource } from '../resource';
import { keyLabels, tableOf } from '../resource-levels';
import type { OutRow, Value } from '../values';
import { echoValues, readBack } from './insert-echo';
import { insertRows } from './insert-rows';
import { requireVisible, type WrittenRow } from './require-visible';
import { requireParent } from './shown-rows';
import { readLookupsOfRows, type StoredRow, selectRow } from './stored-rows';
import { byKey, keyRow, linkTo, linkValues } from './table-links';

export interface WriteOutcome {
  readonly rowsAffected: number;
  /** Inserts only: the rows as stored. */
  readonly rows?: readonly OutRow[];
}

export async function executeInsert(
  tx: Executor,
  resource: SqlResource,
  rows: readonly InsertRow[],
  query?: CallerQuery,
): Promise<WriteOutcome> {
  const parents = await writeParents(tx, resource, rows, query);
  const children = await writeChildren(tx, resource, rows, parents);
  let rowsAffected = 0;
  const out: OutRow[] = [];
  const touched: WrittenRow[] = [];
  const parentTable = tableOf(resource, 'Parent');
  const echoRow = (row: InsertRow, i: number) => {
    const parent = parents[i] as Written;
    rowsAffected += parent.written;
    const parentKey = parentTable.primaryKey.map((c) => parent.row[c] ?? null);
    const rowName = `${resource.rowName} row ${i + 1}`;
    if (query) touched.push({ parentKey, where: `The ${rowName}` });
    if (row.children === undefined) {
      out.push({ values: parent.echo });
      return;
    }
    const echoes: OutRow[] = [];
    for (const [j, child] of row.children.entries()) {
      const written = children[i]?.[j] as Written;
      rowsAffected += written.written;
      echoes.push({ values: written.echo });
      if (!query) continue;
      const childKey = child.key ?? tableOf(resource, 'Child').primaryKey.map((c) => written.row[c] ?? null);
      const where = `The ${resource.childRowName} row ${j + 1}${row.existing ? '' : ` of ${rowName}`}`;
      touched.push({ parentKey, childKey, where });
    }
    out.push({ values: parent.echo, children: echoes });
  };
  await forEachInSlices(rows, echoRow, { weight: rowWeight });
  if (query) await requireVisible(tx, resource, query, touched, 'insert');
  return { rowsAffected, rows: out };
}

/** A row weighs one more for each child row in it, in the slices it is handled in. */
const rowWeight = (row: InsertRow) => 1 + (row.children?.length ?? 0);

interface Written {
  readonly row: StoredRow;
  readonly echo: Record<string, Value>;
  readonly written: number;
}

/**
 * The parent of every row: the parent in the path and an existing parent with children are left as they are; the
 * others are inserted together, with their extension rows.
 */
async function writeParents(
  tx: Executor,
  resource: SqlResource,
  rows: readonly InsertRow[],
  query: CallerQuery | undefined,
): Promise<Written[]> {
  const parent = tableOf(resource, 'Parent');
  const out: Written[] = [];
  const inserted: number[] = [];
  const place = async (row: InsertRow, i: number) => {
    if (row.existing && row.key) {
      out[i] = keyOnly(resource, await requireParent(tx, resource, row.key, query));
      return;
    }
    const existing =
      row.children !== undefined && row.key
        ? await selectRow(tx, resource, parent, [byKey(parent, [row.key])])
        : undefined;
    if (existing) out[i] = keyOnly(resource, existing);
    else inserted.push(i);
  };
  await forEachInSlices(rows, place);
  const items = await mapInSlices(inserted, (i) => {
    const row = rows[i] as InsertRow;
    return { values: row.parent, extensions: row.extensions };
  });
  const levels = await insertLevel(tx, resource, parent, items);
  inserted.forEach((i, n) => {
    out[i] = levels[n] as Written;
  });
  return out;
}

function keyOnly(resource: SqlResource, row: StoredRow): Written {
  const parent = tableOf(resource, 'Parent');
  const labels = keyLabels(resource, parent) ?? [];
  const echo = Object.fromEntries(labels.map((label, i) => [label, row[parent.primaryKey[i] as string] ?? null]));
  return { row, echo, written: 0 };
}

/** A row of one level to insert: its table's values and its extension rows. */
interface LevelItem {
  readonly values: ColumnValues;
  readonly extensions: readonly ExtensionValues[];
}

/** Rows of one level (parent or one-to-many child) with their extension rows, a table at a time; echoed. */
async function insertLevel(
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

/** The children of every row, under its parent: one-to-many child rows, or many-to-many association rows. */
async function writeChildren(
  tx: Executor,
  resource: SqlResource,
  rows: readonly InsertRow[],
  parents: readonly Written[],
): Promise<Written[][]> {
  const all: { i: number; j: number; child: ChildRow }[] = [];
  const listChildren = (row: InsertRow, i: number) => {
    for (const [j, child] of (row.children ?? []).entries()) all.push({ i, j, child });
  };
  await forEachInSlices(rows, listChildren, { weight: rowWeight });
  // an entry for each row with children only: the others have none to look up
  const out: Written[][] = [];
  if (all.length === 0) return out;
  const parent = tableOf(resource, 'Parent');
  const parentRow = (i: number) => (parents[i] as Written).row;
  if (resource.kind === 'many-to-many') {
    const join = tableOf(resource, 'Join');
    const childTable = tableOf(resource, 'Child');
    const values = await mapInSlices(all, ({ i, child }) => ({
      ...child.join,
      ...linkValues(linkTo(join, parent), parentRow(i)),
      ...linkValues(linkTo(join, childTable), keyRow(childTable.primaryKey, child.key as Key)),
    }));
    const joinRows = await insertRows(tx, resource, join, values);
    for (const [n, { i, j, child }] of all.entries()) {
      const stored = new Map<string, StoredRow>([[join.name, joinRows[n] as StoredRow]]);
      await readBack(tx, resource, child.key as Key, stored);
      out[i] ??= [];
      out[i][j] = {
        row: stored.get(childTable.name) ?? {},
        echo: echoValues(resource, 'child', stored),
        written: 1,
      };
    }
    return out;
  }
  const childTable = tableOf(resource, 'Child');
  const link = linkTo(childTable, parent);
  const items = await mapInSlices(all, ({ i, child }) => ({
    values: { ...child.child, ...linkValues(link, parentRow(i)) },
    extensions: child.extensions,
  }));
  const written = await insertLevel(tx, resource, childTable, items);
  await forEachInSlices(all, ({ i, j }, n) => {
    out[i] ??= [];
    out[i][j] = written[n] as Written;
  });
  return out;
}
