/**
 * Which rows of a table a statement touches: rows whose columns equal one of a list of keys, ANDed over every
 * Match of a WHERE, and filters on its columns. `byValue`: the values are a row's field values rather than a key, so NULL matches NULL
 * (rows found without a key). Pure.
 */
import type { TypedFilter } from '../plan/plan';
import type { Value } from '../values';
import { filterCondition } from './filter-condition';
import type { ParamList } from './param-list';

export interface Match {
  readonly columns: readonly string[];
  readonly keys: readonly (readonly Value[])[];
  readonly byValue?: boolean;
}

/** A filter of the query grammar on a column of the table a statement writes. */
export interface ColumnFilter {
  readonly column: string;
  readonly filter: TypedFilter;
}

/**
 * Every Match, then every column filter, ANDed. A statement always has one: an UPDATE or DELETE without a WHERE
 * would write the whole table, so none is ever compiled.
 */
export function whereClause(params: ParamList, where: readonly Match[], filters: readonly ColumnFilter[] = []): string {
  if (where.length === 0 && filters.length === 0) throw new Error('A statement without a condition is never compiled');
  return [
    ...where.map((m) => (m.byValue ? valuesCondition : keyCondition)(params, m.columns, m.keys)),
    ...filters.map((f) => filterCondition(f.filter, params.shape.quoteIdentifier(f.column), params)),
  ].join(' AND ');
}

/** `col = $1 AND col2 = $2` for one key; for several, the SQL shape's IN list (`a IN (..)`, `(a, b) IN (..)`). */
function keyCondition(params: ParamList, columns: readonly string[], keys: readonly (readonly Value[])[]): string {
  const cols = columns.map((c) => params.shape.quoteIdentifier(c));
  if (keys.length === 1) {
    const key = keys[0] as readonly Value[];
    return cols.map((c, i) => `${c} = ${params.add(key[i] ?? null)}`).join(' AND ');
  }
  return params.shape.keyIn(
    cols,
    keys.map((key) => columns.map((_, i) => params.add(key[i] ?? null))),
  );
}

/** `((a = $1 AND b IS NULL) OR (...))`: rows equal to one of `rows` in every column, NULL matching NULL. */
function valuesCondition(params: ParamList, columns: readonly string[], rows: readonly (readonly Value[])[]): string {
  const cols = columns.map((c) => params.shape.quoteIdentifier(c));
  const one = (row: readonly Value[]) =>
    cols
      .map((c, i) => {
        const value = row[i] ?? null;
        return value === null ? `${c} IS NULL` : `${c} = ${params.add(value)}`;
      })
      .join(' AND ');
  return rows.length === 1 ? one(rows[0] as readonly Value[]) : `(${rows.map((r) => `(${one(r)})`).join(' OR ')})`;
}
