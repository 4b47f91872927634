/**
 * Plans a delete: rows by their key in the body, or the rows a path key or query filters find; a
 * parent's linked rows must go with it or be kept by the database. A slice of rows at a time. Pure.
 */
import { BadRequestError } from '../errors';
import { forEachInSlices } from '../map-in-slices';
import type { BodyRow } from '../request/resource-request';
import type { SqlResource } from '../resource';
import { rowKey, targetOf } from './match-rows';
import type { ChildChanges, Key, WritePlan } from './plan';
import { planChildRows } from './plan-children';
import { deletedAlongWith, requireLinked } from './require-links';
import { bodyRows, rowWeight, type WriteInput } from './write-input';

export async function planDelete(resource: SqlResource, input: WriteInput): Promise<WritePlan> {
  if (input.bodyType === 'form') {
    throw new BadRequestError('bad_body', 'DELETE takes XML or JSON rows in its body, or none; not form fields');
  }
  const deleteParents = () =>
    requireLinked(resource, deletedAlongWith(resource, 'parent'), `delete ${resource.rowName} rows`);
  if (!input.rows) {
    const target = targetOf(resource, input, 'delete');
    deleteParents();
    return { kind: 'delete', target, children: [] };
  }
  const keys: Key[] = [];
  const children: ChildChanges[] = [];
  const planRow = async (row: BodyRow, i: number) => {
    const key = rowKey(resource, row, i);
    if (row.children === undefined) keys.push(key);
    else
      children.push({
        parentKey: key,
        mustExist: false,
        children: await planChildRows(resource, row.children, 'delete', i),
      });
  };
  await forEachInSlices(bodyRows(input), planRow, { weight: rowWeight });
  if (keys.length > 0) deleteParents();
  return { kind: 'delete', target: { kind: 'keys', keys }, children };
}
