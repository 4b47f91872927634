/**
 * Plans the writes of one request (spec 4.3-4.5 on flat resources; D13, D16a, D18): which rows of which tables
 * to insert, update or delete, with converted, validated values. Hierarchical resources add their child steps
 * here. Pure.
 */
import { BadRequestError } from '../errors';
import type { BodyRow, BodyType, RawFilter, RawValue } from '../request/types';
import type { SqlResource } from '../resource';
import { convertValue } from './convert-value';
import { planFilters } from './plan-read';
import { fieldOf, parentKeyFields, planPathKey, splitRow } from './resource-fields';
import type { Key, Plan, Target, UpdateRows } from './types';

export interface WriteInput {
  readonly op: 'insert' | 'update' | 'delete';
  readonly pathKeys: readonly string[];
  readonly filters: readonly RawFilter[];
  readonly bodyType?: BodyType;
  /** The body's rows: one row for a form body. */
  readonly rows?: readonly BodyRow[];
}

export function planWrite(resource: SqlResource, input: WriteInput): Plan {
  if (resource.kind !== 'flat') {
    throw new BadRequestError('bad_request', `Writes to hierarchical resource ${resource.name} are not supported yet`);
  }
  const structured = input.bodyType === 'xml' || input.bodyType === 'json';
  if (structured && input.pathKeys.length > 0) {
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
  switch (input.op) {
    case 'insert':
      return planInsert(resource, input);
    case 'update':
      return structured ? planRowUpdates(resource, bodyRows(input)) : planFormUpdate(resource, input);
    case 'delete':
      return planDelete(resource, input);
  }
}

function bodyRows(input: WriteInput): readonly BodyRow[] {
  if (!input.rows || input.rows.length === 0) throw new BadRequestError('bad_body', 'The request body holds no rows');
  return input.rows;
}

function planInsert(resource: SqlResource, input: WriteInput): Plan {
  if (input.pathKeys.length > 0) {
    throw new BadRequestError(
      'bad_request',
      `Resource ${resource.name} is flat: POST with a key in the path is for child rows`,
    );
  }
  if (input.filters.length > 0)
    throw new BadRequestError('bad_parameter', 'POST takes no query parameters but _output');
  const rows = bodyRows(input).map((row) => {
    const split = splitRow(resource, row.values);
    return { parent: split.parent, extensions: split.extensions };
  });
  return { kind: 'insert', rows };
}

/** U1: each row carries its full key and the fields to change. */
function planRowUpdates(resource: SqlResource, rows: readonly BodyRow[]): Plan {
  const keyColumns = parentKeyFields(resource).map((f) => f.column as string);
  const updates = rows.map((row, i): UpdateRows => {
    const split = splitRow(resource, row.values);
    if (!split.key) throw missingKey(resource, i);
    const parent = Object.fromEntries(Object.entries(split.parent).filter(([column]) => !keyColumns.includes(column)));
    if (Object.keys(parent).length === 0 && split.extensions.length === 0) {
      throw new BadRequestError('bad_body', `Row ${i + 1} gives only its key; name at least one field to update`);
    }
    return { target: { kind: 'keys', keys: [split.key] }, parent, extensions: split.extensions };
  });
  return { kind: 'update', updates };
}

/** U2 (filters) and U3 (path key): the form's fields are the new values. */
function planFormUpdate(resource: SqlResource, input: WriteInput): Plan {
  const row = input.bodyType === 'form' ? input.rows?.[0] : undefined;
  if (!row)
    throw new BadRequestError('bad_body', 'PUT needs a body: form fields with the new values, or XML/JSON rows');
  const split = splitRow(resource, row.values);
  const target = targetOf(resource, input, 'update');
  return { kind: 'update', updates: [{ target, parent: split.parent, extensions: split.extensions }] };
}

function planDelete(resource: SqlResource, input: WriteInput): Plan {
  if (input.bodyType === 'form') {
    throw new BadRequestError('bad_body', 'DELETE takes XML or JSON rows in its body, or none; not form fields');
  }
  if (input.rows)
    return {
      kind: 'delete',
      target: { kind: 'keys', keys: bodyRows(input).map((row, i) => rowKey(resource, row, i)) },
    };
  return { kind: 'delete', target: targetOf(resource, input, 'delete') };
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
  parentKeyFields(resource); // filtered writes address the matched rows by their key
  return { kind: 'filter', filters: planFilters(resource, input.filters) };
}

/** D1: a row to delete is identified by its key attributes; other known attributes are ignored. */
function rowKey(resource: SqlResource, row: BodyRow, index: number): Key {
  for (const label of Object.keys(row.values)) fieldOf(resource, label, 'bad_body');
  const fields = parentKeyFields(resource);
  if (fields.some((f) => row.values[f.label] === undefined || row.values[f.label] === null))
    throw missingKey(resource, index);
  return fields.map((f) => convertValue(f, row.values[f.label] as RawValue, resource.dialect));
}

function missingKey(resource: SqlResource, index: number): BadRequestError {
  const labels = parentKeyFields(resource).map((f) => f.label);
  return new BadRequestError(
    'missing_key',
    `Row ${index + 1} lacks its key: ${resource.name} rows are identified by ${labels.join(', ')}`,
  );
}
