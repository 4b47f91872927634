/**
 * UPDATE of many rows of one table by key in one statement, each row to values of its own: every column set is
 * `CASE WHEN <key of row 1> THEN <its value> ... ELSE <the column> END`, over the rows whose key is listed. Plain
 * SQL that PostgreSQL and MySQL read alike; the ELSE gives the CASE the column's type, so PostgreSQL reads every
 * parameter in it. The keys must differ (each row is matched once); `only` narrows the rows further. Pure.
 */
import type { ColumnValues, Key } from '../plan/plan';
import type { ResourceTable } from '../resource';
import type { SqlShape } from '../sql-shape';
import type { CompiledQuery } from './compiled-query';
import { type Match, whereClause } from './match';
import { ParamList } from './param-list';

export interface KeyedValues {
  readonly key: Key;
  readonly values: ColumnValues;
}

export function compileUpdateRows(
  shape: SqlShape,
  table: Pick<ResourceTable, 'schema' | 'table'>,
  keyColumns: readonly string[],
  rows: readonly KeyedValues[],
  only: readonly Match[] = [],
): CompiledQuery {
  const columns = Object.keys(rows[0]?.values ?? {});
  if (columns.length === 0 || keyColumns.length === 0) throw new Error('compileUpdateRows needs columns and a key');
  const params = new ParamList(shape);
  const keyCols = keyColumns.map((c) => shape.quoteIdentifier(c));
  const set = columns.map((column) => {
    const col = shape.quoteIdentifier(column);
    const whens = rows.map(({ key, values }) => {
      const match = keyCols.map((c, i) => `${c} = ${params.add(key[i] ?? null)}`).join(' AND ');
      return `WHEN ${match} THEN ${params.add(values[column] ?? null)}`;
    });
    return `${col} = CASE ${whens.join(' ')} ELSE ${col} END`;
  });
  const matches = [{ columns: keyColumns, keys: rows.map((r) => r.key) }, ...only];
  const text = `UPDATE ${shape.quoteTable(table)} SET ${set.join(', ')} WHERE ${whereClause(params, matches)}`;
  return { ...params.compile(text), target: { verb: 'update', table, where: matches, filters: [], set: rows } };
}
