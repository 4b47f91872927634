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
import type { CompiledQuery } from '../sql/compiled-query';
import { keyText } from '../values';
import { checksRows, shownParents } from './shown-rows';
import { fittedStatements } from './statement-size';
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

/** Updates that one statement carries: one that is not batchable goes alone and has no statement here. */
export interface UpdateRun {
  readonly updates: readonly UpdateRows[];
  /** The UPDATE of batchable updates, as compiled for the rows the query may show (all of them, at most). */
  readonly statement?: CompiledQuery;
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
): Promise<UpdateRun[]> {
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
    const key = keyText(keyOf(update));
    if (last && set === columns && !keys.has(key)) last.push(update);
    else {
      groups.push([update]);
      columns = set;
      keys = new Set();
    }
    keys.add(key);
  });
  const shape = sqlShapeOf(resource.engine);
  // sized with the rows the query shows listed too, as many as the run has: the statement run is never longer
  const checks = checksRows(resource, query);
  const compile = (run: readonly UpdateRows[]) => compileKeyedRows(resource, run, checks ? run.map(keyOf) : undefined);
  const runs = await mapInSlices(
    groups,
    async (group): Promise<UpdateRun[]> =>
      group.length === 1
        ? [{ updates: group }]
        : (await fittedStatements(shape, group, compile)).map(({ items, statement }) => ({
            updates: items,
            statement,
          })),
    { weight: (group) => group.length },
  );
  return runs.flat();
}

const keyOf = (update: UpdateRows): Key => (update.target.kind === 'keys' ? (update.target.keys[0] ?? []) : []);

/** One UPDATE of batchable updates, over the rows among `shown` only when given. */
function compileKeyedRows(
  resource: SqlResource,
  run: readonly UpdateRows[],
  shown: readonly Key[] | undefined,
): CompiledQuery {
  const parent = tableOf(resource, 'Parent');
  const rows = run.map((update) => ({ key: keyOf(update), values: update.parent }));
  const only = shown ? [byKey(parent, shown)] : [];
  return compileUpdateRows(sqlShapeOf(resource.engine), parent, parent.primaryKey, rows, only);
}

/**
 * Batchable updates of different rows setting the same columns: one statement, each row matched once, and only
 * the rows the query shows (asked first, with the rows locked, unless it shows every row of its table).
 */
export async function updateKeyedRows(
  tx: Executor,
  resource: SqlResource,
  run: UpdateRun,
  query: CallerQuery | undefined,
): Promise<number> {
  if (!checksRows(resource, query) && run.statement) return (await tx.run(run.statement)).rowsAffected;
  const keys = run.updates.map(keyOf);
  const shown = await shownParents(tx, resource, { kind: 'keys', keys }, query);
  if (shown.length === 0) return 0;
  return (await tx.run(compileKeyedRows(resource, run.updates, shown))).rowsAffected;
}
