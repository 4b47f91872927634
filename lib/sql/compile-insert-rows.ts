/**
 * INSERT of many rows of one table in one statement: one VALUES list per row over the same columns, where a
 * column that a row does not give takes its DEFAULT (as it would in a statement of its own). `returning`: the
 * statement returns the rows as stored, in the order of the VALUES lists. How many rows go into one statement
 * is decided by lib/execute/statement-size, not here. Pure.
 */
import { forEachInSlices } from '../map-in-slices';
import type { ColumnValues } from '../plan/plan';
import type { ResourceTable } from '../resource';
import type { SqlShape } from '../sql-shape';
import type { CompiledQuery } from './compiled-query';
import { ParamList } from './param-list';

export function compileInsertRows(
  shape: SqlShape,
  table: Pick<ResourceTable, 'schema' | 'table'>,
  columns: readonly string[],
  rows: readonly ColumnValues[],
  returning: boolean = shape.insertReturns,
): CompiledQuery {
  if (columns.length === 0 || rows.length === 0) throw new Error('compileInsertRows needs columns and rows');
  const params = new ParamList(shape);
  const lists = rows.map(
    (row) => `(${columns.map((c) => (c in row ? params.add(row[c] ?? null) : 'DEFAULT')).join(', ')})`,
  );
  const insert = `INSERT INTO ${shape.quoteTable(table)} (${columns.map((c) => shape.quoteIdentifier(c)).join(', ')}) VALUES ${lists.join(', ')}`;
  return params.compile(returning ? shape.returning(insert) : insert, returning);
}

/** The columns that any of `rows` gives, in the order they first appear; many rows a slice at a time. */
export async function insertColumns(rows: readonly ColumnValues[]): Promise<string[]> {
  const columns = new Set<string>();
  await forEachInSlices(rows, (row) => {
    for (const column of Object.keys(row)) columns.add(column);
  });
  return [...columns];
}
