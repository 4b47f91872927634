/**
 * The statement that reads the shape of tables on MySQL for a catalog snapshot's fingerprint
 * (schema-fingerprint.ts): from information_schema, each column (name, type, nullability, extra such as
 * auto_increment and generated, default) and each key's columns and references, in a fixed order. Pure.
 */
import type { Statement } from '../../database';
import type { TableName } from '../../schema-fingerprint';

export function mysqlFingerprint(tables: readonly TableName[]): Statement {
  const params = tables.flatMap((t) => [t.schema, t.table]);
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
