/**
 * The body of a successful write: `writeResponse rowsAffected="N"` in XML, `{"rowsAffected":N}` in JSON, plus the
 * inserted rows as stored for inserts. Pure; must not count rows itself: the count is given.
 */
import type { SqlResource } from '../resource';
import type { OutputType, OutRow } from '../values';
import { serializeJsonRows, serializeXmlDocument } from './serialize-rows';

/**
 * `rows` is given for inserts only; updates and deletes report the count alone. Asynchronous only so that many rows
 * are written a slice at a time (serialize-rows).
 */
export async function serializeWrite(
  resource: SqlResource,
  rowsAffected: number,
  rows: readonly OutRow[] | undefined,
  type: OutputType,
): Promise<string> {
  const count = String(rowsAffected);
  switch (type) {
    case 'application/xml':
      return serializeXmlDocument(resource, 'writeResponse', { rowsAffected: count }, rows ?? []);
    case 'application/json':
      return `{"rowsAffected":${count}${rows === undefined ? '' : `,${await serializeJsonRows(resource, rows)}`}}`;
  }
}
