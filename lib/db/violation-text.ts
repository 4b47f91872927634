/**
 * The sentence a client reads for a constraint the database refused a write for: the kind of constraint, its name,
 * the table, and the fields it names, never a value (the database's own text carries the duplicate key, the failing
 * row, the missing reference). The caller says how each column is named: a resource's label, or the database's
 * column name where nothing else is known. Pure.
 */
import type { ConstraintViolation } from '../errors';

/** `names`: how to show `violation.columns`, in their order. */
export function violationText(violation: ConstraintViolation, names: readonly string[]): string {
  const table = violation.table ? ` of table ${violation.table.table}` : '';
  const constraint = (kind: string) => (violation.constraint ? ` (${kind} constraint "${violation.constraint}")` : '');
  const fields = listed(names);
  const plural = names.length > 1;
  switch (violation.kind) {
    case 'unique':
      return `Conflict: another row${table} has the same ${fields || 'key'}${constraint('unique')}`;
    case 'foreign_key':
      return `Conflict: ${referenceText(violation, fields, plural, table)}${constraint('foreign key')}`;
    case 'not_null':
      return `The database rejected a value: ${fields || 'a column'}${table} cannot be null`;
    case 'check':
      return `The database rejected a value: a row${table} breaks ${violation.constraint ? `check constraint "${violation.constraint}"` : 'a check constraint'}`;
  }
}

function referenceText(violation: ConstraintViolation, fields: string, plural: boolean, table: string): string {
  const other = violation.reference?.other;
  switch (violation.reference?.direction) {
    case 'missing': {
      const target = other ? `table ${other}` : 'the table it references';
      return fields
        ? `${fields}${table} ${plural ? 'name' : 'names'} no row of ${target}`
        : `a row${table} names no row of ${target}`;
    }
    case 'referenced': {
      const from = other ? ` from table ${other}` : '';
      return fields
        ? `${fields}${table} ${plural ? 'are' : 'is'} still referenced${from}`
        : `a row${table} is still referenced${from}`;
    }
    case undefined:
      return `the write breaks a foreign key${table}`;
  }
}

/** `a`, `a and b`, `a, b and c`; empty for none. */
function listed(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
