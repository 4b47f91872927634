/**
 * Child rows of hierarchical writes: nested under parents in body rows (inserts, updates and deletes by key), or the
 * whole body with the parent in the path. Checks what each kind of resource allows: one-to-many children are created
 * and changed; many-to-many children are existing rows that are only associated or dissociated. Pure.
 */
import { BadRequestError } from '../errors';
import { mapInSlices } from '../map-in-slices';
import type { BodyRow } from '../request/resource-request';
import type { SqlResource, TableRole } from '../resource';
import { tableWithRole } from '../resource-levels';
import type { ChildRow, ColumnValues } from './plan';
import { deletedAlongWith, requireLinked } from './require-links';
import { requireValues } from './require-values';
import { keyFields, type SplitRow, splitRow } from './resource-fields';

export type ChildPurpose = 'insert' | 'update' | 'delete';

/** Many child rows (a body under the parent in the path is all children) are planned a slice at a time. */
export async function planChildRows(
  resource: SqlResource,
  rows: readonly BodyRow[],
  purpose: ChildPurpose,
  parentIndex: number,
): Promise<ChildRow[]> {
  const roles = purpose === 'delete' ? deletedAlongWith(resource, 'child') : [childRoleOf(resource)];
  requireLinked(resource, roles, `${purpose} ${resource.childRowName} rows`);
  return mapInSlices(rows, (row, i) => {
    const where = `${resource.childRowName} row ${i + 1}${parentIndex >= 0 ? ` of ${resource.rowName} row ${parentIndex + 1}` : ''}`;
    const split = splitRow(resource, row.values, 'child');
    const keyed = resource.kind === 'many-to-many' || purpose !== 'insert';
    if (keyed && !split.key) {
      const labels = keyFields(resource, 'Child').map((f) => f.label);
      throw new BadRequestError(
        'missing_key',
        `The ${where} lacks its key: ${resource.childRowName} rows are identified by ${labels.join(', ')}`,
      );
    }
    if (resource.kind === 'many-to-many' && purpose !== 'update') checkKeyOnly(resource, row, where);
    requireChildValues(resource, split, purpose, where);
    return { child: split.values, extensions: split.extensions, join: split.join, key: split.key };
  });
}

/** The table that ties a child to its parent: the Child itself, or the Join of a many-to-many resource. */
function childRoleOf(resource: SqlResource): TableRole {
  return resource.kind === 'many-to-many' ? 'Join' : 'Child';
}

/** Many-to-many children exist already: an association names them by key, with no other child attribute. */
function checkKeyOnly(resource: SqlResource, row: BodyRow, where: string): void {
  const keys = new Set(keyFields(resource, 'Child').map((f) => f.label));
  const join = tableWithRole(resource, 'Join')?.name;
  const extra = Object.keys(row.values).filter(
    (label) => !keys.has(label) && resource.fields.find((f) => f.label === label)?.table !== join,
  );
  if (extra.length > 0) {
    throw new BadRequestError(
      'bad_body',
      `The ${where} may carry only its key (${[...keys].join(', ')}): ${resource.name} associates existing ${resource.childRowName} rows, so ${extra.join(', ')} cannot be given`,
    );
  }
}

/**
 * What a child row must give: an inserted one every required field; an updated one, found by its key, something
 * else to set, and no null for a NOT NULL field.
 */
function requireChildValues(resource: SqlResource, split: SplitRow, purpose: ChildPurpose, where: string): void {
  if (purpose === 'insert') requireValues(resource, split, 'child', 'insert', where);
  if (purpose !== 'update') return;
  const set = { ...split, values: withoutKey(resource, split) };
  if (Object.keys(set.values).length === 0 && split.extensions.length === 0 && Object.keys(split.join).length === 0)
    throw new BadRequestError('bad_body', `The ${where} gives only its key; name at least one field to update`);
  requireValues(resource, set, 'child', 'update', where);
}

/** A child row's values but its key, which finds the row rather than being set. */
function withoutKey(resource: SqlResource, split: SplitRow): ColumnValues {
  const key = tableWithRole(resource, 'Child')?.primaryKey ?? [];
  return Object.fromEntries(Object.entries(split.values).filter(([column]) => !key.includes(column)));
}
