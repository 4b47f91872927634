/**
 * The Parent rows a write addresses (U2, D2): listed keys; the keys of the rows a filter matches; or, when the
 * query selects no key, the rows equal to a matched row in every field the query selects from the Parent table.
 */
import type { Executor } from '../db/database';
import type { CallerQuery, Key, RowMatch, Target, TypedFilter } from '../plan/plan';
import type { SqlResource } from '../resource';
import { keyLabels, tableOf } from '../resource-levels';
import { compileSelect, compileSelectWhere } from '../sql/compile-select';
import { sqlDialect } from '../sql/dialect';
import type { Value } from '../values';
import { valueMatches } from './statement-size';

/** `query`: the caller's query when the resource's uses claims, so a filter matches only rows it shows. */
export async function keysOf(
  tx: Executor,
  resource: SqlResource,
  target: Target,
  query?: CallerQuery,
): Promise<readonly Key[]> {
  if (target.kind === 'keys') return target.keys;
  const dialect = sqlDialect(resource.dialect);
  const parent = tableOf(resource, 'Parent');
  if (target.match.by === 'key') {
    const labels = keyLabels(resource, parent) ?? [];
    const spec = { columns: labels, distinct: true, filters: target.filters, orderBy: [] };
    const { rows } = await tx.run(compileSelect(dialect, query ?? resource.query, spec));
    return rows.map((row) => labels.map((l) => row[l] ?? null));
  }
  const found = new Map<string, Key>();
  const values = await matchedValues(tx, resource, target.filters, target.match, query);
  for (const match of valueMatches(target.match.columns, values)) {
    const { rows } = await tx.run(compileSelectWhere(dialect, parent, parent.primaryKey, [match]));
    for (const row of rows) {
      const key = parent.primaryKey.map((c) => row[c] ?? null);
      found.set(JSON.stringify(key.map(String)), key);
    }
  }
  return [...found.values()];
}

/** The distinct values of the Parent fields that a filter target matches by value. */
export async function matchedValues(
  tx: Executor,
  resource: SqlResource,
  filters: readonly TypedFilter[],
  { labels }: Extract<RowMatch, { by: 'values' }>,
  query?: CallerQuery,
): Promise<Value[][]> {
  const spec = { columns: labels, distinct: true, filters, orderBy: [] };
  const { rows } = await tx.run(compileSelect(sqlDialect(resource.dialect), query ?? resource.query, spec));
  return rows.map((row) => labels.map((l) => row[l] ?? null));
}
