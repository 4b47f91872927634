/**
 * Table-level write statements: INSERT (RETURNING on PostgreSQL), UPDATE and DELETE by key, and SELECT by key
 * (MySQL's read-back of inserted rows). Values are always parameters. Pure.
 */
import type { CompiledQuery, Param } from '../db/types';
import type { ColumnValues } from '../plan/types';
import type { Dialect, ResourceTable } from '../resource';
import { keyCondition, ParamList, quoteIdentifier, quoteTable } from './dialect';

type Table = Pick<ResourceTable, 'schema' | 'table'>;

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
  keyColumns: readonly string[],
  keys: readonly (readonly Param[])[],
): CompiledQuery {
  const params = new ParamList(dialect);
  const set = Object.keys(values)
    .map((c) => `${quoteIdentifier(dialect, c)} = ${params.add(values[c] ?? null)}`)
    .join(', ');
  return params.compile(
    `UPDATE ${quoteTable(dialect, table)} SET ${set} WHERE ${keyCondition(dialect, params, keyColumns, keys)}`,
  );
}

export function compileDelete(
  dialect: Dialect,
  table: Table,
  keyColumns: readonly string[],
  keys: readonly (readonly Param[])[],
): CompiledQuery {
  const params = new ParamList(dialect);
  return params.compile(
    `DELETE FROM ${quoteTable(dialect, table)} WHERE ${keyCondition(dialect, params, keyColumns, keys)}`,
  );
}

/** `columns` of the rows of `table` whose `keyColumns` match one of `keys`. */
export function compileSelectByKey(
  dialect: Dialect,
  table: Table,
  columns: readonly string[] | '*',
  keyColumns: readonly string[],
  keys: readonly (readonly Param[])[],
): CompiledQuery {
  const params = new ParamList(dialect);
  const list = columns === '*' ? '*' : columns.map((c) => quoteIdentifier(dialect, c)).join(', ');
  return params.compile(
    `SELECT ${list} FROM ${quoteTable(dialect, table)} WHERE ${keyCondition(dialect, params, keyColumns, keys)}`,
  );
}
