/** UPDATE of the rows of one table that match every Match and column filter. Values are always parameters. Pure. */
import type { ColumnValues } from '../plan/plan';
import type { ResourceTable } from '../resource';
import type { SqlShape } from '../sql-shape';
import type { CompiledQuery } from './compiled-query';
import { type ColumnFilter, type Match, whereClause } from './match';
import { ParamList } from './param-list';

export function compileUpdate(
  shape: SqlShape,
  table: Pick<ResourceTable, 'schema' | 'table'>,
  values: ColumnValues,
  where: readonly Match[],
  filters: readonly ColumnFilter[] = [],
): CompiledQuery {
  const params = new ParamList(shape);
  const set = Object.keys(values)
    .map((c) => `${shape.quoteIdentifier(c)} = ${params.add(values[c] ?? null)}`)
    .join(', ');
  const text = `UPDATE ${shape.quoteTable(table)} SET ${set} WHERE ${whereClause(params, where, filters)}`;
  return { ...params.compile(text), target: { verb: 'update', table, where, filters, set: values } };
}
