/**
 * Plans a read, of rows or of one row by key: query filters and path keys become typed filters on labels; rows are
 * ordered as `_order` asks, then by the Parent key, then the Child key; `_after` keeps the rows after its token's
 * row in that order. Pure.
 */
import { BadRequestError } from '../errors';
import type { OrderItem, RawFilter, ReadRequest } from '../request/resource-request';
import type { Field, SqlResource } from '../resource';
import { fieldsAt, keyLabels, tableWithRole } from '../resource-levels';
import { convertListItem, convertValue } from './convert-value';
import { likePattern } from './like-pattern';
import type { Claims, Key, OrderTerm, ReadPlan, TypedFilter } from './plan';
import { planAfter } from './plan-after';
import { planCallerQuery } from './plan-caller-query';
import { fieldOf, parentKeyFields, planPathKey } from './resource-fields';

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
        return { label, op: 'like', value: likePattern(filter.value), text: field.type !== 'string' };
      case 'in':
        return { label, op: 'in', values: filter.values.map((v) => convertListItem(field, v)) };
      default:
        return { label, op: filter.op, value: convertValue(field, filter.value) };
    }
  });
}

/**
 * Order: Parent key, then Child key; without a usable key, every orderable field in select order. What `_order`
 * asks for comes first at its level: parent fields before the Parent key (they order parents), child fields before
 * the Child key (they order children inside their parent); the keys follow, so paging stays stable.
 */
function orderOf(resource: SqlResource, asked: readonly OrderItem[] = []): (string | OrderTerm)[] {
  const terms = asked.map((item) => orderTerm(resource, item));
  const childLabels = new Set(fieldsAt(resource, 'child').map((f) => f.label));
  const atChild = (term: OrderTerm) => childLabels.has(term.label);
  const then = (defaults: readonly string[], before: readonly OrderTerm[]) => [
    ...before,
    ...defaults.filter((label) => !terms.some((term) => term.label === label)),
  ];
  const parent = keyLabels(resource, tableWithRole(resource, 'Parent'));
  if (!parent)
    return then(
      resource.fields.filter(orderable).map((f) => f.label),
      terms,
    );
  if (resource.kind === 'flat') return then(parent, terms);
  const child =
    keyLabels(resource, tableWithRole(resource, 'Child')) ??
    fieldsAt(resource, 'child')
      .filter(orderable)
      .map((f) => f.label);
  return [
    ...then(
      parent,
      terms.filter((term) => !atChild(term)),
    ),
    ...then(child, terms.filter(atChild)),
  ];
}

function orderTerm(resource: SqlResource, item: OrderItem): OrderTerm {
  const field = fieldOf(resource, item.name, 'bad_parameter');
  if (!orderable(field)) {
    throw new BadRequestError(
      'bad_parameter',
      `Field ${field.label} of resource ${resource.name} holds ${field.type === 'binary' ? 'binary' : 'JSON'} values, which have no order; _order takes the other fields`,
    );
  }
  return { label: field.label, descending: item.descending };
}

/** A field that can order rows: binary and JSON values have no order (the OpenAPI document offers the others). */
export function orderable(field: Field): boolean {
  return field.type !== 'binary' && !/^json/i.test(field.dbType);
}

/**
 * `claims`: the caller's, bound into a query that uses them (a query without claims ignores them). `maxRows`: the
 * most rows one read returns (the definition's own cap, else MAX_ROWS); `_limit` may ask for fewer, never more.
 * `cursorKey`: the key `_after` tokens are signed with (CURSOR_SECRET; the fallback when unset). A total
 * (`Prefer: count=exact`) is counted for reads of rows, not for a read by key.
 */
export function planRead(
  resource: SqlResource,
  { query, pathKeys, countExact }: Pick<ReadRequest, 'query' | 'pathKeys' | 'countExact'>,
  claims: Claims,
  maxRows: number,
  cursorKey?: string,
): ReadPlan {
  if (query.after !== undefined && pathKeys.length > 0) {
    throw new BadRequestError('bad_parameter', 'Parameter _after is for reads of rows; a read by key has no next page');
  }
  if (query.limit !== undefined && query.limit > maxRows) {
    throw new BadRequestError(
      'limit_too_large',
      `Parameter _limit is ${query.limit}, above ${maxRows}, the most rows resource ${resource.name} returns at once; page with _limit and _offset`,
    );
  }
  const callerQuery = planCallerQuery(resource, claims);
  const filters = planFilters(resource, query.filters);
  if (pathKeys.length > 0) filters.push(...keyFilters(resource, planPathKey(resource, pathKeys)));
  const capped = query.limit === undefined;
  const orderBy = orderOf(resource, query.order);
  const select = {
    filters,
    orderBy,
    ...(query.after === undefined
      ? {}
      : { after: planAfter(resource, orderBy, query.filters, query.after, cursorKey) }),
    limit: capped ? maxRows + 1 : query.limit,
    offset: query.offset,
  };
  return {
    kind: 'read',
    select,
    ...(capped ? { rowCap: maxRows } : {}),
    ...(countExact && pathKeys.length === 0 ? { total: true } : {}),
    ...(pathKeys.length > 0 && resource.kind === 'flat' ? { byKey: true } : {}),
    ...(callerQuery ? { query: callerQuery } : {}),
  };
}

/** The Parent key as filters on its fields. */
function keyFilters(resource: SqlResource, key: Key): TypedFilter[] {
  return parentKeyFields(resource).map((field, i) => ({ label: field.label, op: 'eq', value: key[i] ?? null }));
}

/**
 * A read of one row by its Parent key, as the client reads it by the key in its path (R2), for the row's version
 * inside a write: the same filters and order, no cap (one row, or the few of a query that repeats its key).
 */
export function planRowRead(resource: SqlResource, key: Key, claims: Claims): ReadPlan {
  const callerQuery = planCallerQuery(resource, claims);
  return {
    kind: 'read',
    // inside the write's transaction, after the row is locked: as committed now, not an earlier snapshot
    select: { filters: keyFilters(resource, key), orderBy: orderOf(resource), current: true },
    byKey: true,
    ...(callerQuery ? { query: callerQuery } : {}),
  };
}
