/**
 * Turns demo rows into SQL text: one literal function for both engines and multi-row INSERT statements.
 * Only for the fixed, generated demo data (a seed script has no parameters to bind); the service itself must
 * never build SQL this way: it binds every value as a parameter.
 */
import type { EngineName } from '../../lib/resource';

export type SqlValue = string | number | boolean | null;

/**
 * A SQL literal for a value. Strings double their quotes; MySQL and MariaDB (unless NO_BACKSLASH_ESCAPES) also
 * treat a backslash as an escape, so it is doubled there; PostgreSQL has standard_conforming_strings on.
 */
export function sqlLiteral(value: SqlValue, engine: EngineName): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`Demo numbers must be safe integers, got ${value}`);
    return String(value);
  }
  if (value.includes('\u0000')) throw new Error('Demo strings must not contain NUL');
  const quoted = value.replaceAll("'", "''");
  return `'${engine === 'mysql' ? quoted.replaceAll('\\', '\\\\') : quoted}'`;
}

/** Multi-row INSERTs of at most `chunkSize` rows each, so no statement grows large. */
export function insertStatements(
  table: string,
  columns: readonly string[],
  rows: readonly (readonly SqlValue[])[],
  engine: EngineName,
  chunkSize = 50,
): string[] {
  const statements: string[] = [];
  for (let start = 0; start < rows.length; start += chunkSize) {
    const values = rows.slice(start, start + chunkSize).map((row) => {
      if (row.length !== columns.length) throw new Error(`A ${table} row has ${row.length} values`);
      return `(${row.map((value) => sqlLiteral(value, engine)).join(', ')})`;
    });
    statements.push(`insert into ${table} (${columns.join(', ')}) values\n${values.join(',\n')}`);
  }
  return statements;
}
