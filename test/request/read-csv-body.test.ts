/**
 * Table tests of CSV request bodies: a header row of labels, then rows; NULL an empty unquoted field and `""` the
 * empty string; quoted commas, quotes and line breaks; a byte order mark dropped; the 400s for a missing or bad
 * header, a row of another length and a quoting error, each naming the line; and the planner's 415 for a
 * hierarchical resource. Pure.
 */
import { readCsvRecords } from '../../lib/request/read-csv-body';
import type { BodyRow } from '../../lib/request/resource-request';
import { csvText } from '../../lib/serial/serialize-csv';
import { badBody, failure, flatNames, hierarchicalNames, parseBody } from '../support/body-rows';

const readCsv = (text: string) => parseBody('csv', text, flatNames, 'parents');

describe('parseBody CSV', () => {
  it.each<[string, string, BodyRow[]]>([
    ['a header row alone: no rows', 'id,title\r\n', []],
    ['a header row without a line end', 'id,title', []],
    [
      'rows under the labels, CRLF',
      'id,title\r\n1,a\r\n2,b\r\n',
      [{ values: { id: '1', title: 'a' } }, { values: { id: '2', title: 'b' } }],
    ],
    [
      'LF line ends too, and no last line end',
      'id,title\n1,a\n2,b',
      [{ values: { id: '1', title: 'a' } }, { values: { id: '2', title: 'b' } }],
    ],
    [
      'an empty field is NULL, "" the empty string',
      'id,title,note\r\n1,,""\r\n',
      [{ values: { id: '1', title: null, note: '' } }],
    ],
    [
      'a one-field empty line is a NULL',
      'title\r\n\r\nx\r\n',
      [{ values: { title: null } }, { values: { title: 'x' } }],
    ],
    [
      'the text null is text',
      'title\r\nnull\r\nNULL\r\n',
      [{ values: { title: 'null' } }, { values: { title: 'NULL' } }],
    ],
    [
      'quoted commas, doubled quotes and line breaks',
      'id,title\r\n1,"a,b"\r\n2,"say ""hi"""\r\n3,"two\r\nlines"\r\n4,"a\nb"\r\n',
      [
        { values: { id: '1', title: 'a,b' } },
        { values: { id: '2', title: 'say "hi"' } },
        { values: { id: '3', title: 'two\r\nlines' } },
        { values: { id: '4', title: 'a\nb' } },
      ],
    ],
    ['CR line ends', 'id,title\r1,a\r2,b', [{ values: { id: '1', title: 'a' } }, { values: { id: '2', title: 'b' } }]],
    ['a quoted last field without a line end', 'id,title\r\n1,"a,b"', [{ values: { id: '1', title: 'a,b' } }]],
    ['a quoted field holding only quotes', 'id,title\r\n1,""""""\r\n', [{ values: { id: '1', title: '""' } }]],
    ['spaces kept', 'id,title\r\n 1 , a \r\n', [{ values: { id: ' 1 ', title: ' a ' } }]],
    ['unicode labels and values', 'título,note\r\nZoë,日本 😀\r\n', [{ values: { título: 'Zoë', note: '日本 😀' } }]],
    ['a UTF-8 byte order mark dropped', '\ufeffid,title\r\n1,a\r\n', [{ values: { id: '1', title: 'a' } }]],
    ['a quoted label', '"id","the, title"\r\n1,a\r\n', [{ values: { id: '1', 'the, title': 'a' } }]],
  ])('reads %s', async (_what, text, rows) => {
    expect(await readCsv(text)).toEqual(rows);
  });

  it('reads back what a CSV answer writes, whatever the values', () => {
    const values = ['', null, 'a', 'a,b', 'say "hi"', '"', 'x\r\ny', '\n', '\r', ' ', 'é 😀', 'null', '"",""'];
    const rows = values.map((value, i) => [String(i), value, values[values.length - 1 - i] ?? null]);
    const text = csvText([['id', 'a', 'b'], ...rows]);
    expect(readCsvRecords(text).map((record) => record.fields)).toEqual([['id', 'a', 'b'], ...rows]);
    // a line break inside a field moves the rows after it a line down
    expect(readCsvRecords(text).map((record) => record.line)).toEqual([
      1, 2, 3, 4, 5, 6, 8, 10, 13, 15, 17, 18, 19, 20,
    ]);
  });

  it('keeps a __proto__ label as an own value, not a prototype', async () => {
    const [row] = await readCsv('__proto__,id\r\nx,1\r\n');
    expect(Object.entries(row?.values ?? {})).toEqual([
      ['__proto__', 'x'],
      ['id', '1'],
    ]);
  });

  const rule =
    'a field holding a comma, a quote or a line break is written in double quotes, each quote in it doubled ("")';
  it.each<[string, string, string]>([
    ['only line ends', '\r\n\r\n', 'Column 1 of the CSV header row has no label'],
    ['an empty label', 'id,,title\r\n1,2,3\r\n', 'Column 2 of the CSV header row has no label'],
    ['an empty quoted label', 'id,""\r\n', 'Column 2 of the CSV header row has no label'],
    ['a label twice', 'id,title,id\r\n', 'The CSV header row names id twice'],
    [
      'a row with fewer fields',
      'id,title\r\n1,a\r\n2\r\n',
      'Line 3 of the CSV body has 1 field; the header row has 2 fields',
    ],
    [
      'a row with more fields',
      'id,title\r\n1,a,x\r\n',
      'Line 2 of the CSV body has 3 fields; the header row has 2 fields',
    ],
    [
      'a trailing empty line',
      'id,title\r\n1,a\r\n\r\n',
      'Line 3 of the CSV body has 1 field; the header row has 2 fields',
    ],
    [
      'a row after a quoted line break: its own line',
      'id,title\r\n1,"a\r\nb"\r\n2\r\n',
      'Line 4 of the CSV body has 1 field; the header row has 2 fields',
    ],
    [
      'a quote never closed',
      'id,title\r\n1,"a\r\n',
      `The CSV body is not valid in the row at line 2: a quoted field is never closed; ${rule}`,
    ],
    [
      'text after a closing quote',
      'id,title\r\n1,"a"b\r\n',
      `The CSV body is not valid in the row at line 2: a closing quote is followed by something other than a comma or the end of the line; ${rule}`,
    ],
    [
      'a quote inside an unquoted field',
      'id,title\r\n1,a"b\r\n',
      `The CSV body is not valid in the row at line 2: a quote appears inside a field that does not start with one; ${rule}`,
    ],
  ])('refuses %s with a 400', async (_what, text, message) => {
    expect(await failure(() => readCsv(text))).toEqual(badBody(message));
  });

  it('refuses a hierarchical resource with a 415: its rows hold child rows', async () => {
    expect(await failure(() => parseBody('csv', 'name\r\nx\r\n', hierarchicalNames, 'parents'))).toEqual({
      error: 'NegotiationError',
      status: 415,
      code: 'unsupported_media_type',
      message:
        'Resource test.Names is hierarchical (its rows hold movies), and a text/csv body holds flat rows only; send its rows as application/xml or application/json',
    });
  });
});
