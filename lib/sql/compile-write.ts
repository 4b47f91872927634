/**
 * Table-level write statements: INSERT (RETURNING on PostgreSQL), UPDATE, DELETE and SELECT of the rows that
 * match every given Match (column list = one of the keys). Values are always parameters. Pure.
 */
import type { CompiledQuery, Param } from '../db/types';
import type { ColumnValues } from '../plan/types';
import type { Dialect, ResourceTable } from '../resource';
import { keyCondition, ParamList, quoteIdentifier, quoteTable, valuesCondition } from './dialect';

type Table = Pick<ResourceTable, 'schema' | 'table'>;

/**
 * Rows whose `columns` equal one of `keys` (each key lists values in `columns` order). `byValue`: the values are
 * a row's field values rather than a key, so NULL matches NULL.
 */
export interface Match {
  readonly columns: readonly string[];
  readonly keys: readonly (readonly Param[])[];
  readonly byValue?: boolean;
}

function whereClause(dialect: Dialect, params: ParamList, where: readonly Match[]): string {
  return where
    .map((m) => (m.byValue ? valuesCondition : keyCondition)(dialect, params, m.columns, m.keys))
    .join(' AND ');
}

export function compileInsert(dialect: Dialect, table: Table, values: ColumnValues): CompiledQuery {
  const params = new ParamList(dialect);
  const columns = Object.keys(values);
  const target = quoteTable(dialect, table);
  const body =
    columns.length === 0
      ? dialect === 'postgres'
        ? 'DEFAULT VALUES'
        : '() VALUES ()'
      : `(${columns.map((c) => quoteIdentifier(dialect, c)).join(', ')}) VALUES (${columns.map((c) => params.add(values[c] ?? null)).join(', ')})`;
  return params.compile(`INSERT INTO ${target} ${body}${dialect === 'postgres' ? ' RETURNING *' : ''}`);
}

export function compileUpdate(
  dialect: Dialect,
  table: Table,
  values: ColumnValues,
  where: readonly Match[],
): CompiledQuery {
  const params = new ParamList(dialect);
  const set = Object.keys(values)
    .map((c) => `${quoteIdentifier(dialect, c)} = ${params.add(values[c] ?? null)}`)
    .join(', ');
  return params.compile(`UPDATE ${quoteTable(dialect, table)} SET ${set} WHERE ${whereClause(dialect, params, where)}`);
}

export function compileDelete(dialect: Dialect, table: Table, where: readonly Match[]): CompiledQuery {
  const params = new ParamList(dialect);
  return params.compile(`DELETE FROM ${quoteTable(dialect, table)} WHERE ${whereClause(dialect, params, where)}`);
}

export function compileSelectWhere(
  dialect: Dialect,
  table: Table,
  columns: readonly string[] | '*',
  where: readonly Match[],
): CompiledQuery {
  const params = new ParamList(dialect);
  const list = columns === '*' ? '*' : columns.map((c) => quoteIdentifier(dialect, c)).join(', ');
  return params.compile(
    `SELECT ${list} FROM ${quoteTable(dialect, table)} WHERE ${whereClause(dialect, params, where)}`,
  );
}
