/**
 * Plans R1 and R2: query filters and path keys become typed filters on labels; rows are ordered by the Parent
 * key, then the Child key (D8). Pure.
 */
import { BadRequestError } from '../errors';
import type { ParsedQuery, RawFilter } from '../request/types';
import type { Field, SqlResource } from '../resource';
import { convertValue } from './convert-value';
import { fieldOf, parentKeyFields, planPathKey } from './resource-fields';
import type { Plan, TypedFilter } from './types';

export function planFilters(resource: SqlResource, filters: readonly RawFilter[]): TypedFilter[] {
  return filters.map((filter): TypedFilter => {
    const field = fieldOf(resource, filter.name, 'bad_parameter');
    if (field.readOnly) {
      throw new BadRequestError(
        'read_only_field',
        `Field ${field.label} of resource ${resource.name} is computed and cannot be a filter`,
      );
    }
    const label = field.label;
    switch (filter.op) {
      case 'null':
      case 'notnull':
        return { label, op: filter.op };
      case 'like':
        return { label, op: 'like', value: filter.value, text: field.type !== 'string' };
      case 'in':
        return { label, op: 'in', values: filter.values.map((v) => convertValue(field, v, resource.dialect)) };
      default:
        return { label, op: filter.op, value: convertValue(field, filter.value, resource.dialect) };
    }
  });
}

/** D8: Parent key, then Child key; without a usable key, every orderable field in select order. */
export function orderOf(resource: SqlResource): string[] {
  const keyLabels = (role: 'Parent' | 'Child'): string[] | undefined => {
    const table = Object.values(resource.tables).find((t) => t.role === role);
    if (!table || table.primaryKey.length === 0) return undefined;
    const labels = table.primaryKey.map(
      (c) => resource.fields.find((f) => f.table === table.name && f.column === c)?.label,
    );
    return labels.every((l) => l !== undefined) ? (labels as string[]) : undefined;
  };
  const parent = keyLabels('Parent');
  if (!parent) return resource.fields.filter(orderable).map((f) => f.label);
  return resource.kind === 'flat' ? parent : [...parent, ...(keyLabels('Child') ?? [])];
}

function orderable(field: Field): boolean {
  return field.type !== 'binary' && !/^json/i.test(field.dbType);
}

export function planRead(resource: SqlResource, query: ParsedQuery, pathKeys: readonly string[]): Plan {
  const filters = planFilters(resource, query.filters);
  if (pathKeys.length > 0) {
    const key = planPathKey(resource, pathKeys);
    parentKeyFields(resource).forEach((field, i) => {
      filters.push({ label: field.label, op: 'eq', value: key[i] ?? null });
    });
  }
  return { kind: 'read', select: { filters, orderBy: orderOf(resource), limit: query.limit, offset: query.offset } };
}
