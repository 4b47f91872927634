/**
 * What describe-postgres reads from pg_catalog, one query each: the declared tables, the relations, their columns
 * (types, nullability, identity, generated columns, defaults, a domain's base type), their primary and foreign keys
 * and unique indexes, and the names of result types. Each takes the tables by oid.
 */
import type { UniqueKey } from '../../../resource';
import type { CatalogTable, Executor } from '../../database';

export interface AttributeRow {
  rel: string;
  attnum: string;
  attname: string;
  dbtype: string;
  /** The type's name, or for a domain its base type's: what limits the values. */
  basetype: string;
  typid: string;
  nullable: boolean;
  generated: boolean;
  readonly: boolean;
  hasdefault: boolean;
}

export interface RelationRow {
  rel: string;
  schema: string;
  table: string;
}

export async function resolveDeclared(
  db: Executor,
  names: readonly string[],
): Promise<Record<string, RelationRow | null>> {
  if (names.length === 0) return {};
  const values = names.map((_, i) => `($${i + 1}::text, ${i})`).join(', ');
  const { rows } = await db.run({
    text: `SELECT d.name, c.oid::int8 AS rel, n.nspname AS schema, c.relname AS table FROM (VALUES ${values}) AS d(name, i)
 LEFT JOIN pg_class c ON c.oid = to_regclass(d.name) LEFT JOIN pg_namespace n ON n.oid = c.relnamespace ORDER BY d.i`,
    params: names,
  });
  const out: Record<string, RelationRow | null> = {};
  for (const row of rows) {
    out[String(row.name)] =
      row.rel === null ? null : { rel: String(row.rel), schema: String(row.schema), table: String(row.table) };
  }
  return out;
}

export function oidList(relIds: readonly string[]): string {
  return relIds.map((_, i) => `$${i + 1}::oid`).join(', ');
}

export async function loadRelations(db: Executor, relIds: readonly string[]): Promise<Map<string, RelationRow>> {
  if (relIds.length === 0) return new Map();
  const { rows } = await db.run({
    text: `SELECT c.oid::int8 AS rel, n.nspname AS schema, c.relname AS table FROM pg_class c
 JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid IN (${oidList(relIds)})`,
    params: relIds,
  });
  return new Map(
    rows.map((r) => [String(r.rel), { rel: String(r.rel), schema: String(r.schema), table: String(r.table) }]),
  );
}

export async function loadAttributes(db: Executor, relIds: readonly string[]): Promise<AttributeRow[]> {
  if (relIds.length === 0) return [];
  const { rows } = await db.run({
    text: `SELECT a.attrelid::int8 AS rel, a.attnum::int8 AS attnum, a.attname, format_type(a.atttypid, a.atttypmod) AS dbtype,
 CASE WHEN t.typtype = 'd' THEN format_type(t.typbasetype, t.typtypmod) ELSE format_type(a.atttypid, a.atttypmod) END AS basetype,
 a.atttypid::int8 AS typid, NOT a.attnotnull AS nullable,
 (a.attidentity IN ('a', 'd') OR COALESCE(pg_get_expr(d.adbin, d.adrelid) LIKE 'nextval(%', false)) AS generated,
 (a.attgenerated <> '') AS readonly,
 (a.atthasdef OR a.attidentity <> '' OR a.attgenerated <> '' OR t.typdefault IS NOT NULL) AS hasdefault
 FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
 WHERE a.attrelid IN (${oidList(relIds)}) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attrelid, a.attnum`,
    params: relIds,
  });
  return rows.map((r) => ({
    rel: String(r.rel),
    attnum: String(r.attnum),
    attname: String(r.attname),
    dbtype: String(r.dbtype),
    basetype: String(r.basetype),
    typid: String(r.typid),
    nullable: r.nullable === true,
    generated: r.generated === true,
    readonly: r.readonly === true,
    hasdefault: r.hasdefault === true,
  }));
}

export interface Constraints {
  primaryKeys: Map<string, string[]>;
  foreignKeys: Map<string, CatalogTable['foreignKeys'][number][]>;
  uniqueKeys: Map<string, UniqueKey[]>;
}

export async function loadConstraints(
  db: Executor,
  relIds: readonly string[],
  attributes: readonly AttributeRow[],
  relations: Map<string, RelationRow>,
): Promise<Constraints> {
  const out: Constraints = { primaryKeys: new Map(), foreignKeys: new Map(), uniqueKeys: new Map() };
  if (relIds.length === 0) return out;
  // unique indexes come with the constraints (in one round trip): a UNIQUE or PRIMARY KEY constraint is its index,
  // and a duplicate is reported by the index's name, a unique index without a constraint included
  const { rows } = await db.run({
    text: `SELECT c.oid::int8 AS con, c.contype::text, c.conrelid::int8 AS rel, c.confrelid::int8 AS ref, k.attnum::int8 AS attnum,
 k.refattnum::int8 AS refattnum, NULL::text AS name, k.ord FROM pg_constraint c
 CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(attnum, refattnum, ord)
 WHERE c.contype IN ('p', 'f') AND c.conrelid IN (${oidList(relIds)})
UNION ALL
SELECT i.indexrelid::int8, 'u', i.indrelid::int8, NULL, k.attnum::int8, NULL, x.relname::text, k.ord FROM pg_index i
 JOIN pg_class x ON x.oid = i.indexrelid CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
 WHERE i.indisunique AND k.ord <= i.indnkeyatts AND i.indrelid IN (${oidList(relIds)})
ORDER BY 1, 8`,
    params: relIds,
  });
  const add = <T>(map: Map<string, T[]>, rel: string, item: T) => map.set(rel, [...(map.get(rel) ?? []), item]);
  for (const { kind, rel, ref, name, columns, refColumns } of constraintEntries(rows, attributes)) {
    const target = relations.get(ref);
    if (kind === 'p') out.primaryKeys.set(rel, columns);
    // a foreign key to a table outside the resource links nothing
    else if (kind === 'f' && target && !refColumns.includes(''))
      add(out.foreignKeys, rel, { columns, refSchema: target.schema, refTable: target.table, refColumns });
    // an index on an expression covers no column that a field could name
    else if (kind === 'u' && !columns.includes('')) add(out.uniqueKeys, rel, { name, columns });
  }
  return out;
}

interface ConstraintEntry {
  kind: string;
  rel: string;
  ref: string;
  name: string;
  columns: string[];
  refColumns: string[];
}

/**
 * One entry per constraint or index of the rows loadConstraints read, its columns in order ('' for an expression
 * or an unknown table's column).
 */
function constraintEntries(
  rows: readonly Readonly<Record<string, unknown>>[],
  attributes: readonly AttributeRow[],
): IterableIterator<ConstraintEntry> {
  const columnName = (rel: string, attnum: unknown) =>
    attributes.find((a) => a.rel === rel && a.attnum === String(attnum))?.attname ?? '';
  const found = new Map<string, ConstraintEntry>();
  for (const r of rows) {
    const rel = String(r.rel);
    // constraint and index oids are unique within their own catalog only
    const id = `${String(r.contype)}:${String(r.con)}`;
    const entry = found.get(id) ?? {
      kind: String(r.contype),
      rel,
      ref: String(r.ref),
      name: String(r.name),
      columns: [],
      refColumns: [],
    };
    entry.columns.push(columnName(rel, r.attnum));
    entry.refColumns.push(columnName(entry.ref, r.refattnum));
    found.set(id, entry);
  }
  return found.values();
}

export async function loadTypeNames(db: Executor, oids: readonly number[]): Promise<Map<number, string>> {
  const unique = [...new Set(oids)];
  if (unique.length === 0) return new Map();
  const { rows } = await db.run({
    text: `SELECT oid::int8 AS oid, format_type(oid, NULL) AS name FROM pg_type WHERE oid IN (${oidList(unique.map(String))})`,
    params: unique.map(String),
  });
  return new Map(rows.map((r) => [Number(r.oid), String(r.name)]));
}
