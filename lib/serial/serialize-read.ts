/**
 * The body of a successful read: `readResponse` in XML, the collection object in JSON, CSV records (flat
 * resources only), or a page of rows for a browser. Pure; the rows arrive already regrouped into parents and
 * children; must not reorder or filter them.
 */
import { type AtOnceOrLater, thenAtOnce } from '../map-in-slices';
import type { SqlResource } from '../resource';
import type { OutputType, OutRow } from '../values';
import { htmlType } from './html-page';
import { type ReadPage, rowsHtml } from './rows-html';
import { csvType, requireFlatForCsv, serializeCsv } from './serialize-csv';
import { serializeJsonRows, serializeXmlDocument } from './serialize-rows';

/** What a read answers with: XML, JSON, CSV, or an HTML page for a browser (reads only; writes answer XML or JSON). */
export type Representation = OutputType | typeof csvType | typeof htmlType;

/** The representation a read of `resource` answers with, checked before the read runs: CSV only for a flat resource. */
export function representationOf(resource: SqlResource, type: Representation): Representation {
  if (type === csvType) requireFlatForCsv(resource);
  return type;
}

/** A promise only when many rows are written a slice at a time (serialize-rows), or for CSV and a page. */
export function serializeRead(
  resource: SqlResource,
  rows: readonly OutRow[],
  type: OutputType | typeof csvType,
): AtOnceOrLater<string>;
export function serializeRead(
  resource: SqlResource,
  rows: readonly OutRow[],
  type: Representation,
  page: () => ReadPage,
): AtOnceOrLater<string>;
/** `page`: what a page of rows links from, asked only when the answer is a page. */
export function serializeRead(
  resource: SqlResource,
  rows: readonly OutRow[],
  type: Representation,
  page?: () => ReadPage,
): AtOnceOrLater<string> {
  switch (type) {
    case 'application/xml':
      return serializeXmlDocument(resource, 'readResponse', {}, rows);
    case 'application/json':
      return thenAtOnce(serializeJsonRows(resource, rows), (text) => `{${text}}`);
    case csvType:
      return serializeCsv(resource, rows);
    case htmlType:
      // the overloads give a page with HTML: only a call around them could leave it out
      if (page === undefined) throw new Error('An HTML page of rows needs the read it shows (ReadPage)');
      return rowsHtml(resource, rows, page());
  }
}
