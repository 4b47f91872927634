/**
 * A fingerprint of the tables a catalog snapshot describes: one statement reads, for each table, every column
 * (name, type, nullability, default, identity/auto_increment, generated expression), its primary and foreign keys
 * and its unique indexes, in a fixed order; the fingerprint is the SHA-256 of those rows. The same tables with the
 * same shape give the same fingerprint on any server, whatever their oids; any change that could change what the
 * service reads from the catalog (a column added, dropped, renamed or retyped, a key, a unique index or a default
 * changed) changes it. A table that no longer exists simply has no rows, which changes it too.
 */
import { createHash } from 'node:crypto';
import type { EngineName } from '../resource';
import type { Executor, Statement } from './database';

/** A table as the catalog names it: its schema (the database, on MySQL) and its name. */
export interface TableName {
  readonly schema: string;
  readonly table: string;
}

export async function schemaFingerprint(
  db: Executor,
  engine: EngineName,
  tables: readonly TableName[],
): Promise<string> {
  const hash = createHash('sha256');
  if (tables.length > 0) {
    const { rows } = await db.run(fingerprintStatement(engine, tables));
    for (const row of rows) hash.update(`${JSON.stringify(Object.values(row))}\n`);
  }
  return hash.digest('hex');
}

/** The one statement that reads the shape of `tables`. Pure. */
export function fingerprintStatement(engine: EngineName, tables: readonly TableName[]): Statement {
  const params = tables.flatMap((t) => [t.schema, t.table]);
  if (engine === 'postgres') {
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
      params,
    };
  }
  const where = tables.map(() => '(table_schema = ? AND table_name = ?)').join(' OR ');
  return {
    text: `SELECT table_schema AS s, table_name AS r, 'column' AS kind, LPAD(ordinal_position, 5, '0') AS ord,
 column_name AS name, column_type AS detail, CONCAT(is_nullable, ':', extra) AS flags, column_default AS expr
 FROM information_schema.columns WHERE ${where}
UNION ALL
SELECT table_schema, table_name, 'key', LPAD(ordinal_position, 5, '0'), constraint_name,
 CONCAT(column_name, ':', COALESCE(referenced_table_schema, ''), '.', COALESCE(referenced_table_name, ''), '.',
 COALESCE(referenced_column_name, '')), '', NULL
 FROM information_schema.key_column_usage WHERE ${where}
ORDER BY 1, 2, 3, 5, 4, 6`,
    params: [...params, ...params],
  };
}
