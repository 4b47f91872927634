/**
 * NOT NULL columns, checked before the database is asked: a row that an insert writes into a table must give every
 * field of that table whose column is NOT NULL without a default, and no write may set a NOT NULL column to null.
 * The database would refuse both, after using up a sequence value. Columns the service fills itself (the link
 * to the parent row) and generated columns are never required; a column the resource does not show cannot be
 * named here and is left to the database. Pure.
 */
import { BadRequestError } from '../errors';
import type { Field, ResourceTable, SqlResource, TableRole } from '../resource';
import type { Level } from '../resource-levels';
import type { ColumnValues } from './plan';
import type { SplitRow } from './resource-fields';

/** What a row is written for: inserted (its tables' rows are created) or updated (only the values it gives). */
export type Written = 'insert' | 'update';

/**
 * `where`: the row, as messages name it (`person row 2`, `task row 1 of person row 2`); undefined for the one row
 * of a form update.
 */
export function requireValues(
  resource: SqlResource,
  split: SplitRow,
  level: Level,
  written: Written,
  where?: string,
): void {
  for (const { table, values } of writtenTables(resource, split, level, written)) {
    for (const field of resource.fields) {
      if (field.table === table.name && field.column !== null && !field.readOnly && !field.nullable)
        requireValue(field, field.column, table, values, written, where);
    }
  }
}

/** One NOT NULL field of a table the row writes. */
function requireValue(
  field: Field,
  column: string,
  table: ResourceTable,
  values: ColumnValues,
  written: Written,
  where: string | undefined,
): void {
  // a generated column given null is the database's to fill or refuse (MySQL's auto_increment fills it)
  if (column in values) {
    if (values[column] === null && !field.generated) throw nullRefused(field, where);
  } else if (written === 'insert' && !field.hasDefault && !field.generated && !filledByLink(table, column)) {
    throw missing(field, where);
  }
}

/**
 * The tables a row writes, with its values for each: its level's main table (for a many-to-many child, only the
 * association row: the child exists already), and each extension it gives a field of (an insert writes an
 * extension row only then).
 */
function writtenTables(
  resource: SqlResource,
  split: SplitRow,
  level: Level,
  written: Written,
): { table: ResourceTable; values: ColumnValues }[] {
  const byRole = (role: TableRole) => Object.values(resource.tables).find((t) => t.role === role);
  const main = level === 'parent' ? byRole('Parent') : byRole('Child');
  const join = level === 'child' ? byRole('Join') : undefined;
  const associated = level === 'child' && resource.kind === 'many-to-many' && written === 'insert';
  return [
    ...(main && !associated ? [{ table: main, values: split.values }] : []),
    ...(join ? [{ table: join, values: split.join }] : []),
    ...split.extensions.flatMap((ext) => {
      const table = resource.tables[ext.table];
      return table ? [{ table, values: ext.values }] : [];
    }),
  ];
}

/** A column the service fills from the row's parent: a child's, an extension's or an association's link. */
function filledByLink(table: ResourceTable, column: string): boolean {
  return table.links.some((link) => link.columns.includes(column));
}

function missing(field: Field, where: string | undefined): BadRequestError {
  return new BadRequestError(
    'bad_value',
    `Field ${field.label} is required: the ${where ?? 'row'} gives no value, and the database has no default for it`,
  );
}

function nullRefused(field: Field, where: string | undefined): BadRequestError {
  return new BadRequestError(
    'bad_value',
    where ? `Field ${field.label} cannot be null: the ${where} sets it to null` : `Field ${field.label} cannot be null`,
  );
}
