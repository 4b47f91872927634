/** DELETE of the rows of one table that match every Match and column filter. Pure. */
import type { ResourceTable } from '../resource';
import type { SqlShape } from '../sql-shape';
import type { CompiledQuery } from './compiled-query';
import { type ColumnFilter, type Match, whereClause } from './match';
import { ParamList } from './param-list';

export function compileDelete(
  shape: SqlShape,
  table: Pick<ResourceTable, 'schema' | 'table'>,
  where: readonly Match[],
  filters: readonly ColumnFilter[] = [],
): CompiledQuery {
  const params = new ParamList(shape);
  const text = `DELETE FROM ${shape.quoteTable(table)} WHERE ${whereClause(params, where, filters)}`;
  return { ...params.compile(text), target: { verb: 'delete', table, where, filters } };
}
