/**
 * A CSV request body (RFC 4180) → its rows: a header row of labels, then one row of values per record, each value
 * under the label of its column. An empty unquoted field is NULL and `""` the empty string, as PostgreSQL's
 * `COPY ... CSV` reads them and as CSV responses write them. Line ends may be CRLF, LF or CR; a UTF-8 byte order
 * mark is dropped. A record with another number of fields than the header, a header with an empty or repeated label,
 * and a quoting error are 400s naming the line the row starts on. Which labels a resource takes is the planner's
 * business. Pure.
 *
 * Not on csv-parse: it would take some 8 KB of every /res function's zip, over the size those are held to
 * (test/deploy/package.test.ts), for what these few lines do; and it counts a CRLF inside quotes as two lines.
 */
import { BadRequestError } from '../errors';
import type { BodyRow, RawValue } from './resource-request';

/** A record as read, and the line it starts on. */
export interface CsvRecord {
  readonly fields: RawValue[];
  readonly line: number;
}

const quotingRule =
  'a field holding a comma, a quote or a line break is written in double quotes, each quote in it doubled ("")';

/** An unquoted field: everything up to a comma, a line end or a quote (which is an error there). */
const unquoted = /[^,\r\n"]*/y;
const lineBreaks = /\r\n|\r|\n/g;

export function readCsvBody(text: string): BodyRow[] {
  const [header, ...records] = readCsvRecords(text);
  if (header === undefined) throw bad('The CSV body has no header row; its first line must list the field labels');
  const labels = headerLabels(header.fields);
  return records.map(({ fields, line }) => {
    if (fields.length !== labels.length) {
      throw bad(`Line ${line} of the CSV body has ${count(fields.length)}; the header row has ${count(labels.length)}`);
    }
    return { values: Object.fromEntries(labels.map((label, i) => [label, fields[i] ?? null])) };
  });
}

/** Where reading has got to: the position in the text, and the line it is on. */
interface Cursor {
  at: number;
  line: number;
}

/** The records of a CSV text, header row included; none for an empty text. */
export function readCsvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const cursor: Cursor = { at: text.startsWith('\ufeff') ? 1 : 0, line: 1 };
  while (cursor.at < text.length) {
    const line = cursor.line;
    const fields = [readField(text, cursor, line)];
    while (text[cursor.at] === ',') {
      cursor.at++;
      fields.push(readField(text, cursor, line));
    }
    // the record's line end: CRLF, LF or CR
    cursor.at += text.startsWith('\r\n', cursor.at) ? 2 : 1;
    cursor.line++;
    records.push({ fields, line });
  }
  return records;
}

/** The field at the cursor, quoted or not, which it moves past; `line`: the line its row starts on, for errors. */
function readField(text: string, cursor: Cursor, line: number): RawValue {
  if (text[cursor.at] !== '"') {
    unquoted.lastIndex = cursor.at;
    const value = unquoted.exec(text)?.[0] ?? '';
    cursor.at += value.length;
    if (text[cursor.at] === '"')
      throw quotingError(line, 'a quote appears inside a field that does not start with one');
    return value === '' ? null : value;
  }
  const value = quotedField(text, cursor, line);
  cursor.line += value.match(lineBreaks)?.length ?? 0;
  if (cursor.at < text.length && !',\r\n'.includes(text[cursor.at] as string))
    throw quotingError(line, 'a closing quote is followed by something other than a comma or the end of the line');
  return value;
}

/** The value of the quoted field at the cursor, its doubled quotes undone; the cursor moves past its closing quote. */
function quotedField(text: string, cursor: Cursor, line: number): string {
  let value = '';
  let from = cursor.at + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) throw quotingError(line, 'a quoted field is never closed');
    value += text.slice(from, quote);
    if (text[quote + 1] !== '"') {
      cursor.at = quote + 1;
      return value;
    }
    value += '"';
    from = quote + 2;
  }
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

const count = (fields: number) => (fields === 1 ? '1 field' : `${fields} fields`);

function quotingError(line: number, what: string): BadRequestError {
  return bad(`The CSV body is not valid in the row at line ${line}: ${what}; ${quotingRule}`);
}

function bad(message: string): BadRequestError {
  return new BadRequestError('bad_body', message);
}
