/**
 * SELECT statements: the resource's read (its query as a derived table, filtered, ordered and paged by column
 * labels: labels, a WHERE clause, an ORDER BY clause) or the count of its rows, and the rows of one table that match
 * every Match. A query with claims binds the caller's values in place of its placeholders, as its first parameters,
 * compared as the database's SQL shape compares a claim exactly. Pure.
 */
import type { CallerQuery, OrderTerm, SelectSpec } from '../plan/plan';
import type { ResourceTable } from '../resource';
import type { SqlShape } from '../sql-shape';
import type { CompiledQuery } from './compiled-query';
import { filterCondition } from './filter-condition';
import { keysetCondition } from './keyset-condition';
import { type ColumnFilter, type Match, whereClause } from './match';
import { ParamList } from './param-list';

/** The label of the row count of a SelectSpec with `count`. */
export const countLabel = '_rrs_count';

export function compileSelect(shape: SqlShape, query: string | CallerQuery, spec: SelectSpec): CompiledQuery {
  const params = new ParamList(shape);
  const column = (label: string) => `_r.${shape.quoteIdentifier(label)}`;
  const orderTerm = (term: string | OrderTerm) =>
    typeof term === 'string' ? column(term) : shape.orderTerm(column(term.label), term.descending);
  const columns = spec.columns ? spec.columns.map(column).join(', ') : '';
  const counted = spec.count ? `COUNT(*) AS ${shape.quoteIdentifier(countLabel)}` : '';
  const list = [columns, counted].filter(Boolean).join(', ') || '*';
  const from = spec.current ? shape.currentRead(queryText(params, query)) : queryText(params, query);
  const where = spec.filters.map((f) => filterCondition(f, column(f.label), params));
  // the derived table is the only table of the FROM clause, so its labels need no `_r.` here
  if (spec.keys) where.push(whereClause(params, [{ columns: spec.keys.labels, keys: spec.keys.keys }]));
  if (spec.after) where.push(keysetCondition(params, spec.orderBy, spec.after, column));
  const text = [
    // `)` on a line of its own: a comment that ends the query (`--`, MySQL's `#`) stops at the line's end
    `SELECT ${spec.distinct ? 'DISTINCT ' : ''}${list} FROM (${from}\n) AS _r`,
    where.length ? ` WHERE ${where.join(' AND ')}` : '',
    counted && columns ? ` GROUP BY ${columns}` : '',
    spec.orderBy.length ? ` ORDER BY ${spec.orderBy.map(orderTerm).join(', ')}` : '',
    shape.paging(
      spec.limit === undefined ? undefined : params.add(spec.limit),
      spec.offset === undefined ? undefined : params.add(spec.offset),
    ),
  ].join('');
  return params.compile(text);
}

/** The query's text; a query with claims takes a placeholder, bound to the caller's value, in place of each. */
function queryText(params: ParamList, query: string | CallerQuery): string {
  if (typeof query === 'string') return query;
  return query.parts
    .map((part, i) => {
      if (i === 0) return part;
      const value = query.values[i - 1] ?? null;
      return `${params.shape.claimValue(params.add(value), value)}${part}`;
    })
    .join('');
}

/**
 * The `columns` (or every column) of the rows of `table` that match every Match. `lock`: the rows are locked
 * until the transaction ends, so no other request changes them between a check and a write.
 */
export function compileSelectWhere(
  shape: SqlShape,
  table: Pick<ResourceTable, 'schema' | 'table'>,
  columns: readonly string[] | '*',
  where: readonly Match[],
  lock = false,
  filters: readonly ColumnFilter[] = [],
): CompiledQuery {
  const params = new ParamList(shape);
  const list = columns === '*' ? '*' : columns.map((c) => shape.quoteIdentifier(c)).join(', ');
  const select = `SELECT ${list} FROM ${shape.quoteTable(table)} WHERE ${whereClause(params, where, filters)}`;
  return params.compile(lock ? shape.lockForUpdate(select) : select);
}
