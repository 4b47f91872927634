/**
 * Table tests of CSV reads: the header row of labels in field order, CRLF after each record, values as JSON gives
 * them, NULL an empty field and the empty string `""`, quoting of commas, quotes, CR and LF; a hierarchical
 * resource refused with a 406. Pure.
 */
import { csvType, serializeCsv } from '../../lib/serial/serialize-csv';
import { representationOf, serializeRead } from '../../lib/serial/serialize-read';
import type { OutRow } from '../../lib/values';
import { serviceErrorOf, serviceErrorOfAsync } from '../support/resources';
import { flat, fullRow, hierarchical } from './fixtures';

const header = 'id,price,ratio,active,born,opens,updated,photo,title\r\n';

/** One row of `flat` with `values`, every other field NULL. */
const row = (values: OutRow['values']): OutRow => ({ values });

describe('serializeCsv', () => {
  it.each<[string, OutRow[], string]>([
    ['no rows: the header row alone', [], header],
    [
      'every value type as JSON writes it (bytes base64, booleans true/false, exact digits)',
      [fullRow],
      `${header}12345678901234567890,20.10,0.25,true,2024-02-29,08:30:00.5,2024-02-29 23:59:59.123456,aGk=,Airport Pollock\r\n`,
    ],
    [
      'MySQL booleans as numbers',
      [row({ id: 1, active: 0 }), row({ id: 2, active: 1 })],
      `${header}1,,,false,,,,,\r\n2,,,true,,,,,\r\n`,
    ],
    ['NULL is an empty field, the empty string ""', [row({ id: 1, title: '' })], `${header}1,,,,,,,,""\r\n`],
    ['a field missing from the row is NULL', [row({ id: 1 })], `${header}1,,,,,,,,\r\n`],
    ['a comma is quoted', [row({ id: 1, title: 'a,b' })], `${header}1,,,,,,,,"a,b"\r\n`],
    ['a quote is doubled inside quotes', [row({ id: 1, title: 'say "hi"' })], `${header}1,,,,,,,,"say ""hi"""\r\n`],
    [
      'CRLF, a lone LF and a lone CR are quoted',
      [row({ id: 1, title: 'a\r\nb' }), row({ id: 2, title: 'a\nb' }), row({ id: 3, title: '\r' })],
      `${header}1,,,,,,,,"a\r\nb"\r\n2,,,,,,,,"a\nb"\r\n3,,,,,,,,"\r"\r\n`,
    ],
    [
      'spaces, apostrophes, < and & stay as they are',
      [row({ id: 1, title: " it's <b> & " })],
      `${header}1,,,,,,,, it's <b> & \r\n`,
    ],
    ['unicode as it is', [row({ id: 1, title: 'dürüm 😀 日本' })], `${header}1,,,,,,,,dürüm 😀 日本\r\n`],
    [
      'NaN and infinities as their text',
      [row({ id: 1, ratio: 'NaN' }), row({ id: 2, ratio: '-Infinity' })],
      `${header}1,,NaN,,,,,,\r\n2,,-Infinity,,,,,,\r\n`,
    ],
  ])('%s', async (_, rows, expected) => {
    expect(await serializeCsv(flat, rows)).toBe(expected);
  });

  it('writes many rows a slice at a time, in order', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => row({ id: i }));
    const lines = (await serializeCsv(flat, rows)).split('\r\n');
    expect(lines).toHaveLength(202);
    expect(lines[1]).toBe('0,,,,,,,,');
    expect(lines[200]).toBe('199,,,,,,,,');
    expect(lines[201]).toBe('');
  });

  it('is what serializeRead writes for text/csv', async () => {
    expect(await serializeRead(flat, [row({ id: 1 })], csvType)).toBe(`${header}1,,,,,,,,\r\n`);
  });
});

describe('a hierarchical resource has no CSV', () => {
  const refusal = {
    name: 'NegotiationError',
    status: 406,
    code: 'not_acceptable',
    message:
      'Resource test.lang is hierarchical (its rows hold movies), and text/csv is for flat resources; use application/xml or application/json',
  };

  it('representationOf refuses it before the read runs', () => {
    expect(serviceErrorOf(() => representationOf(hierarchical, csvType))).toEqual(refusal);
  });

  it('serializeCsv refuses it too', async () => {
    expect(await serviceErrorOfAsync(() => serializeCsv(hierarchical, []))).toEqual(refusal);
  });

  it.each(['application/xml', 'application/json', 'text/html; charset=utf-8'] as const)(
    'representationOf passes %s through, on any resource',
    (type) => {
      expect(representationOf(hierarchical, type)).toBe(type);
      expect(representationOf(flat, type)).toBe(type);
    },
  );

  it('representationOf passes text/csv on a flat resource', () => {
    expect(representationOf(flat, csvType)).toBe(csvType);
  });
});
