/**
 * An update of many body rows by key with few statements: consecutive rows, each by its own key, that set the same
 * parent columns and need no caller's check or extension row, go into one UPDATE (compile-update-rows) as
 * statement-size allows. Every other update is left to execute-update, one at a time, in its place in the order.
 * Many updates are grouped a slice at a time (map-in-slices).
 */
import type { Executor } from '../db/database';
import { sqlShapeOf } from '../db/engines/registry';
import { forEachInSlices, mapInSlices } from '../map-in-slices';
import type { CallerQuery, Key, UpdateRows } from '../plan/plan';
import type { SqlResource } from '../resource';
import { tableOf } from '../resource-levels';
import { compileUpdateRows } from '../sql/compile-update-rows';
import { checksRows, shownParents } from './shown-rows';
import { type ItemSize, paramBytes, sizedRuns } from './statement-size';
import { byKey } from './table-links';

/**
 * Body rows updated by key that can share a statement: by one key, parent columns only and none of the key (MySQL
 * assigns SET columns left to right, so a changed key would change which row a later CASE matches), no caller's
 * query.
 */
function batchable(update: UpdateRows, keyColumns: readonly string[], query: CallerQuery | undefined): boolean {
  const { target } = update;
  return (
    query === undefined &&
    keyColumns.length > 0 &&
    keyColumns.every((c) => !(c in update.parent)) &&
    target.kind === 'keys' &&
    target.keys.length === 1 &&
    update.extensions.length === 0 &&
    Object.keys(update.parent).length > 0
  );
}

/**
 * The updates in order, in runs that one statement each may carry: consecutive batchable updates that set the
 * same columns of different rows (a row named twice is updated, and counted, twice, in order), sized by
 * statement-size. Any other update is a run of its own.
 */
export async function updateRuns(
  resource: SqlResource,
  updates: readonly UpdateRows[],
  query: CallerQuery | undefined,
): Promise<UpdateRows[][]> {
  const parent = tableOf(resource, 'Parent');
  const groups: UpdateRows[][] = [];
  let columns = '';
  let keys = new Set<string>();
  await forEachInSlices(updates, (update) => {
    const last = groups[groups.length - 1];
    if (!batchable(update, parent.primaryKey, query)) {
      groups.push([update]);
      columns = '';
      return;
    }
    const set = JSON.stringify(Object.keys(update.parent));
    const key = JSON.stringify(keyOf(update).map(String));
    if (last && set === columns && !keys.has(key)) last.push(update);
    else {
      groups.push([update]);
      columns = set;
      keys = new Set();
    }
    keys.add(key);
  });
  const sizeOf = updateSize(resource);
  const runs = await mapInSlices(groups, (group) => (group.length === 1 ? [group] : sizedRuns(group, sizeOf)), {
    weight: (group) => group.length,
  });
  return runs.flat();
}

/** What one batchable update adds to a statement. */
function updateSize(resource: SqlResource): (update: UpdateRows) => ItemSize {
  const parent = tableOf(resource, 'Parent');
  const shape = sqlShapeOf(resource.engine);
  return (update) => {
    const key = keyOf(update);
    const match = key.reduce<number>(
      (n, v, i) => n + (parent.primaryKey[i]?.length ?? 0) + 12 + paramBytes(shape, v),
      0,
    );
    const values = Object.values(update.parent);
    const whens = values.reduce<number>((n, v) => n + match + 12 + paramBytes(shape, v), 0);
    // the key is listed twice: among the rows to update, and among the rows the query shows
    return { bytes: whens + 2 * match, params: (values.length + 2) * key.length + values.length };
  };
}

const keyOf = (update: UpdateRows): Key => (update.target.kind === 'keys' ? (update.target.keys[0] ?? []) : []);

/**
 * Batchable updates of different rows setting the same columns: one statement, each row matched once, and only
 * the rows the query shows (asked first, with the rows locked, unless it shows every row of its table).
 */
export async function updateKeyedRows(
  tx: Executor,
  resource: SqlResource,
  run: readonly UpdateRows[],
  query: CallerQuery | undefined,
): Promise<number> {
  const parent = tableOf(resource, 'Parent');
  const rows = run.map((update) => ({ key: keyOf(update), values: update.parent }));
  const shown = checksRows(resource, query)
    ? await shownParents(tx, resource, { kind: 'keys', keys: rows.map((row) => row.key) }, query)
    : undefined;
  if (shown?.length === 0) return 0;
  const only = shown ? [byKey(parent, shown)] : [];
  const statement = compileUpdateRows(sqlShapeOf(resource.engine), parent, parent.primaryKey, rows, only);
  return (await tx.run(statement)).rowsAffected;
}
