/**
 * Plans the writes of one request (C1-C3, U1-U4, D1-D4): which rows of which tables to insert,
 * update or delete, with converted, validated values. Flat and hierarchical resources alike; the child-row
 * rules live in plan-children. A body's rows are planned a slice at a time (map-in-slices), in order, so the first
 * row in error is the one reported. Pure.
 */
import { BadRequestError } from '../errors';
import { forEachInSlices, mapInSlices } from '../map-in-slices';
import type { BodyRow, BodyType, RawFilter, RawValue, WriteRequest } from '../request/resource-request';
import type { SqlResource } from '../resource';
import { keyLabels, tableOf, tableWithRole } from '../resource-levels';
import { convertValue } from './convert-value';
import type { ChildChanges, Claims, InsertRow, Key, RowMatch, Target, UpdateRows, WritePlan } from './plan';
import { planCallerQuery } from './plan-caller-query';
import { planChildRows } from './plan-children';
import { planFilters } from './plan-read';
import { readBodyRows } from './read-body-rows';
import { deletedAlongWith, requireLinked } from './require-links';
import { requireValues } from './require-values';
import { fieldOf, parentKeyFields, planPathKey, splitRow } from './resource-fields';

export interface WriteInput {
  readonly op: 'insert' | 'update' | 'delete';
  readonly pathKeys: readonly string[];
  readonly filters: readonly RawFilter[];
  readonly bodyType?: BodyType;
  /** The body's rows: one row for a form body; child rows when the parent is in the path (C3, U4, D4). */
  readonly rows?: readonly BodyRow[];
}

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
  return query ? { ...plan, query } : plan;
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

/** True when the body holds child rows of the parent in the path (C3, U4, D4). */
function addressesChildren(resource: SqlResource, input: Pick<WriteInput, 'pathKeys' | 'bodyType'>): boolean {
  return (
    resource.kind !== 'flat' && input.pathKeys.length > 0 && (input.bodyType === 'xml' || input.bodyType === 'json')
  );
}

/** Plans the writes of rows already read from the body. */
export async function planWriteRows(resource: SqlResource, input: WriteInput): Promise<WritePlan> {
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

/** A body row weighs one more for each child row in it, in the slices it is planned in. */
const rowWeight = (row: BodyRow) => 1 + (row.children?.length ?? 0);

function bodyRows(input: WriteInput): readonly BodyRow[] {
  if (!input.rows || input.rows.length === 0) throw new BadRequestError('bad_body', 'The request body holds no rows');
  return input.rows;
}

/** C3, U4, D4: the body's rows are children of the parent in the path, which must exist. */
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

async function planInsert(resource: SqlResource, input: WriteInput): Promise<WritePlan> {
  if (input.pathKeys.length > 0) {
    throw new BadRequestError(
      'bad_request',
      resource.kind === 'flat'
        ? `Resource ${resource.name} is flat: POST with a key in the path is for child rows`
        : `POST with a key in the path takes XML or JSON ${resource.childRowName} rows of that ${resource.rowName}`,
    );
  }
  if (input.filters.length > 0)
    throw new BadRequestError('bad_parameter', 'POST takes no query parameters but _output');
  const rows = await mapInSlices(
    bodyRows(input),
    async (row, i): Promise<InsertRow> => {
      const split = splitRow(resource, row.values);
      // a parent given with its key and children may exist already, and is then left as it is: only the database
      // can tell whether it is inserted
      if (!(row.children && split.key))
        requireValues(resource, split, 'parent', 'insert', `${resource.rowName} row ${i + 1}`);
      const children = row.children ? await planChildRows(resource, row.children, 'insert', i) : undefined;
      return { parent: split.values, extensions: split.extensions, key: split.key, children };
    },
    { weight: rowWeight },
  );
  return { kind: 'insert', rows };
}

/** U1: each parent row carries its full key and either its fields to change or children to change. */
async function planRowUpdates(resource: SqlResource, rows: readonly BodyRow[]): Promise<WritePlan> {
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

/** U2 (filters) and U3 (path key): the form's fields are the new values of the parent rows. */
function planFormUpdate(resource: SqlResource, input: WriteInput): WritePlan {
  const row = input.bodyType === 'form' ? input.rows?.[0] : undefined;
  if (!row)
    throw new BadRequestError('bad_body', 'PUT needs a body: form fields with the new values, or XML/JSON rows');
  const split = splitRow(resource, row.values);
  requireValues(resource, split, 'parent', 'update');
  const target = targetOf(resource, input, 'update');
  return { kind: 'update', updates: [{ target, parent: split.values, extensions: split.extensions }], children: [] };
}

async function planDelete(resource: SqlResource, input: WriteInput): Promise<WritePlan> {
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

function targetOf(resource: SqlResource, input: WriteInput, what: 'update' | 'delete'): Target {
  if (input.pathKeys.length > 0) {
    if (input.filters.length > 0)
      throw new BadRequestError('bad_parameter', 'A path key and query filters cannot be combined');
    return { kind: 'keys', keys: [planPathKey(resource, input.pathKeys)] };
  }
  if (input.filters.length === 0) {
    throw new BadRequestError(
      'filter_required',
      `Refusing to ${what} every row of ${resource.name}: give a key in the path, query filters, or rows in the body`,
    );
  }
  const filters = planFilters(resource, input.filters);
  return { kind: 'filter', filters, match: rowMatchOf(resource, what) };
}

/**
 * U2 and D2 need no key in the query. A query that shows every row of its one table writes by the filter itself.
 * Otherwise the rows are found by the key the query selects or, without one, by the values of the fields it selects
 * from the Parent table (JSON values have no equality, so they are left out), then by the table's own key: without
 * one, a row the query hides could not be told from a row it shows.
 */
function rowMatchOf(resource: SqlResource, what: 'update' | 'delete'): RowMatch {
  if (resource.showsEveryRow && !resource.claimQuery) return { by: 'where' };
  const parent = tableOf(resource, 'Parent');
  if (keyLabels(resource, parent)) return { by: 'key' };
  if (resource.kind !== 'flat') {
    throw new BadRequestError(
      'bad_request',
      `Resource ${resource.name} cannot ${what} rows by filter: its query does not select the primary key of ${parent.name}, which a hierarchical resource needs to tell the rows it shows from those it hides`,
    );
  }
  if (parent.primaryKey.length === 0) {
    throw new BadRequestError(
      'bad_request',
      `Resource ${resource.name} cannot ${what} rows by filter: table ${parent.name} has no primary key, and the query does not show every row of it, so the rows it shows cannot be told from those it hides`,
    );
  }
  const fields = resource.fields.filter(
    (f) => f.table === parent.name && f.column !== null && !/^json/i.test(f.dbType),
  );
  if (fields.length === 0) {
    throw new BadRequestError(
      'bad_request',
      `Resource ${resource.name} cannot ${what} rows by filter: its query selects neither the primary key of ${parent.name} nor any column of it to find the rows by`,
    );
  }
  return { by: 'values', labels: fields.map((f) => f.label), columns: fields.map((f) => f.column as string) };
}

/** D1: a row to delete is identified by its key attributes; other known attributes are ignored. */
function rowKey(resource: SqlResource, row: BodyRow, index: number): Key {
  for (const label of Object.keys(row.values)) fieldOf(resource, label, 'bad_body');
  const fields = parentKeyFields(resource);
  if (fields.some((f) => row.values[f.label] === undefined || row.values[f.label] === null))
    throw missingKey(resource, index);
  return fields.map((f) => convertValue(f, row.values[f.label] as RawValue));
}

function missingKey(resource: SqlResource, index: number): BadRequestError {
  const labels = parentKeyFields(resource).map((f) => f.label);
  return new BadRequestError(
    'missing_key',
    `Row ${index + 1} lacks its key: ${resource.name} rows are identified by ${labels.join(', ')}`,
  );
}
