/**
 * Plans the writes of one request: which rows of which tables to insert, update or delete, with converted,
 * validated values. Flat and hierarchical resources alike. This module reads the body's rows and sends the request
 * to the planner of its operation (plan-insert, plan-update, plan-delete; the child-row rules live in
 * plan-children, which rows a write touches in match-rows), or plans child rows under the parent in the path.
 * A body's rows are planned a slice at a time (map-in-slices), in order, so the first row in error is the one
 * reported. Pure.
 */
import { BadRequestError } from '../errors';
import type { WriteRequest } from '../request/resource-request';
import type { SqlResource } from '../resource';
import { keyLabels, tableWithRole } from '../resource-levels';
import type { ChildChanges, Claims, WritePlan } from './plan';
import { planCallerQuery } from './plan-caller-query';
import { planChildRows } from './plan-children';
import { planDelete } from './plan-delete';
import { planInsert } from './plan-insert';
import { planVersionCheck } from './plan-preconditions';
import { planFormUpdate, planRowUpdates } from './plan-update';
import { readBodyRows } from './read-body-rows';
import { planPathKey } from './resource-fields';
import { bodyRows, type WriteInput } from './write-input';

/**
 * The planner's entry for a write: the body's rows read by the resource's names, then planned. A flat resource
 * has no child rows, so its body is read as its own rows even with a key in the path (which planWriteRows
 * refuses, saying why). `claims`: the caller's, bound into a query that uses them.
 */
export async function planWrite(resource: SqlResource, request: WriteRequest, claims: Claims = {}): Promise<WritePlan> {
  const query = planCallerQuery(resource, claims);
  if (query) requireKeysForClaims(resource);
  const { body } = request;
  const readable =
    body && body.type !== 'form' && resource.kind === 'flat' ? { ...body, shape: 'parents' as const } : body;
  const plan = await planWriteRows(resource, {
    op: request.op,
    pathKeys: request.pathKeys,
    filters: request.query.filters,
    bodyType: body?.type,
    rows: readable ? await readBodyRows(resource, readable) : undefined,
  });
  const versions = planVersionCheck(resource, request, plan);
  return { ...plan, ...(query ? { query } : {}), ...(versions ? { versions } : {}) };
}

/**
 * A write through a query with claims is checked row by row against what the query shows the caller, which
 * needs the key of each row it touches: the Parent's and, in a hierarchical resource, the Child's.
 */
function requireKeysForClaims(resource: SqlResource): void {
  for (const role of ['Parent', 'Child'] as const) {
    const table = tableWithRole(resource, role);
    if (!table || keyLabels(resource, table)) continue;
    throw new BadRequestError(
      'bad_request',
      `Resource ${resource.name} shows each caller their own rows, but its query does not select the primary key of ${table.name} (${table.primaryKey.join(', ') || 'it has none'}), which a write needs to check its rows against them: it serves reads only`,
    );
  }
}

/** True when the body holds child rows of the parent in the path. */
function addressesChildren(resource: SqlResource, input: Pick<WriteInput, 'pathKeys' | 'bodyType'>): boolean {
  return (
    resource.kind !== 'flat' && input.pathKeys.length > 0 && (input.bodyType === 'xml' || input.bodyType === 'json')
  );
}

/** Plans the writes of rows already read from the body. */
async function planWriteRows(resource: SqlResource, input: WriteInput): Promise<WritePlan> {
  const structured = input.bodyType === 'xml' || input.bodyType === 'json';
  if (structured && input.pathKeys.length > 0 && resource.kind === 'flat') {
    throw new BadRequestError(
      'bad_request',
      `Resource ${resource.name} is flat: an XML or JSON body with a key in the path addresses child rows, which it has none of`,
    );
  }
  if (structured && input.filters.length > 0) {
    throw new BadRequestError(
      'bad_parameter',
      'Query parameters filter only form-urlencoded updates and body-less deletes',
    );
  }
  if (addressesChildren(resource, input)) return planUnderPathParent(resource, input);
  switch (input.op) {
    case 'insert':
      return planInsert(resource, input);
    case 'update':
      return structured ? planRowUpdates(resource, bodyRows(input)) : planFormUpdate(resource, input);
    case 'delete':
      return planDelete(resource, input);
  }
}

/** The body's rows are children of the parent in the path, which must exist. */
async function planUnderPathParent(resource: SqlResource, input: WriteInput): Promise<WritePlan> {
  const parentKey = planPathKey(resource, input.pathKeys);
  const children = await planChildRows(resource, bodyRows(input), input.op, -1);
  if (input.op === 'insert')
    return { kind: 'insert', rows: [{ parent: {}, extensions: [], key: parentKey, existing: true, children }] };
  const changes: ChildChanges = { parentKey, mustExist: true, children };
  return input.op === 'update'
    ? { kind: 'update', updates: [], children: [changes] }
    : { kind: 'delete', target: { kind: 'keys', keys: [] }, children: [changes] };
}
