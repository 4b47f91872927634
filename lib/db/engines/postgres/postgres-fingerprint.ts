/**
 * The statement that reads the shape of tables on PostgreSQL for a catalog snapshot's fingerprint
 * (schema-fingerprint.ts): from pg_catalog, each column (name, type, nullability, identity, generated expression,
 * default), the primary and foreign keys and the unique indexes, in a fixed order. Pure.
 */
import type { Statement } from '../../database';
import type { TableName } from '../../schema-fingerprint';

export function postgresFingerprint(tables: readonly TableName[]): Statement {
  const pairs = tables.map((_, i) => `($${2 * i + 1}::text, $${2 * i + 2}::text)`).join(', ');
  return {
    text: `WITH t AS (SELECT c.oid, n.nspname::text AS s, c.relname::text AS r FROM pg_class c
 JOIN pg_namespace n ON n.oid = c.relnamespace WHERE (n.nspname::text, c.relname::text) IN (${pairs}))
SELECT t.s, t.r, 'column' AS kind, lpad(a.attnum::text, 5, '0') AS ord, a.attname::text AS name,
 format_type(a.atttypid, a.atttypmod) AS detail, a.attnotnull::text || a.attidentity::text || a.attgenerated::text AS flags,
 pg_get_expr(d.adbin, d.adrelid) AS expr
 FROM t JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
 LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
UNION ALL
SELECT t.s, t.r, 'key', con.contype::text, con.conname::text, pg_get_constraintdef(con.oid), '', NULL
 FROM t JOIN pg_constraint con ON con.conrelid = t.oid AND con.contype IN ('p', 'f')
UNION ALL
SELECT t.s, t.r, 'key', 'u', x.relname::text, pg_get_indexdef(i.indexrelid), '', NULL
 FROM t JOIN pg_index i ON i.indrelid = t.oid AND i.indisunique JOIN pg_class x ON x.oid = i.indexrelid
ORDER BY 1, 2, 3, 4, 5, 6`,
    params: tables.flatMap((t) => [t.schema, t.table]),
  };
}
