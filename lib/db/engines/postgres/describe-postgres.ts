/**
 * Fields, keys and types on PostgreSQL: the query's columns come from the RowDescription of `<query> LIMIT 0` (table
 * oid and attribute number of every column, 0 for expressions); tables, keys, generated columns, defaults, foreign
 * keys and unique indexes from pg_catalog (postgres-catalog.ts). Runs once per resource and container; the caller
 * caches the result.
 */
import type postgres from 'postgres';
import { classifyDbError } from '../../classify-error';
import type { CatalogColumn, CatalogTable, Executor, QueryCatalog, QueryColumn } from '../../database';
import {
  type AttributeRow,
  type Constraints,
  loadAttributes,
  loadConstraints,
  loadRelations,
  loadTypeNames,
  type RelationRow,
  resolveDeclared,
} from './postgres-catalog';
import { postgresErrors } from './postgres-errors';
import { postgresLimits, postgresValueType } from './postgres-value-types';

export async function describePostgres(
  db: Executor,
  sql: postgres.Sql,
  query: string,
  tableNames: readonly string[],
): Promise<QueryCatalog> {
  const probe = { text: `${query}\nLIMIT 0`, params: [] };
  // postgres.js exposes the RowDescription (table oid, attnum, type) only on its own result objects
  const described = await sql.unsafe(probe.text).catch((error: unknown) => {
    throw classifyDbError(postgresErrors, error, probe);
  });
  const resultColumns = described.columns ?? [];
  const declared = await resolveDeclared(db, tableNames);
  const relIds = [
    ...new Set([
      ...Object.values(declared)
        .filter((r): r is RelationRow => r !== null)
        .map((r) => r.rel),
      ...resultColumns.filter((c) => c.table !== 0).map((c) => String(c.table)),
    ]),
  ];
  const relations = await loadRelations(db, relIds);
  const attributes = await loadAttributes(db, relIds);
  const keys = await loadConstraints(db, relIds, attributes, relations);
  const typeNames = await loadTypeNames(
    db,
    resultColumns.map((c) => c.type),
  );
  const tables: Record<string, CatalogTable | null> = {};
  for (const name of tableNames) {
    const rel = declared[name];
    tables[name] = rel ? buildTable(rel, attributes, keys) : null;
  }
  return { columns: resultColumns.map((c) => queryColumn(c, attributes, relations, typeNames)), tables };
}

/** A column of the probe's RowDescription, with the table column it comes from (none for an expression). */
function queryColumn(
  c: postgres.ColumnList<string>[number],
  attributes: readonly AttributeRow[],
  relations: Map<string, RelationRow>,
  typeNames: Map<number, string>,
): QueryColumn {
  const attribute = attributes.find((a) => a.rel === String(c.table) && a.attnum === String(c.number));
  const relation = relations.get(String(c.table));
  return {
    label: c.name,
    schema: relation?.schema ?? null,
    table: attribute && relation ? relation.table : null,
    column: attribute?.attname ?? null,
    dbType: attribute?.dbtype ?? typeNames.get(c.type) ?? `oid ${c.type}`,
    type: postgresValueType(c.type),
  };
}

export function buildTable(rel: RelationRow, attributes: readonly AttributeRow[], keys: Constraints): CatalogTable {
  const columns = attributes
    .filter((a) => a.rel === rel.rel)
    .map((a): CatalogColumn => {
      const limits = postgresLimits(a.basetype);
      return {
        name: a.attname,
        dbType: a.dbtype,
        type: postgresValueType(Number(a.typid)),
        nullable: a.nullable,
        generated: a.generated,
        readOnly: a.readonly,
        hasDefault: a.hasdefault,
        ...(limits ? { limits } : {}),
      };
    });
  return {
    schema: rel.schema,
    table: rel.table,
    columns,
    primaryKey: keys.primaryKeys.get(rel.rel) ?? [],
    foreignKeys: keys.foreignKeys.get(rel.rel) ?? [],
    uniqueKeys: keys.uniqueKeys.get(rel.rel) ?? [],
  };
}
