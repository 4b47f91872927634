/**
 * Updates (U1-U4): parent rows by key or filter with their extension rows (created when
 * missing); children under a parent, only those that belong to it (one-to-many: by its foreign key;
 * many-to-many: through an association row). "Updated" means matched, changed or not. With the caller's query
 * (claims), only rows it shows are updated, and each must still show after the update.
 */

import type { Executor } from '../db/database';
import { BadRequestError } from '../errors';
import type {
  CallerQuery,
  ChildChanges,
  ChildRow,
  ColumnValues,
  ExtensionValues,
  Key,
  RowMatch,
  TypedFilter,
  UpdateRows,
} from '../plan/plan';
import type { ResourceTable, SqlResource } from '../resource';
import { tableOf } from '../resource-levels';
import { compileInsert } from '../sql/compile-insert';
import { compileUpdate } from '../sql/compile-update';
import { sqlDialect } from '../sql/dialect';
import type { Match } from '../sql/match';
import { lockVisibleParents, requireVisible, visibleChildren, type WrittenRow } from './caller-rows';
import { chunks } from './statement-size';
import { requireParent, selectKeys, selectRow } from './stored-rows';
import { byKey, byLink, keyRow, linkTo, linkValues } from './table-links';
import { keysOf, matchedValues } from './target-keys';
import { updateKeyedRows, updateRuns } from './update-rows';

/** Parameters of one by-value UPDATE: well under every driver's limit (PostgreSQL allows 65,535). */
const maxValueParams = 30_000;

export async function executeUpdate(
  tx: Executor,
  resource: SqlResource,
  updates: readonly UpdateRows[],
  children: readonly ChildChanges[],
  query?: CallerQuery,
): Promise<number> {
  let rowsAffected = 0;
  const written: WrittenRow[] = [];
  for (const run of updateRuns(resource, updates, query)) {
    rowsAffected +=
      run.length === 1
        ? await updateParents(tx, resource, run[0] as UpdateRows, query, written)
        : await updateKeyedRows(tx, resource, run);
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
  if (target.kind === 'filter' && target.match.by === 'values' && !target.match.keyed) {
    return updateByValues(tx, resource, update.parent, target.filters, target.match);
  }
  const found = await keysOf(tx, resource, update.target, query);
  const keys = query ? await lockVisibleParents(tx, resource, query, found) : found;
  if (keys.length === 0) return 0;
  // an update may set key columns too: the row is then checked under its new key
  for (const key of query ? keys : [])
    written.push({
      parentKey: parent.primaryKey.map((c, i) => (c in update.parent ? update.parent[c] : key[i]) ?? null),
    });
  let rowsAffected = 0;
  if (Object.keys(update.parent).length > 0) {
    for (const chunk of chunks(keys))
      rowsAffected += (
        await tx.run(compileUpdate(sqlDialect(resource.dialect), parent, update.parent, [byKey(parent, chunk)]))
      ).rowsAffected;
  }
  if (update.extensions.length === 0) return rowsAffected;
  const existing = await selectKeys(tx, resource, parent, parent.primaryKey, byKey(parent, keys));
  return rowsAffected + (await upsertExtensions(tx, resource, parent, update.extensions, existing));
}

/**
 * U2 on a table without a primary key: the rows equal to a matched row in every selected field, changed in
 * one statement, so that a row changed to equal another matched row is not matched (and counted) twice.
 */
async function updateByValues(
  tx: Executor,
  resource: SqlResource,
  values: ColumnValues,
  filters: readonly TypedFilter[],
  match: Extract<RowMatch, { by: 'values' }>,
): Promise<number> {
  const parent = tableOf(resource, 'Parent');
  const rows = await matchedValues(tx, resource, filters, match);
  if (rows.length === 0) return 0;
  if (rows.length * match.columns.length > maxValueParams) {
    throw new BadRequestError(
      'bad_request',
      `The filter matches ${rows.length} different ${resource.rowName} rows; ${parent.name} has no primary key, so an update by filter may match at most ${Math.floor(maxValueParams / match.columns.length)}: narrow the filter`,
    );
  }
  const where = [{ columns: match.columns, keys: rows, byValue: true }];
  return (await tx.run(compileUpdate(sqlDialect(resource.dialect), parent, values, where))).rowsAffected;
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
      await tx.run(compileUpdate(sqlDialect(resource.dialect), table, ext.values, [byLink(link, chunk)]));
    const present = new Set(
      (await selectKeys(tx, resource, table, link.columns, byLink(link, ownerKeys))).map((k) =>
        JSON.stringify(k.map(String)),
      ),
    );
    for (const key of ownerKeys) {
      if (present.has(JSON.stringify(key.map(String)))) continue;
      await tx.run(
        compileInsert(sqlDialect(resource.dialect), table, {
          ...ext.values,
          ...linkValues(link, keyRow(owner.primaryKey, key)),
        }),
      );
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
  const { parentKey } = change;
  if (change.mustExist) await requireParent(tx, resource, parentKey, query);
  else if (query && (await lockVisibleParents(tx, resource, query, [parentKey])).length === 0) return 0;
  let rowsAffected = 0;
  for (const child of change.children) {
    const childKey = child.key as Key;
    if (query && (await visibleChildren(tx, resource, query, parentKey, [childKey])).length === 0) continue;
    rowsAffected += await updateChild(tx, resource, parentKey, child);
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
async function updateChild(tx: Executor, resource: SqlResource, parentKey: Key, child: ChildRow): Promise<number> {
  const childTable = tableOf(resource, 'Child');
  const key = child.key as Key;
  const tie = tieOf(resource, parentKey, key);
  if (!(await selectRow(tx, resource, tie.table, tie.where))) return 0;
  let rowsAffected = 0;
  const set = withoutKey(child.child, childTable.primaryKey);
  if (Object.keys(set).length > 0) {
    rowsAffected += (
      await tx.run(compileUpdate(sqlDialect(resource.dialect), childTable, set, [byKey(childTable, [key])]))
    ).rowsAffected;
  }
  if (Object.keys(child.join).length > 0) {
    rowsAffected += (await tx.run(compileUpdate(sqlDialect(resource.dialect), tie.table, child.join, tie.where)))
      .rowsAffected;
  }
  return rowsAffected + (await upsertExtensions(tx, resource, childTable, child.extensions, [key]));
}

function withoutKey(values: ColumnValues, keyColumns: readonly string[]): ColumnValues {
  return Object.fromEntries(Object.entries(values).filter(([column]) => !keyColumns.includes(column)));
}
