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
import type { CallerQuery, ChildRow, InsertRow, Key } from '../plan/plan';
import type { SqlResource } from '../resource';
import { keyLabels, tableOf } from '../resource-levels';
import type { OutRow } from '../values';
import { echoValues, readBack } from './insert-echo';
import { insertLevel, type Written } from './insert-level';
import { insertRows } from './insert-rows';
import { requireVisible, type WrittenRow } from './require-visible';
import { requireParent } from './shown-rows';
import { type StoredRow, selectRow } from './stored-rows';
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

/** A child row of the request, by the index of its parent row (i) and its own under that parent (j). */
type ListedChild = { readonly i: number; readonly j: number; readonly child: ChildRow };

/** What was written for each child, under its parent's index: a few assignments per child, in one loop. */
function byParent(all: readonly ListedChild[], written: readonly Written[]): Written[][] {
  const out: Written[][] = [];
  for (const [n, { i, j }] of all.entries()) {
    out[i] ??= [];
    out[i][j] = written[n] as Written;
  }
  return out;
}

/** The children of every row, under its parent: one-to-many child rows, or many-to-many association rows. */
async function writeChildren(
  tx: Executor,
  resource: SqlResource,
  rows: readonly InsertRow[],
  parents: readonly Written[],
): Promise<Written[][]> {
  const all: ListedChild[] = [];
  const listChildren = (row: InsertRow, i: number) => {
    for (const [j, child] of (row.children ?? []).entries()) all.push({ i, j, child });
  };
  await forEachInSlices(rows, listChildren, { weight: rowWeight });
  // an entry for each row with children only: the others have none to look up
  if (all.length === 0) return [];
  const parentRow = (i: number) => (parents[i] as Written).row;
  return resource.kind === 'many-to-many'
    ? writeAssociations(tx, resource, all, parentRow)
    : writeChildRows(tx, resource, all, parentRow);
}

/** Many-to-many: an association row for each child, which exists already; each child is read back as stored. */
async function writeAssociations(
  tx: Executor,
  resource: SqlResource,
  all: readonly ListedChild[],
  parentRow: (i: number) => StoredRow,
): Promise<Written[][]> {
  const parent = tableOf(resource, 'Parent');
  const join = tableOf(resource, 'Join');
  const childTable = tableOf(resource, 'Child');
  const values = await mapInSlices(all, ({ i, child }) => ({
    ...child.join,
    ...linkValues(linkTo(join, parent), parentRow(i)),
    ...linkValues(linkTo(join, childTable), keyRow(childTable.primaryKey, child.key as Key)),
  }));
  const joinRows = await insertRows(tx, resource, join, values);
  const written: Written[] = [];
  for (const [n, { child }] of all.entries()) {
    const stored = new Map<string, StoredRow>([[join.name, joinRows[n] as StoredRow]]);
    await readBack(tx, resource, child.key as Key, stored);
    written.push({ row: stored.get(childTable.name) ?? {}, echo: echoValues(resource, 'child', stored), written: 1 });
  }
  return byParent(all, written);
}

/** One-to-many: each child row with its extension rows, linked to its parent. */
async function writeChildRows(
  tx: Executor,
  resource: SqlResource,
  all: readonly ListedChild[],
  parentRow: (i: number) => StoredRow,
): Promise<Written[][]> {
  const childTable = tableOf(resource, 'Child');
  const link = linkTo(childTable, tableOf(resource, 'Parent'));
  const items = await mapInSlices(all, ({ i, child }) => ({
    values: { ...child.child, ...linkValues(link, parentRow(i)) },
    extensions: child.extensions,
  }));
  return byParent(all, await insertLevel(tx, resource, childTable, items));
}
