/**
 * The body of a successful write: `writeResponse rowsAffected="N"` in XML, `{"rowsAffected":N}` in JSON, plus the
 * inserted rows as stored for inserts. Pure; must not count rows itself: the count is given.
 */
import { type AtOnceOrLater, thenAtOnce } from '../map-in-slices';
import type { SqlResource } from '../resource';
import type { OutputType, OutRow } from '../values';
import { serializeJsonRows, serializeXmlDocument } from './serialize-rows';

/**
 * `rows` is given for inserts only; updates and deletes report the count alone. A promise only when many rows are
 * written a slice at a time (serialize-rows).
 */
export function serializeWrite(
  resource: SqlResource,
  rowsAffected: number,
  rows: readonly OutRow[] | undefined,
  type: OutputType,
): AtOnceOrLater<string> {
  const count = String(rowsAffected);
  switch (type) {
    case 'application/xml':
      return serializeXmlDocument(resource, 'writeResponse', { rowsAffected: count }, rows ?? []);
    case 'application/json':
      if (rows === undefined) return `{"rowsAffected":${count}}`;
      return thenAtOnce(serializeJsonRows(resource, rows), (text) => `{"rowsAffected":${count},${text}}`);
  }
}
