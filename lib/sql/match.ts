/**
 * Which rows of a table a statement touches: rows whose columns equal one of a list of keys, ANDed over every
 * Match of a WHERE. `byValue`: the values are a row's field values rather than a key, so NULL matches NULL
 * (rows found without a key). Pure.
 */
import type { Value } from '../values';
import type { ParamList } from './param-list';

export interface Match {
  readonly columns: readonly string[];
  readonly keys: readonly (readonly Value[])[];
  readonly byValue?: boolean;
}

export function whereClause(params: ParamList, where: readonly Match[]): string {
  return where.map((m) => (m.byValue ? valuesCondition : keyCondition)(params, m.columns, m.keys)).join(' AND ');
}

/** `col = $1 AND col2 = $2` for one key, or `(a, b) IN ((..), (..))` / `a IN (..)` for several. */
function keyCondition(params: ParamList, columns: readonly string[], keys: readonly (readonly Value[])[]): string {
  const cols = columns.map((c) => params.dialect.quoteIdentifier(c));
  if (keys.length === 1) {
    const key = keys[0] as readonly Value[];
    return cols.map((c, i) => `${c} = ${params.add(key[i] ?? null)}`).join(' AND ');
  }
  const tuple = (key: readonly Value[]) => {
    const items = columns.map((_, i) => params.add(key[i] ?? null));
    return cols.length === 1 ? (items[0] as string) : `(${items.join(', ')})`;
  };
  const left = cols.length === 1 ? (cols[0] as string) : `(${cols.join(', ')})`;
  return `${left} IN (${keys.map(tuple).join(', ')})`;
}

/** `((a = $1 AND b IS NULL) OR (...))`: rows equal to one of `rows` in every column, NULL matching NULL. */
function valuesCondition(params: ParamList, columns: readonly string[], rows: readonly (readonly Value[])[]): string {
  const cols = columns.map((c) => params.dialect.quoteIdentifier(c));
  const one = (row: readonly Value[]) =>
    cols
      .map((c, i) => {
        const value = row[i] ?? null;
        return value === null ? `${c} IS NULL` : `${c} = ${params.add(value)}`;
      })
      .join(' AND ');
  return rows.length === 1 ? one(rows[0] as readonly Value[]) : `(${rows.map((r) => `(${one(r)})`).join(' OR ')})`;
}
