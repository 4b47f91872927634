/** DELETE of the rows of one table that match every Match and column filter. Pure. */
import type { ResourceTable } from '../resource';
import type { CompiledQuery } from './compiled-query';
import type { SqlDialect } from './dialect';
import { type ColumnFilter, type Match, whereClause } from './match';
import { ParamList } from './param-list';

export function compileDelete(
  dialect: SqlDialect,
  table: Pick<ResourceTable, 'schema' | 'table'>,
  where: readonly Match[],
  filters: readonly ColumnFilter[] = [],
): CompiledQuery {
  const params = new ParamList(dialect);
  return params.compile(`DELETE FROM ${dialect.quoteTable(table)} WHERE ${whereClause(params, where, filters)}`);
}
