/**
 * Says a constraint that the database refused a write for in the resource's words: each column by the label of the
 * field that shows it from that very table (two tables of a resource often share a column name, as person.id and
 * task.id), and the columns of a unique key by the key's name where the database gives only the name (MySQL). A
 * column the resource does not show is named as the database names it. Never a value. Pure.
 */
import { violationText } from '../db/violation-text';
import type { ConstraintViolation } from '../errors';
import type { ResourceTable, SqlResource } from '../resource';

export function labelViolation(resource: SqlResource, violation: ConstraintViolation): string {
  const table = resourceTable(resource, violation.table);
  const key =
    violation.kind === 'unique' && violation.constraint
      ? table?.uniqueKeys.find((k) => k.name === violation.constraint)
      : undefined;
  const columns = key?.columns ?? violation.columns;
  const names = columns.map(
    (column) =>
      resource.fields.find((f) => table !== undefined && f.table === table.name && f.column === column)?.label ??
      `column ${column}`,
  );
  return violationText({ ...violation, columns }, names);
}

/** The resource's table the database means; undefined for a table the resource does not declare. */
function resourceTable(resource: SqlResource, named: ConstraintViolation['table']): ResourceTable | undefined {
  if (!named) return undefined;
  return Object.values(resource.tables).find(
    (t) => t.table === named.table && (named.schema === undefined || t.schema === named.schema),
  );
}
