/**
 * The read statement: the definition's query as a derived table, filtered, ordered and paged by column labels
 * (spec 7 shows the same shape: labels, a WHERE clause, an ORDER BY clause). Pure.
 */
import type { CompiledQuery } from '../db/types';
import type { SelectSpec, TypedFilter } from '../plan/types';
import type { SqlResource } from '../resource';
import { likeExpression, ParamList, pagingClause, quoteIdentifier } from './dialect';

const operators = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' } as const;

export function compileSelect(resource: Pick<SqlResource, 'dialect' | 'query'>, spec: SelectSpec): CompiledQuery {
  const { dialect } = resource;
  const params = new ParamList(dialect);
  const column = (label: string) => `_r.${quoteIdentifier(dialect, label)}`;
  const list = spec.columns ? spec.columns.map(column).join(', ') : '*';
  const where = spec.filters.map((f) => condition(f, column(f.label), params, dialect));
  const text = [
    `SELECT ${spec.distinct ? 'DISTINCT ' : ''}${list} FROM (${resource.query}) AS _r`,
    where.length ? ` WHERE ${where.join(' AND ')}` : '',
    spec.orderBy.length ? ` ORDER BY ${spec.orderBy.map(column).join(', ')}` : '',
    pagingClause(dialect, params, spec.limit, spec.offset),
  ].join('');
  return params.compile(text);
}

function condition(filter: TypedFilter, target: string, params: ParamList, dialect: SqlResource['dialect']): string {
  switch (filter.op) {
    case 'null':
      return `${target} IS NULL`;
    case 'notnull':
      return `${target} IS NOT NULL`;
    case 'like':
      return likeExpression(dialect, target, filter.text, params.add(filter.value));
    case 'in':
      return `${target} IN (${filter.values.map((v) => params.add(v)).join(', ')})`;
    default:
      return `${target} ${operators[filter.op]} ${params.add(filter.value)}`;
  }
}
