/**
 * Cursor paging's two ends in the plan: the `_after` token of a request becomes the values its rows come after,
 * converted to their fields' types as filters are; and the last row of a page becomes the token of the next. A
 * token is bound to the resource, the read's whole order and the request's filters (cursor-token.ts). Pure.
 */
import { BadRequestError } from '../errors';
import type { RawFilter } from '../request/resource-request';
import type { SqlResource } from '../resource';
import { keyLabels, tableWithRole } from '../resource-levels';
import type { Row, Value } from '../values';
import { convertValue } from './convert-value';
import { type CursorBinding, type CursorValues, filtersDigest, openCursor, signCursor } from './cursor-token';
import type { Keyset, OrderTerm } from './plan';
import { fieldOf } from './resource-fields';

type Order = readonly (string | OrderTerm)[];

/** What a token of this read is bound to. */
export function cursorBinding(resource: SqlResource, orderBy: Order, filters: readonly RawFilter[]): CursorBinding {
  const order = orderBy.map((term) => (typeof term === 'string' ? term : `${term.descending ? '-' : ''}${term.label}`));
  return { resource: resource.name, order: order.join(','), filters: filtersDigest(filters) };
}

/** The values of `orderBy`'s fields that the token's rows come after; the Parent's key is never NULL. */
export function planAfter(
  resource: SqlResource,
  orderBy: Order,
  filters: readonly RawFilter[],
  token: string,
  key: string | undefined,
): Keyset {
  const texts = openCursor(key, cursorBinding(resource, orderBy, filters), token);
  const neverNull = keyLabels(resource, tableWithRole(resource, 'Parent')) ?? [];
  return { values: afterValues(resource, orderBy, texts), neverNull };
}

function afterValues(resource: SqlResource, orderBy: Order, texts: CursorValues): Value[] {
  return orderBy.map((term, i) => {
    const field = fieldOf(resource, typeof term === 'string' ? term : term.label, 'bad_parameter');
    const text = texts[i] ?? null;
    try {
      return convertValue(field, text);
    } catch (error) {
      // a value as the database wrote it, which a filter does not take (a timestamp with its time zone): the tag
      // says the service took it from a row, and the database reads its own text back
      if (error instanceof BadRequestError) return text;
      throw error;
    }
  });
}

/** The token of the rows after `row`: its values of `orderBy`'s fields, as text. */
export function cursorAfter(
  resource: SqlResource,
  orderBy: Order,
  filters: readonly RawFilter[],
  row: Row,
  key: string | undefined,
): string {
  const values: CursorValues = orderBy.map((term) => valueText(row[typeof term === 'string' ? term : term.label]));
  return signCursor(key, cursorBinding(resource, orderBy, filters), values);
}

/** A value as a filter writes it: the form convertValue takes back. */
function valueText(value: Value | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return String(value);
}
