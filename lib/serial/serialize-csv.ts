/**
 * A read of a flat resource as CSV (RFC 4180): a header row of the field labels, then one record per row, CRLF
 * after each. Values are the text JSON gives them (numbers with the database's digits, true/false, dates and
 * timestamps as JSON's strings, bytes as base64); NULL is an empty unquoted field and the empty string `""`, as
 * PostgreSQL's `COPY ... CSV` writes them, so the two stay apart. csv-stringify quotes a field holding a comma,
 * quote, CR or LF. Written a slice of rows at a time (map-in-slices), as the other representations are. Pure.
 */
import { type Options, stringify } from 'csv-stringify/sync';
import { NegotiationError } from '../errors';
import { nextTurn, sliceRows } from '../map-in-slices';
import type { SqlResource } from '../resource';
import type { OutRow } from '../values';
import { valueText } from './format-value';

/** The Content-Type of a CSV answer, with the two parameters RFC 4180 defines: the charset, and the header row there. */
export const csvType = 'text/csv; charset=utf-8; header=present';

const options: Options = {
  record_delimiter: 'windows',
  // csv-stringify quotes a comma, a quote and CRLF on its own; an empty string and a lone CR or LF must be quoted too
  quoted_match: [/^$/, /[\r\n]/],
};

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
  return stringify(records as (string | null)[][], options);
}

export async function serializeCsv(resource: SqlResource, rows: readonly OutRow[]): Promise<string> {
  requireFlatForCsv(resource);
  const fields = resource.fields;
  const record = (row: OutRow) => fields.map((field) => valueText(field.type, row.values[field.label] ?? null));
  const parts = [csvText([fields.map((field) => field.label)])];
  for (let start = 0; start < rows.length; start += sliceRows) {
    if (start > 0) await nextTurn();
    parts.push(csvText(rows.slice(start, start + sliceRows).map(record)));
  }
  return parts.join('');
}
