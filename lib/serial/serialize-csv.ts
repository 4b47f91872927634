/**
 * A read of a flat resource as CSV (RFC 4180): a header row of the field labels, then one record per row, CRLF
 * after each. Values are the text JSON gives them (numbers with the database's digits, true/false, dates and
 * timestamps as JSON's strings, bytes as base64); NULL is an empty unquoted field and the empty string `""`, as
 * PostgreSQL's `COPY ... CSV` writes them, so the two stay apart. A field holding a comma, quote, CR or LF is
 * quoted. Written a slice of rows at a time (map-in-slices), as the other representations are. Pure.
 *
 * Not on csv-stringify: quoting is these few lines, and the library would take some 3 KB of every /res function's
 * zip, over the size those are held to (test/deploy/package.test.ts).
 */
import { NegotiationError } from '../errors';
import { forEachInSlices } from '../map-in-slices';
import type { SqlResource } from '../resource';
import type { OutRow } from '../values';
import { valueText } from './format-value';

/** The Content-Type of a CSV answer, with the two parameters RFC 4180 defines: the charset, and the header row there. */
export const csvType = 'text/csv; charset=utf-8; header=present';

/** Fields that must be quoted: the empty string (an empty unquoted field is NULL), and any comma, quote, CR or LF. */
const needsQuotes = /^$|[",\r\n]/;

function csvField(value: string | null): string {
  if (value === null) return '';
  return needsQuotes.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A read of `resource` can be answered in CSV: a hierarchical one's rows hold child rows, which no record can. */
export function requireFlatForCsv(resource: SqlResource): void {
  if (resource.kind === 'flat') return;
  throw new NegotiationError(
    406,
    'not_acceptable',
    `Resource ${resource.name} is hierarchical (its rows hold ${resource.childCollectionName}), and text/csv is for flat resources; use application/xml or application/json`,
  );
}

/** Records as CSV text, CRLF after each; null an empty field. The OpenAPI document's examples are written so too. */
export function csvText(records: readonly (readonly (string | null)[])[]): string {
  return records.map((record) => `${record.map(csvField).join(',')}\r\n`).join('');
}

export async function serializeCsv(resource: SqlResource, rows: readonly OutRow[]): Promise<string> {
  requireFlatForCsv(resource);
  const fields = resource.fields;
  const record = (row: OutRow) => fields.map((field) => valueText(field.type, row.values[field.label] ?? null));
  const parts = [csvText([fields.map((field) => field.label)])];
  await forEachInSlices(rows, (row) => {
    parts.push(csvText([record(row)]));
  });
  return parts.join('');
}
