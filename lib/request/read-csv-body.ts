/**
 * A CSV request body (RFC 4180) → its rows: a header row of labels, then one row of values per record, each value
 * under the label of its column. An empty unquoted field is NULL and `""` the empty string, as PostgreSQL's
 * `COPY ... CSV` reads them and as CSV responses write them. A record with another number of fields than the header,
 * a header with an empty or repeated label, and a quoting error are 400s naming the line. Which labels a resource
 * takes is the planner's business. Pure; csv-parse reads the text (its sync entry: the body is at most
 * MAX_BODY_BYTES).
 */
import { CsvError, parse } from 'csv-parse/sync';
import { BadRequestError } from '../errors';
import type { BodyRow, RawValue } from './resource-request';

/** A record as read, and how far into the body (in UTF-8 bytes) it ends. */
interface CsvRecord {
  readonly record: RawValue[];
  readonly info: { readonly bytes: number };
}

/** What each quoting error of csv-parse means, in the words of someone writing CSV. */
const quotingErrors: Readonly<Record<string, string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is never closed',
  CSV_INVALID_CLOSING_QUOTE: 'a closing quote is followed by something other than a comma or the end of the line',
  INVALID_OPENING_QUOTE: 'a quote appears inside a field that does not start with one',
};

const quotingRule =
  'a field holding a comma, a quote or a line break is written in double quotes, each quote in it doubled ("")';

export function readCsvBody(text: string): BodyRow[] {
  const [header, ...records] = readRecords(text);
  if (header === undefined) throw bad('The CSV body has no header row; its first line must list the field labels');
  const labels = headerLabels(header.record);
  return records.map(({ record }, index) => {
    if (record.length !== labels.length) {
      const line = lineAfter(text, (records[index - 1] ?? header).info.bytes);
      throw bad(
        `Line ${line} of the CSV body has ${fields(record.length)}; the header row has ${fields(labels.length)}`,
      );
    }
    return { values: Object.fromEntries(labels.map((label, i) => [label, record[i] ?? null])) };
  });
}

function readRecords(text: string): CsvRecord[] {
  let readBytes = 0;
  try {
    return parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      cast: (value, context) => (value === '' && !context.quoting ? null : value),
      on_record: (record, context) => {
        readBytes = context.bytes;
        return record;
      },
    }) as unknown as CsvRecord[];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const what = quotingErrors[error.code] ?? error.message;
    throw new BadRequestError(
      'bad_body',
      `The CSV body is not valid in the row at line ${lineAfter(text, readBytes)}: ${what}; ${quotingRule}`,
      error,
    );
  }
}

/**
 * The line a row starts on, from where the row before it ends (csv-parse counts bytes, and counts a CRLF inside
 * quotes as two lines): one more than the line breaks before it.
 */
function lineAfter(text: string, bytes: number): number {
  const before = Buffer.from(text).subarray(0, bytes).toString();
  return 1 + (before.match(/\r\n|\r|\n/g)?.length ?? 0);
}

function headerLabels(header: readonly RawValue[]): string[] {
  const labels = header.map((label, index) => {
    if (label === null || label === '') throw bad(`Column ${index + 1} of the CSV header row has no label`);
    return String(label);
  });
  const repeated = labels.find((label, index) => labels.indexOf(label) !== index);
  if (repeated !== undefined) throw bad(`The CSV header row names ${repeated} twice`);
  return labels;
}

const fields = (count: number) => (count === 1 ? '1 field' : `${count} fields`);

function bad(message: string): BadRequestError {
  return new BadRequestError('bad_body', message);
}
