/**
 * Lookups on a SqlResource shared by the planners: fields by label, the Parent's key fields, and a body row
 * split into table rows with converted, validated values. Pure.
 */
import { BadRequestError } from '../errors';
import type { RawValue } from '../request/resource-request';
import type { Field, ResourceTable, SqlResource, TableRole } from '../resource';
import { fieldLevels, keyLabels, type Level, tableOf, tableWithRole } from '../resource-levels';
import type { Value } from '../values';
import { convertValue } from './convert-value';
import type { ColumnValues, ExtensionValues, Key } from './plan';
import { requireWritableTable } from './require-links';
import { validateValue } from './validate-value';

export function fieldOf(resource: SqlResource, label: string, code: 'bad_parameter' | 'bad_body'): Field {
  const field = resource.fields.find((f) => f.label === label);
  if (!field) {
    const known = resource.fields.map((f) => f.label).join(', ');
    throw new BadRequestError(code, `Unknown field ${label} in resource ${resource.name}; its fields are ${known}`);
  }
  return field;
}

/** A table's key fields in key order, or a 400 when the query does not select its whole primary key. */
export function keyFields(resource: SqlResource, role: 'Parent' | 'Child'): Field[] {
  const table = tableOf(resource, role);
  const labels = keyLabels(resource, table);
  if (!labels) {
    const what = role === 'Parent' ? 'rows by key' : `${resource.childRowName} rows`;
    throw new BadRequestError(
      'bad_request',
      `Resource ${resource.name} cannot address ${what}: its query does not select the primary key of ${table.name}`,
    );
  }
  return labels.map((label) => resource.fields.find((f) => f.label === label) as Field);
}

/** The Parent's key fields in key order, or a 400 when the resource cannot address rows by key. */
export function parentKeyFields(resource: SqlResource): Field[] {
  return keyFields(resource, 'Parent');
}

/** Converts path key segments: one per key column, each to its column's type. */
export function planPathKey(resource: SqlResource, segments: readonly string[]): Key {
  const fields = parentKeyFields(resource);
  if (segments.length !== fields.length) {
    throw new BadRequestError(
      'bad_path_key',
      `Resource ${resource.name} has a key of ${fields.length} part(s) (${fields.map((f) => f.label).join('/')}), the path gives ${segments.length}`,
    );
  }
  return fields.map((field, i) => {
    try {
      return convertValue(field, segments[i] as string);
    } catch (error) {
      throw new BadRequestError('bad_path_key', (error as Error).message, error);
    }
  });
}

export interface SplitRow {
  /** Columns of the level's main table: the Parent, or the Child. */
  readonly values: Record<string, Value>;
  /** ParentExtension rows (parent level) or ChildExtension rows (child level). */
  readonly extensions: ExtensionValues[];
  /** Join table columns (child level of a many-to-many resource). */
  readonly join: Record<string, Value>;
  /** The main table's key when all its key fields are given. */
  readonly key?: Key;
}

const mainRole: Record<Level, TableRole> = { parent: 'Parent', child: 'Child' };
const extensionRole: Record<Level, TableRole> = { parent: 'ParentExtension', child: 'ChildExtension' };

/** Splits a body row of one level into table rows, converting and validating every value written. */
export function splitRow(
  resource: SqlResource,
  values: Readonly<Record<string, RawValue>>,
  level: Level = 'parent',
): SplitRow {
  const main: Record<string, Value> = {};
  const join: Record<string, Value> = {};
  const extensions = new Map<string, Record<string, Value>>();
  const levels = fieldLevels(resource);
  for (const [label, raw] of Object.entries(values)) {
    const { field, table, column } = writableField(resource, label, levels.get(label) === level, level);
    for (const rule of resource.validations) if (rule.name === label) validateValue(rule, raw);
    const value = convertValue(field, raw);
    if (table.role === mainRole[level]) main[column] = value;
    else if (table.role === extensionRole[level])
      extensions.set(table.name, { ...extensions.get(table.name), [column]: value });
    else join[column] = value;
  }
  const keyColumns = (tableWithRole(resource, mainRole[level]) as ResourceTable).primaryKey;
  const complete = keyColumns.length > 0 && keyColumns.every((c) => c in main);
  return {
    values: main,
    extensions: [...extensions].map(([table, v]) => ({ table, values: v as ColumnValues })),
    join,
    key: complete ? keyColumns.map((c) => main[c] as Value) : undefined,
  };
}

/** A field a body may write at this level: known, not computed, of this level, of a table written here. */
function writableField(
  resource: SqlResource,
  label: string,
  atLevel: boolean,
  level: Level,
): { field: Field; table: ResourceTable; column: string } {
  const field = fieldOf(resource, label, 'bad_body');
  if (field.readOnly || field.table === null || field.column === null) {
    throw new BadRequestError('read_only_field', `Field ${label} of resource ${resource.name} is read-only (computed)`);
  }
  if (!atLevel) throw wrongLevel(resource, label, level);
  const table = resource.tables[field.table] as ResourceTable;
  requireWritableTable(resource, table, label);
  return { field, table, column: field.column };
}

function wrongLevel(resource: SqlResource, label: string, level: Level): BadRequestError {
  return level === 'parent'
    ? new BadRequestError(
        'bad_body',
        `Field ${label} belongs to the ${resource.childRowName} rows of ${resource.name}; give it in a nested ${resource.childRowName} row`,
      )
    : new BadRequestError(
        'bad_body',
        `Field ${label} belongs to the ${resource.rowName} rows of ${resource.name}, not to its ${resource.childRowName} rows`,
      );
}
