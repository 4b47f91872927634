/**
 * Updates (rows by key in the body, by filter or path key, or child rows under the parent in the path): parent rows
 * by key or filter with their extension rows (created when missing); children under a parent, only those that belong
 * to it (one-to-many: by its foreign key; many-to-many: through an association row). "Updated" means matched,
 * changed or not. With the caller's query (claims), only rows it shows are updated, and each must still show after
 * the update.
 */

import type { Executor } from '../db/database';
import { sqlShapeOf } from '../db/engines/registry';
import type { CallerQuery, ChildChanges, ChildRow, ColumnValues, ExtensionValues, Key, UpdateRows } from '../plan/plan';
import type { ResourceTable, SqlResource } from '../resource';
import { tableOf } from '../resource-levels';
import { compileUpdate } from '../sql/compile-update';
import type { Match } from '../sql/match';
import { requireVisible, type WrittenRow } from './require-visible';
import { ownParent, requireAllChildrenShown, shownChildren, shownParents } from './shown-rows';
import { chunks } from './statement-size';
import { insertTableRow, selectKeys, selectRow, selectRowsByKey } from './stored-rows';
import { byKey, byLink, keyRow, linkTo, linkValues } from './table-links';
import { columnFilters } from './target-keys';
import { updateKeyedRows, updateRuns } from './update-rows';

export async function executeUpdate(
  tx: Executor,
  resource: SqlResource,
  updates: readonly UpdateRows[],
  children: readonly ChildChanges[],
  query?: CallerQuery,
): Promise<number> {
  let rowsAffected = 0;
  const written: WrittenRow[] = [];
  for (const run of await updateRuns(resource, updates, query)) {
    rowsAffected += run.statement
      ? await updateKeyedRows(tx, resource, run, query)
      : await updateParents(tx, resource, run.updates[0] as UpdateRows, query, written);
  }
  for (const change of children) rowsAffected += await updateChildren(tx, resource, change, query, written);
  if (query) await requireVisible(tx, resource, query, written, 'update');
  return rowsAffected;
}

async function updateParents(
  tx: Executor,
  resource: SqlResource,
  update: UpdateRows,
  query: CallerQuery | undefined,
  written: WrittenRow[],
): Promise<number> {
  const parent = tableOf(resource, 'Parent');
  const { target } = update;
  const shape = sqlShapeOf(resource.engine);
  if (target.kind === 'filter' && target.match.by === 'where') {
    // the query shows every row of its one table: one UPDATE with the filter as its WHERE, atomic by itself
    return (await tx.run(compileUpdate(shape, parent, update.parent, [], columnFilters(resource, target.filters))))
      .rowsAffected;
  }
  const keys = await shownParents(tx, resource, target, query);
  if (keys.length === 0) return 0;
  if (query) await requireAllChildrenShown(tx, resource, query, keys, 'update');
  // an update may set key columns too: the row is then checked under its new key
  for (const key of query ? keys : [])
    written.push({
      parentKey: parent.primaryKey.map((c, i) => (c in update.parent ? update.parent[c] : key[i]) ?? null),
    });
  let rowsAffected = 0;
  if (Object.keys(update.parent).length > 0) {
    for (const chunk of chunks(keys))
      rowsAffected += (await tx.run(compileUpdate(shape, parent, update.parent, [byKey(parent, chunk)]))).rowsAffected;
  }
  if (update.extensions.length === 0) return rowsAffected;
  const existing = await selectKeys(tx, resource, parent, parent.primaryKey, byKey(parent, keys));
  return rowsAffected + (await upsertExtensions(tx, resource, parent, update.extensions, existing));
}

/** Extension fields of rows that have no extension row yet create it; updated and created rows count. */
async function upsertExtensions(
  tx: Executor,
  resource: SqlResource,
  owner: ResourceTable,
  extensions: readonly ExtensionValues[],
  ownerKeys: readonly Key[],
): Promise<number> {
  if (ownerKeys.length === 0) return 0;
  let rowsAffected = 0;
  for (const ext of extensions) {
    const table = resource.tables[ext.table] as ResourceTable;
    const link = linkTo(table, owner);
    for (const chunk of chunks(ownerKeys))
      await tx.run(compileUpdate(sqlShapeOf(resource.engine), table, ext.values, [byLink(link, chunk)]));
    // the extension rows' link values as the database compares them to the owner's keys, not by their text
    const present = await selectRowsByKey(tx, resource, table, ownerKeys, link.columns);
    for (const [i, key] of ownerKeys.entries()) {
      if (present[i]) continue;
      await insertTableRow(tx, resource, table, { ...ext.values, ...linkValues(link, keyRow(owner.primaryKey, key)) });
    }
    rowsAffected += ownerKeys.length;
  }
  return rowsAffected;
}

async function updateChildren(
  tx: Executor,
  resource: SqlResource,
  change: ChildChanges,
  query: CallerQuery | undefined,
  written: WrittenRow[],
): Promise<number> {
  const parentKey = await ownParent(tx, resource, change, query);
  if (!parentKey) return 0;
  let rowsAffected = 0;
  for (const child of change.children) {
    const [childKey] = await shownChildren(tx, resource, query, parentKey, [child.key as Key]);
    if (!childKey) continue;
    rowsAffected += await updateChild(tx, resource, parentKey, childKey, child);
    if (query) written.push({ parentKey, childKey });
  }
  return rowsAffected;
}

/** The row that ties a child to its parent: the child row itself (one-to-many) or its association row. */
function tieOf(resource: SqlResource, parentKey: Key, childKey: Key): { table: ResourceTable; where: Match[] } {
  const parent = tableOf(resource, 'Parent');
  const child = tableOf(resource, 'Child');
  if (resource.kind !== 'many-to-many') {
    return { table: child, where: [byKey(child, [childKey]), byLink(linkTo(child, parent), [parentKey])] };
  }
  const join = tableOf(resource, 'Join');
  return { table: join, where: [byLink(linkTo(join, parent), [parentKey]), byLink(linkTo(join, child), [childKey])] };
}

/** One child of one parent (only if it is that parent's): its columns, extension rows and association columns. */
async function updateChild(
  tx: Executor,
  resource: SqlResource,
  parentKey: Key,
  key: Key,
  child: ChildRow,
): Promise<number> {
  const childTable = tableOf(resource, 'Child');
  const tie = tieOf(resource, parentKey, key);
  if (!(await selectRow(tx, resource, tie.table, tie.where))) return 0;
  let rowsAffected = 0;
  const set = withoutKey(child.child, childTable.primaryKey);
  if (Object.keys(set).length > 0) {
    rowsAffected += (
      await tx.run(compileUpdate(sqlShapeOf(resource.engine), childTable, set, [byKey(childTable, [key])]))
    ).rowsAffected;
  }
  if (Object.keys(child.join).length > 0) {
    rowsAffected += (await tx.run(compileUpdate(sqlShapeOf(resource.engine), tie.table, child.join, tie.where)))
      .rowsAffected;
  }
  return rowsAffected + (await upsertExtensions(tx, resource, childTable, child.extensions, [key]));
}

function withoutKey(values: ColumnValues, keyColumns: readonly string[]): ColumnValues {
  return Object.fromEntries(Object.entries(values).filter(([column]) => !keyColumns.includes(column)));
}
