/**
 * Inserts (C1, C2, C3): parent rows with their extension rows; under a parent, one-to-many children
 * with their extension rows, or many-to-many association rows for existing children. Echoes every row as
 * stored, in the request's nested shape; a parent that was not inserted appears by its key only. With the
 * caller's query (claims), every row written, and every parent written under, must be one it shows the caller.
 */

import type { Executor } from '../db/database';
import type { CallerQuery, ChildRow, InsertRow, Key } from '../plan/plan';
import type { ResourceTable, SqlResource } from '../resource';
import { fieldsAt, keyLabels, tableOf } from '../resource-levels';
import type { OutRow, Value } from '../values';
import { requireVisible, type WrittenRow } from './caller-rows';
import { insertTableRow, readLookups, requireParent, type StoredRow, selectRow } from './stored-rows';
import { byKey, byLink, keyRow, linkTo, linkValues, ownedExtensions } from './table-links';

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
  let rowsAffected = 0;
  const out: OutRow[] = [];
  const touched: WrittenRow[] = [];
  const parentTable = tableOf(resource, 'Parent');
  for (const [i, row] of rows.entries()) {
    const parent = await writeParent(tx, resource, row, query);
    rowsAffected += parent.written;
    const parentKey = parentTable.primaryKey.map((c) => parent.row[c] ?? null);
    const rowName = `${resource.rowName} row ${i + 1}`;
    if (query) touched.push({ parentKey, where: `The ${rowName}` });
    if (row.children === undefined) {
      out.push({ values: parent.echo });
      continue;
    }
    const children: OutRow[] = [];
    for (const [j, child] of row.children.entries()) {
      const written = await writeChild(tx, resource, parent.row, child);
      rowsAffected += written.written;
      children.push({ values: written.echo });
      if (!query) continue;
      const childKey = child.key ?? tableOf(resource, 'Child').primaryKey.map((c) => written.row[c] ?? null);
      const where = `The ${resource.childRowName} row ${j + 1}${row.existing ? '' : ` of ${rowName}`}`;
      touched.push({ parentKey, childKey, where });
    }
    out.push({ values: parent.echo, children });
  }
  if (query) await requireVisible(tx, resource, query, touched, 'insert');
  return { rowsAffected, rows: out };
}

interface Written {
  readonly row: StoredRow;
  readonly echo: Record<string, Value>;
  readonly written: number;
}

/** C3's path parent and an existing parent with children are left as they are; others are inserted. */
async function writeParent(
  tx: Executor,
  resource: SqlResource,
  row: InsertRow,
  query: CallerQuery | undefined,
): Promise<Written> {
  const parent = tableOf(resource, 'Parent');
  if (row.existing && row.key) return keyOnly(resource, await requireParent(tx, resource, row.key, query));
  if (row.children !== undefined && row.key) {
    const existing = await selectRow(tx, resource, parent, [byKey(parent, [row.key])]);
    if (existing) return keyOnly(resource, existing);
  }
  const stored = new Map<string, StoredRow>();
  const parentRow = await insertTableRow(tx, resource, parent, row.parent);
  stored.set(parent.name, parentRow);
  for (const ext of row.extensions) {
    const table = resource.tables[ext.table] as ResourceTable;
    stored.set(
      table.name,
      await insertTableRow(tx, resource, table, { ...ext.values, ...linkValues(linkTo(table, parent), parentRow) }),
    );
  }
  const written = stored.size;
  await readLookups(tx, resource, parent, parentRow, stored);
  return { row: parentRow, echo: echoValues(resource, 'parent', stored), written };
}

function keyOnly(resource: SqlResource, row: StoredRow): Written {
  const parent = tableOf(resource, 'Parent');
  const labels = keyLabels(resource, parent) ?? [];
  const echo = Object.fromEntries(labels.map((label, i) => [label, row[parent.primaryKey[i] as string] ?? null]));
  return { row, echo, written: 0 };
}

async function writeChild(
  tx: Executor,
  resource: SqlResource,
  parentRow: StoredRow,
  child: ChildRow,
): Promise<Written> {
  const parent = tableOf(resource, 'Parent');
  const childTable = tableOf(resource, 'Child');
  const stored = new Map<string, StoredRow>();
  let written = 0;
  if (resource.kind === 'many-to-many') {
    const join = tableOf(resource, 'Join');
    const childKey = keyRow(childTable.primaryKey, child.key as Key);
    const joinRow = await insertTableRow(tx, resource, join, {
      ...child.join,
      ...linkValues(linkTo(join, parent), parentRow),
      ...linkValues(linkTo(join, childTable), childKey),
    });
    stored.set(join.name, joinRow);
    written = 1;
    await readBack(tx, resource, child.key as Key, stored);
  } else {
    const childRow = await insertTableRow(tx, resource, childTable, {
      ...child.child,
      ...linkValues(linkTo(childTable, parent), parentRow),
    });
    stored.set(childTable.name, childRow);
    written = 1;
    for (const ext of child.extensions) {
      const table = resource.tables[ext.table] as ResourceTable;
      stored.set(
        table.name,
        await insertTableRow(tx, resource, table, {
          ...ext.values,
          ...linkValues(linkTo(table, childTable), childRow),
        }),
      );
      written += 1;
    }
    await readLookups(tx, resource, childTable, childRow, stored);
  }
  return { row: stored.get(childTable.name) ?? {}, echo: echoValues(resource, 'child', stored), written };
}

/** A many-to-many child as stored: its Child row and ChildExtension rows, read by key. */
async function readBack(tx: Executor, resource: SqlResource, key: Key, stored: Map<string, StoredRow>): Promise<void> {
  const childTable = tableOf(resource, 'Child');
  const row = await selectRow(tx, resource, childTable, [byKey(childTable, [key])]);
  if (!row) return;
  stored.set(childTable.name, row);
  for (const ext of ownedExtensions(resource, 'ChildExtension')) {
    const extRow = await selectRow(tx, resource, ext, [byLink(linkTo(ext, childTable), [key])]);
    if (extRow) stored.set(ext.name, extRow);
  }
  await readLookups(tx, resource, childTable, row, stored);
}

/** A level's fields by label, as stored: fields of tables not written are NULL; computed fields are left out. */
function echoValues(
  resource: SqlResource,
  level: 'parent' | 'child',
  stored: ReadonlyMap<string, StoredRow>,
): Record<string, Value> {
  const values: Record<string, Value> = {};
  for (const field of fieldsAt(resource, level)) {
    if (field.table === null || field.column === null) continue;
    values[field.label] = stored.get(field.table)?.[field.column] ?? null;
  }
  return values;
}
