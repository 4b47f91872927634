/**
 * Plans an update: rows by their key in the body, or the form's fields as the new values of the rows a path key
 * or query filters find; a slice of rows at a time. Pure.
 */
import { BadRequestError } from '../errors';
import { forEachInSlices } from '../map-in-slices';
import type { BodyRow } from '../request/resource-request';
import type { SqlResource } from '../resource';
import { missingKey, targetOf } from './match-rows';
import type { ChildChanges, UpdateRows, WritePlan } from './plan';
import { planChildRows } from './plan-children';
import { requireValues } from './require-values';
import { parentKeyFields, splitRow } from './resource-fields';
import { rowWeight, type WriteInput } from './write-input';

/** Rows by key: each parent row carries its full key and either its fields to change or children to change. */
export async function planRowUpdates(resource: SqlResource, rows: readonly BodyRow[]): Promise<WritePlan> {
  const keyColumns = parentKeyFields(resource).map((f) => f.column as string);
  const updates: UpdateRows[] = [];
  const children: ChildChanges[] = [];
  const planRow = async (row: BodyRow, i: number) => {
    const split = splitRow(resource, row.values);
    if (!split.key) throw missingKey(resource, i);
    const parent = Object.fromEntries(Object.entries(split.values).filter(([column]) => !keyColumns.includes(column)));
    const changesParent = Object.keys(parent).length > 0 || split.extensions.length > 0;
    if (row.children !== undefined) {
      if (changesParent) {
        throw new BadRequestError(
          'bad_body',
          `Row ${i + 1} updates both the ${resource.rowName} and its ${resource.childRowName} rows; update them in separate requests`,
        );
      }
      children.push({
        parentKey: split.key,
        mustExist: false,
        children: await planChildRows(resource, row.children, 'update', i),
      });
      return;
    }
    if (!changesParent)
      throw new BadRequestError('bad_body', `Row ${i + 1} gives only its key; name at least one field to update`);
    // the key finds the row: the values set are the others
    requireValues(resource, { ...split, values: parent }, 'parent', 'update', `${resource.rowName} row ${i + 1}`);
    updates.push({ target: { kind: 'keys', keys: [split.key] }, parent, extensions: split.extensions });
  };
  await forEachInSlices(rows, planRow, { weight: rowWeight });
  return { kind: 'update', updates, children };
}

/** By query filters or by path key: the form's fields are the new values of the parent rows. */
export function planFormUpdate(resource: SqlResource, input: WriteInput): WritePlan {
  const row = input.bodyType === 'form' ? input.rows?.[0] : undefined;
  if (!row)
    throw new BadRequestError('bad_body', 'PUT needs a body: form fields with the new values, or XML/JSON rows');
  const split = splitRow(resource, row.values);
  requireValues(resource, split, 'parent', 'update');
  const target = targetOf(resource, input, 'update');
  return { kind: 'update', updates: [{ target, parent: split.values, extensions: split.extensions }], children: [] };
}
