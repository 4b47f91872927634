/**
 * The body of a successful read: `readResponse` in XML, the collection object in JSON.
 * Pure; the rows arrive already regrouped into parents and children; must not reorder or filter them.
 */
import type { SqlResource } from '../resource';
import type { OutputType, OutRow } from '../values';
import { serializeJsonRows, serializeXmlDocument } from './serialize-rows';

/** Asynchronous only so that many rows are written a slice at a time (serialize-rows). */
export async function serializeRead(resource: SqlResource, rows: readonly OutRow[], type: OutputType): Promise<string> {
  switch (type) {
    case 'application/xml':
      return serializeXmlDocument(resource, 'readResponse', {}, rows);
    case 'application/json':
      return `{${await serializeJsonRows(resource, rows)}}`;
  }
}
