/**
 * Fields, keys and types on MySQL/MariaDB: the query's columns come from the column definitions of `<query> LIMIT 0` (org_table and
 * org_name of every column, empty for expressions); tables, keys, auto_increment and generated columns, defaults,
 * foreign keys and unique keys from information_schema. Runs once per resource and container; the caller caches the result.
 */
import type mysql from 'mysql2/promise';
import type { UniqueKey } from '../../../resource';
import { classifyDbError } from '../../classify-error';
import type { CatalogColumn, CatalogTable, Executor, QueryCatalog, QueryColumn } from '../../database';
import { mysqlErrors } from './mysql-errors';
import { mysqlLimits, mysqlProtocolType, mysqlValueType } from './mysql-value-types';

export interface TableId {
  schema: string;
  table: string;
}

export async function describeMysql(
  db: Executor,
  pool: Pick<mysql.Pool, 'query'>,
  query: string,
  tableNames: readonly string[],
): Promise<QueryCatalog> {
  const probe = { text: `${query}\nLIMIT 0`, params: [] };
  const [, fields] = await pool.query(probe.text).catch((error: unknown) => {
    throw classifyDbError(mysqlErrors, error, probe);
  });
  const current = String((await db.run({ text: 'SELECT DATABASE() AS db', params: [] })).rows[0]?.db ?? '');
  const declared = Object.fromEntries(tableNames.map((name) => [name, splitName(name, current)]));
  const ids = uniqueIds([
    ...Object.values(declared),
    ...(fields ?? []).filter((f) => f.orgTable).map((f) => ({ schema: f.db ?? current, table: f.orgTable ?? '' })),
  ]);
  const catalog = await loadTables(db, ids);
  const columns = (fields ?? []).map((f): QueryColumn => {
    const table = f.orgTable ? catalog.get(key({ schema: f.db ?? current, table: f.orgTable })) : undefined;
    const column = table?.columns.find((c) => c.name.toLowerCase() === (f.orgName ?? '').toLowerCase());
    const [type, dbType] = column
      ? [column.type, column.dbType]
      : mysqlProtocolType(f.columnType ?? 253, f.characterSet ?? 0);
    return {
      label: f.name,
      schema: table ? table.schema : null,
      table: table && column ? table.table : null,
      column: column?.name ?? null,
      dbType,
      type,
    };
  });
  const tables: Record<string, CatalogTable | null> = {};
  for (const [name, id] of Object.entries(declared)) tables[name] = catalog.get(key(id)) ?? null;
  return { columns, tables };
}

/** `db.table` or `table` (in the connection's database). */
function splitName(name: string, current: string): TableId {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? { schema: current, table: name } : { schema: name.slice(0, dot), table: name.slice(dot + 1) };
}

export const key = (id: TableId) => `${id.schema}\u0000${id.table}`.toLowerCase();

function uniqueIds(ids: readonly TableId[]): TableId[] {
  return [...new Map(ids.map((id) => [key(id), id])).values()];
}

export async function loadTables(db: Executor, ids: readonly TableId[]): Promise<Map<string, CatalogTable>> {
  if (ids.length === 0) return new Map();
  const where = ids.map(() => '(table_schema = ? AND table_name = ?)').join(' OR ');
  const params = ids.flatMap((id) => [id.schema, id.table]);
  const { rows: columnRows } = await db.run({
    text: `SELECT table_schema AS s, table_name AS t, column_name AS c, data_type AS dt, column_type AS ct,
 is_nullable AS n, extra AS e, column_default AS d FROM information_schema.columns WHERE ${where}
 ORDER BY table_schema, table_name, ordinal_position`,
    params,
  });
  // the primary key, the unique keys (referencing nothing) and the foreign keys
  const { rows: keyRows } = await db.run({
    text: `SELECT table_schema AS s, table_name AS t, constraint_name AS k, column_name AS c,
 referenced_table_schema AS rs, referenced_table_name AS rt, referenced_column_name AS rc
 FROM information_schema.key_column_usage WHERE ${where}
 ORDER BY table_schema, table_name, constraint_name, ordinal_position`,
    params,
  });
  const tables = new Map<string, CatalogTable>();
  for (const id of ids) {
    const own = (r: Readonly<Record<string, unknown>>) => key({ schema: String(r.s), table: String(r.t) }) === key(id);
    const cols = columnRows.filter(own);
    if (cols.length === 0) continue;
    const keys = keyRows.filter(own);
    const unique = keys.filter((r) => r.rt === null);
    tables.set(key(id), {
      schema: String(cols[0]?.s),
      table: String(cols[0]?.t),
      columns: cols.map(toColumn),
      primaryKey: unique.filter((r) => r.k === 'PRIMARY').map((r) => String(r.c)),
      foreignKeys: foreignKeys(keys.filter((r) => r.rt !== null)),
      uniqueKeys: uniqueKeys(unique),
    });
  }
  return tables;
}

function toColumn(r: Readonly<Record<string, unknown>>): CatalogColumn {
  const extra = String(r.e ?? '').toLowerCase();
  const type = mysqlValueType(String(r.dt), String(r.ct));
  const limits = mysqlLimits(type, String(r.ct));
  const generated = extra.includes('auto_increment') || /^nextval\(/i.test(String(r.d ?? ''));
  const readOnly = extra.includes('generated') && !extra.includes('default_generated');
  return {
    name: String(r.c),
    dbType: String(r.ct),
    type,
    nullable: r.n === 'YES',
    generated,
    readOnly,
    // column_default is NULL for a column without DEFAULT (MariaDB spells an explicit DEFAULT NULL 'NULL')
    hasDefault: r.d !== null || generated || readOnly,
    ...(limits ? { limits } : {}),
  };
}

function uniqueKeys(rows: readonly Readonly<Record<string, unknown>>[]): UniqueKey[] {
  const byName = new Map<string, string[]>();
  for (const r of rows) byName.set(String(r.k), [...(byName.get(String(r.k)) ?? []), String(r.c)]);
  return [...byName].map(([name, columns]) => ({ name, columns }));
}

function foreignKeys(rows: readonly Readonly<Record<string, unknown>>[]): CatalogTable['foreignKeys'] {
  const byName = new Map<string, { columns: string[]; refSchema: string; refTable: string; refColumns: string[] }>();
  for (const r of rows) {
    const fk = byName.get(String(r.k)) ?? {
      columns: [],
      refSchema: String(r.rs),
      refTable: String(r.rt),
      refColumns: [],
    };
    fk.columns.push(String(r.c));
    fk.refColumns.push(String(r.rc));
    byName.set(String(r.k), fk);
  }
  return [...byName.values()];
}
