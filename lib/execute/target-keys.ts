/**
 * The Parent rows a filter matches (an update or delete by query filters), as keys of the Parent table: the keys the
 * query selects, or, when it selects none, the keys of the rows equal to a matched row in every field the query
 * selects from the Parent table. `current`: read as committed now (the check after the rows were locked), not from
 * an earlier snapshot; rows found by their values are then also checked to be all shown (a hidden row with the same
 * values cannot be told apart).
 */
import type { Executor } from '../db/database';
import { sqlShapeOf } from '../db/engines/registry';
import { ConflictError } from '../errors';
import type { CallerQuery, Key, RowMatch, Target, TypedFilter } from '../plan/plan';
import type { SqlResource } from '../resource';
import { keyLabels, tableOf } from '../resource-levels';
import { compileSelect, compileSelectWhere, countLabel } from '../sql/compile-select';
import { keyText, type Value } from '../values';
import { valueMatches } from './statement-size';

/** `query`: the caller's query when the resource's uses claims, so a filter matches only rows it shows. */
export async function keysOf(
  tx: Executor,
  resource: SqlResource,
  target: Extract<Target, { kind: 'filter' }>,
  query: CallerQuery | undefined,
  current = false,
): Promise<Key[]> {
  const { match } = target;
  if (match.by === 'where') throw new Error('A filter on the table itself has no keys to find');
  const labels = match.by === 'key' ? (keyLabels(resource, tableOf(resource, 'Parent')) ?? []) : match.labels;
  const counted = match.by === 'values';
  const spec = { columns: labels, distinct: !counted, count: counted, filters: target.filters, orderBy: [] };
  const { rows } = await tx.run(
    compileSelect(sqlShapeOf(resource.engine), query ?? resource.query, { ...spec, current }),
  );
  const matched = rows.map((row) => labels.map((l) => row[l] ?? null));
  if (match.by === 'key') return matched;
  const shown = new Map(rows.map((row, i) => [keyText(matched[i] as Key), Number(row[countLabel])]));
  return keysByValues(tx, resource, match, matched as Value[][], current ? shown : undefined);
}

/**
 * The keys of the Parent rows equal to one of `values` in every column of `match`. `shown`: how many rows the
 * query shows with each of those values; a value that more rows of the table hold is refused, since a write would
 * reach a row the query hides. A locking read is what reads the table as committed now on MySQL.
 */
async function keysByValues(
  tx: Executor,
  resource: SqlResource,
  match: Extract<RowMatch, { by: 'values' }>,
  values: Value[][],
  shown: ReadonlyMap<string, number> | undefined,
): Promise<Key[]> {
  const parent = tableOf(resource, 'Parent');
  const found = new Map<string, Key>();
  const held = new Map<string, number>();
  for (const where of valueMatches(match.columns, values)) {
    const columns = [...parent.primaryKey, ...match.columns];
    const statement = compileSelectWhere(sqlShapeOf(resource.engine), parent, columns, [where], shown !== undefined);
    for (const row of (await tx.run(statement)).rows) {
      const key = parent.primaryKey.map((c) => row[c] ?? null);
      if (found.has(keyText(key))) continue;
      found.set(keyText(key), key);
      const value = keyText(match.columns.map((c) => row[c] ?? null));
      held.set(value, (held.get(value) ?? 0) + 1);
    }
  }
  for (const [value, count] of held) {
    if (shown && count > (shown.get(value) ?? 0)) throw hiddenTwins(resource, parent.name);
  }
  return [...found.values()];
}

function hiddenTwins(resource: SqlResource, table: string): ConflictError {
  return new ConflictError(
    'hidden_rows',
    `Rows that the filter matches in ${resource.name} have the same values, in every field it selects from ${table}, as rows it does not show, so they cannot be told apart: nothing was written. A query that selects the primary key of ${table} can write them`,
  );
}

/** The filters of a target whose WHERE is the filter itself, as conditions on the Parent table's columns. */
export function columnFilters(resource: SqlResource, filters: readonly TypedFilter[]) {
  return filters.map((filter) => ({
    column: resource.fields.find((f) => f.label === filter.label)?.column as string,
    filter,
  }));
}
