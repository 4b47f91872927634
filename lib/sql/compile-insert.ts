/**
 * INSERT of one row. Where the dialect supports it, the statement returns the row as stored (defaults and
 * generated values filled in); `returning` says so, so the caller need not ask the dialect again. Pure.
 */
import type { ColumnValues } from '../plan/plan';
import type { ResourceTable } from '../resource';
import type { CompiledQuery } from './compiled-query';
import type { SqlDialect } from './dialect';
import { ParamList } from './param-list';

export function compileInsert(
  dialect: SqlDialect,
  table: Pick<ResourceTable, 'schema' | 'table'>,
  values: ColumnValues,
): CompiledQuery {
  const params = new ParamList(dialect);
  const columns = Object.keys(values);
  const body =
    columns.length === 0
      ? dialect.insertDefaults
      : `(${columns.map((c) => dialect.quoteIdentifier(c)).join(', ')}) VALUES (${columns.map((c) => params.add(values[c] ?? null)).join(', ')})`;
  const returning = dialect.supportsReturning;
  return params.compile(
    `INSERT INTO ${dialect.quoteTable(table)} ${body}${returning ? ' RETURNING *' : ''}`,
    returning,
  );
}
