/**
 * Deletes (rows by key in the body, by filter or path key, or child rows under the parent in the path): parent rows
 * with their extension rows and, one-to-many, their children (with the children's extension rows) or, many-to-many,
 * their association rows only; or children listed under a parent: those child rows (one-to-many) or only their
 * associations (many-to-many). Children go before their parents, so no ON DELETE CASCADE is needed; every row
 * deleted is counted. With the caller's query (claims), only parents and children it shows are deleted, the parents
 * locked and checked before anything is deleted (a child deleted first could hide its parent from the query).
 */

import type { Executor } from '../db/database';
import { sqlShapeOf } from '../db/engines/registry';
import type { CallerQuery, ChildChanges, Key, Target } from '../plan/plan';
import type { SqlResource } from '../resource';
import { tableOf } from '../resource-levels';
import { compileDelete } from '../sql/compile-delete';
import type { Match } from '../sql/match';
import { ownParent, requireAllChildrenShown, shownChildren, shownParents } from './shown-rows';
import { chunks } from './statement-size';
import { selectKeys } from './stored-rows';
import { byKey, byLink, linkTo, ownedExtensions } from './table-links';
import { columnFilters } from './target-keys';

export async function executeDelete(
  tx: Executor,
  resource: SqlResource,
  target: Target,
  children: readonly ChildChanges[],
  query?: CallerQuery,
): Promise<number> {
  let rowsAffected = 0;
  for (const change of children) rowsAffected += await deleteChildren(tx, resource, change, query);
  if (target.kind === 'filter' && target.match.by === 'where') {
    // the query shows every row of its one table: one DELETE with the filter as its WHERE, atomic by itself
    const parent = tableOf(resource, 'Parent');
    const statement = compileDelete(sqlShapeOf(resource.engine), parent, [], columnFilters(resource, target.filters));
    return rowsAffected + (await tx.run(statement)).rowsAffected;
  }
  const keys = await shownParents(tx, resource, target, query);
  if (query) await requireAllChildrenShown(tx, resource, query, keys, 'delete');
  for (const chunk of chunks(keys)) rowsAffected += await deleteParents(tx, resource, chunk);
  return rowsAffected;
}

async function run(
  tx: Executor,
  resource: SqlResource,
  table: Parameters<typeof compileDelete>[1],
  where: readonly Match[],
): Promise<number> {
  return (await tx.run(compileDelete(sqlShapeOf(resource.engine), table, where))).rowsAffected;
}

async function deleteParents(tx: Executor, resource: SqlResource, keys: readonly Key[]): Promise<number> {
  const parent = tableOf(resource, 'Parent');
  let rowsAffected = 0;
  if (resource.kind === 'many-to-many') {
    const join = tableOf(resource, 'Join');
    rowsAffected += await run(tx, resource, join, [byLink(linkTo(join, parent), keys)]);
  } else if (resource.kind === 'one-to-many') {
    const child = tableOf(resource, 'Child');
    const link = linkTo(child, parent);
    if (child.primaryKey.length > 0) {
      const childKeys = await selectKeys(tx, resource, child, child.primaryKey, byLink(link, keys));
      rowsAffected += await deleteChildRows(tx, resource, childKeys);
    } else {
      rowsAffected += await run(tx, resource, child, [byLink(link, keys)]);
    }
  }
  for (const ext of ownedExtensions(resource, 'ParentExtension'))
    rowsAffected += await run(tx, resource, ext, [byLink(linkTo(ext, parent), keys)]);
  return rowsAffected + (await run(tx, resource, parent, [byKey(parent, keys)]));
}

/** One-to-many child rows by key, with their extension rows. */
async function deleteChildRows(tx: Executor, resource: SqlResource, keys: readonly Key[]): Promise<number> {
  const child = tableOf(resource, 'Child');
  let rowsAffected = 0;
  for (const chunk of chunks(keys)) {
    for (const ext of ownedExtensions(resource, 'ChildExtension'))
      rowsAffected += await run(tx, resource, ext, [byLink(linkTo(ext, child), chunk)]);
    rowsAffected += await run(tx, resource, child, [byKey(child, chunk)]);
  }
  return rowsAffected;
}

/** Children listed under a parent: only those of that parent. */
async function deleteChildren(
  tx: Executor,
  resource: SqlResource,
  change: ChildChanges,
  query: CallerQuery | undefined,
): Promise<number> {
  const parentKey = await ownParent(tx, resource, change, query);
  if (!parentKey) return 0;
  const parent = tableOf(resource, 'Parent');
  const child = tableOf(resource, 'Child');
  const keys = await shownChildren(
    tx,
    resource,
    query,
    parentKey,
    change.children.map((c) => c.key as Key),
  );
  if (keys.length === 0) return 0;
  if (resource.kind === 'many-to-many') {
    const join = tableOf(resource, 'Join');
    let rowsAffected = 0;
    for (const chunk of chunks(keys)) {
      rowsAffected += await run(tx, resource, join, [
        byLink(linkTo(join, parent), [parentKey]),
        byLink(linkTo(join, child), chunk),
      ]);
    }
    return rowsAffected;
  }
  const own = await selectKeys(tx, resource, child, child.primaryKey, byKey(child, keys), [
    byLink(linkTo(child, parent), [parentKey]),
  ]);
  return deleteChildRows(tx, resource, own);
}
