/**
 * INSERT of one row. Where the database's SQL shape has it, the statement returns the row as stored (defaults and
 * generated values filled in); `returning` says so, so the caller need not ask the SQL shape again. Pure.
 */
import type { ColumnValues } from '../plan/plan';
import type { ResourceTable } from '../resource';
import type { SqlShape } from '../sql-shape';
import type { CompiledQuery } from './compiled-query';
import { ParamList } from './param-list';

/** `returning`: the statement gives the row back (the engine's shape says whether every server can; some can). */
export function compileInsert(
  shape: SqlShape,
  table: Pick<ResourceTable, 'schema' | 'table'>,
  values: ColumnValues,
  returning: boolean = shape.insertReturns,
): CompiledQuery {
  const params = new ParamList(shape);
  const columns = Object.keys(values);
  const body =
    columns.length === 0
      ? shape.insertDefaults
      : `(${columns.map((c) => shape.quoteIdentifier(c)).join(', ')}) VALUES (${columns.map((c) => params.add(values[c] ?? null)).join(', ')})`;
  const insert = `INSERT INTO ${shape.quoteTable(table)} ${body}`;
  return params.compile(returning ? shape.returning(insert) : insert, returning);
}
