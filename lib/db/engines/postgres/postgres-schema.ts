/**
 * A whole schema on PostgreSQL, for `npm run generate`: its tables (not views, nor the partitions of a partitioned
 * table) with their comments, then each table's columns and keys as describe-postgres reads a resource's tables
 * (postgres-catalog.ts), and the columns' comments.
 */
import type { Executor } from '../../database';
import type { DescribedSchema, DescribedTable } from '../../engine';
import { buildTable } from './describe-postgres';
import { loadAttributes, loadConstraints, oidList, type RelationRow } from './postgres-catalog';

export async function describePostgresSchema(db: Executor, schema?: string): Promise<DescribedSchema> {
  const { rows: named } = await db.run({
    text: 'SELECT COALESCE($1::text, current_schema()::text) AS schema, COALESCE($1::text = current_schema()::text, true) AS own',
    params: [schema ?? null],
  });
  const name = String(named[0]?.schema ?? 'public');
  const own = named[0]?.own === true;
  const { rows } = await db.run({
    text: `SELECT c.oid::int8 AS rel, c.relname::text AS table, obj_description(c.oid, 'pg_class') AS comment
 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname`,
    params: [name],
  });
  const relations = new Map(
    rows.map((r): [string, RelationRow] => [
      String(r.rel),
      { rel: String(r.rel), schema: name, table: String(r.table) },
    ]),
  );
  const relIds = [...relations.keys()];
  const attributes = await loadAttributes(db, relIds);
  const keys = await loadConstraints(db, relIds, attributes, relations);
  const comments = await loadColumnComments(db, relIds);
  const tables = rows.map((r): DescribedTable => {
    const rel = String(r.rel);
    const columnComments: Record<string, string> = {};
    for (const a of attributes.filter((a) => a.rel === rel)) {
      const comment = comments.get(`${rel}:${a.attnum}`);
      if (comment) columnComments[a.attname] = comment;
    }
    const comment = typeof r.comment === 'string' && r.comment.trim() !== '' ? r.comment : undefined;
    return {
      ...buildTable(relations.get(rel) as RelationRow, attributes, keys),
      columnComments,
      ...(comment ? { comment } : {}),
    };
  });
  return { schema: name, own, tables };
}

/** `rel:attnum` → the column's comment. */
async function loadColumnComments(db: Executor, relIds: readonly string[]): Promise<Map<string, string>> {
  if (relIds.length === 0) return new Map();
  const { rows } = await db.run({
    text: `SELECT objoid::int8 AS rel, objsubid::int8 AS attnum, description FROM pg_description
 WHERE classoid = 'pg_class'::regclass AND objsubid > 0 AND objoid IN (${oidList(relIds)})`,
    params: relIds,
  });
  return new Map(rows.map((r) => [`${String(r.rel)}:${String(r.attnum)}`, String(r.description)]));
}
