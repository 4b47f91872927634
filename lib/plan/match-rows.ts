/**
 * Which rows an update or delete touches: those of a key in the path, or those query filters find, matched to the
 * rows the resource shows by key, by the values of the fields it shows, or by the filter itself; and a body row's
 * key. Pure.
 */
import { BadRequestError } from '../errors';
import type { BodyRow, RawValue } from '../request/resource-request';
import type { SqlResource } from '../resource';
import { keyLabels, tableOf } from '../resource-levels';
import { convertValue } from './convert-value';
import type { Key, RowMatch, Target } from './plan';
import { planFilters } from './plan-read';
import { fieldOf, parentKeyFields, planPathKey } from './resource-fields';
import type { WriteInput } from './write-input';

export function targetOf(resource: SqlResource, input: WriteInput, what: 'update' | 'delete'): Target {
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
 * An update or delete by query filters needs no key in the query. A query that shows every row of its one table
 * writes by the filter itself. Otherwise the rows are found by the key the query selects or, without one, by the
 * values of the fields it selects from the Parent table (JSON values have no equality, so they are left out), then
 * by the table's own key: without one, a row the query hides could not be told from a row it shows.
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

/** A body row to delete is identified by its key attributes; other known attributes are ignored. */
export function rowKey(resource: SqlResource, row: BodyRow, index: number): Key {
  for (const label of Object.keys(row.values)) fieldOf(resource, label, 'bad_body');
  const fields = parentKeyFields(resource);
  if (fields.some((f) => row.values[f.label] === undefined || row.values[f.label] === null))
    throw missingKey(resource, index);
  return fields.map((f) => convertValue(f, row.values[f.label] as RawValue));
}

export function missingKey(resource: SqlResource, index: number): BadRequestError {
  const labels = parentKeyFields(resource).map((f) => f.label);
  return new BadRequestError(
    'missing_key',
    `Row ${index + 1} lacks its key: ${resource.name} rows are identified by ${labels.join(', ')}`,
  );
}
