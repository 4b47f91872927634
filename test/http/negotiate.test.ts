/**
 * Table tests of content negotiation (D12): response type from _output, Accept, the body type or XML; 406 and
 * 415; problem+json for errors (D19); HTML pages for a browser; CSV for reads, only when asked for; and for every
 * other client what it always got. Pure.
 */
import { negotiatePage, negotiateRead, negotiateResponse, wantsProblemJson } from '../../lib/http/negotiate';
import type { BodyType } from '../../lib/request/resource-request';
import type { OutputName, OutputType } from '../../lib/values';
import { serviceErrorOf } from '../support/resources';

const xml = 'application/xml';
const json = 'application/json';
const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const responses: { accept: string | undefined; output?: OutputType; body?: BodyType; expected: OutputType }[] = [
  // _output wins over everything
  { accept: xml, output: json, expected: json },
  { accept: json, output: xml, expected: xml },
  { accept: 'application/json;q=1, application/xml;q=0.1', output: xml, body: 'json', expected: xml },
  { accept: undefined, output: json, body: 'xml', expected: json },
  // absent, empty or only */*: no preference; a JSON write answers JSON, anything else XML
  { accept: undefined, expected: xml },
  { accept: '', expected: xml },
  { accept: ' ', expected: xml },
  { accept: '*/*', expected: xml },
  { accept: '*/*;q=0.5', expected: xml },
  { accept: undefined, body: 'json', expected: json },
  { accept: '', body: 'json', expected: json },
  { accept: '*/*', body: 'json', expected: json },
  { accept: undefined, body: 'xml', expected: xml },
  { accept: '*/*', body: 'form', expected: xml },
  { accept: 'application/problem+json', expected: xml },
  { accept: 'application/problem+json', body: 'json', expected: json },
  // an explicit Accept decides, whatever the body
  { accept: json, expected: json },
  { accept: xml, expected: xml },
  { accept: 'text/xml', expected: xml },
  { accept: xml, body: 'json', expected: xml },
  { accept: json, body: 'xml', expected: json },
  { accept: 'APPLICATION/JSON', expected: json },
  { accept: 'application/json; charset=utf-8', expected: json },
  // q-values; ties give XML
  // the order of ranges does not matter: the best of text/xml and application/xml counts
  { accept: 'text/xml;q=0.2, application/xml;q=0.9, application/json;q=0.5', expected: xml },
  { accept: 'application/xml;q=0.9, text/xml;q=0.2, application/json;q=0.5', expected: xml },
  { accept: 'application/json;q=0.5, application/xml;q=0.9', expected: xml },
  { accept: 'application/json;q=0.9, application/xml;q=0.5', expected: json },
  { accept: ' application/json ; q=0.7 , application/xml ; Q=0.6', expected: json },
  { accept: 'application/json, application/xml', expected: xml },
  { accept: 'application/xml, application/json', expected: xml },
  { accept: 'application/json;q=0.8, application/xml;q=0.8', expected: xml },
  { accept: 'application/json, */*;q=0.1', expected: json },
  { accept: 'application/xml;q=0.2, */*', expected: json },
  { accept: '*/*, application/json', expected: xml },
  { accept: 'application/json, application/problem+json', expected: json },
  // a browser prefers XML
  { accept: browser, expected: xml },
  { accept: browser, body: 'json', expected: xml },
  // wildcards of a major type
  { accept: 'application/*', expected: xml },
  { accept: 'application/*;q=0.5, application/json', expected: json },
  { accept: 'application/*, application/xml;q=0.1', expected: json },
  { accept: 'text/*', expected: xml },
  { accept: 'text/html, application/json;q=0.1', expected: json },
];

const notAcceptable: (string | undefined)[] = [
  '*/*;q=0',
  'text/html',
  'image/png, text/plain',
  'application/json;q=0',
  'application/json;q=0, application/xml;q=0',
  'application/json;q=0, application/xml;q=0, text/xml;q=0',
  'application/xhtml+xml',
  'text/*;q=0, application/yaml',
];

describe('negotiateResponse', () => {
  it.each(responses)(
    'Accept "$accept", _output $output, body $body → $expected',
    ({ accept, output, body, expected }) => {
      expect(negotiateResponse(accept, output, body)).toBe(expected);
    },
  );

  it.each(notAcceptable)('Accept "%s" is a 406', (accept) => {
    expect(serviceErrorOf(() => negotiateResponse(accept, undefined, 'json'))).toEqual({
      name: 'NegotiationError',
      status: 406,
      code: 'not_acceptable',
      message: `Accept "${accept}" admits no type this service answers with; use application/xml or application/json`,
    });
  });
});

describe('wantsProblemJson', () => {
  it.each([
    { accept: 'application/problem+json', expected: true },
    { accept: 'APPLICATION/PROBLEM+JSON', expected: true },
    { accept: 'text/html, application/problem+json;q=0.5', expected: true },
    { accept: 'application/problem+json;q=0', expected: false },
    { accept: 'application/json', expected: false },
    { accept: '*/*', expected: false },
    { accept: '', expected: false },
    { accept: undefined, expected: false },
  ])('Accept "$accept" → $expected', ({ accept, expected }) => {
    expect(wantsProblemJson(accept)).toBe(expected);
  });
});

describe('negotiatePage', () => {
  const html = 'text/html; charset=utf-8';
  it.each<{ accept: string | undefined; output?: OutputType; expected: string }>([
    // browsers: text/html first, XML and JSON after it or only through */*
    { accept: browser, expected: html },
    { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', expected: html },
    { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/webp,image/apng,*/*;q=0.8', expected: html },
    { accept: 'text/html, application/xml', expected: html },
    { accept: 'text/html', expected: html },
    { accept: 'TEXT/HTML;q=0.5', expected: html },
    // _output wins: the browser asked for a representation by name
    { accept: browser, output: xml, expected: xml },
    { accept: browser, output: json, expected: json },
    // everyone else: exactly what negotiateResponse answers
    { accept: undefined, expected: xml },
    { accept: '', expected: xml },
    { accept: '*/*', expected: xml },
    { accept: xml, expected: xml },
    { accept: 'text/xml', expected: xml },
    { accept: json, expected: json },
    { accept: 'text/*', expected: xml },
    { accept: 'application/json, text/html;q=0.9', expected: json },
    { accept: 'application/xml;q=0.9, text/html;q=0.5', expected: xml },
    { accept: 'text/html;q=0, application/json', expected: json },
    { accept: 'application/xhtml+xml, application/xml;q=0.9', expected: xml },
  ])('Accept "$accept", _output $output → $expected', ({ accept, output, expected }) => {
    expect(negotiatePage(accept, output)).toBe(expected);
  });

  it.each(notAcceptable.filter((accept) => accept !== 'text/html'))('Accept "%s" is still a 406', (accept) => {
    expect(serviceErrorOf(() => negotiatePage(accept, undefined))).toMatchObject({ status: 406 });
  });
});

describe('negotiateRead', () => {
  const csv = 'text/csv; charset=utf-8; header=present';
  const html = 'text/html; charset=utf-8';
  it.each<{ accept: string | undefined; output?: OutputName; expected: string }>([
    // CSV by name, whatever Accept says
    { accept: undefined, output: 'text/csv', expected: csv },
    { accept: json, output: 'text/csv', expected: csv },
    { accept: browser, output: 'text/csv', expected: csv },
    { accept: 'image/png', output: 'text/csv', expected: csv },
    { accept: 'text/csv', output: json, expected: json },
    // CSV by Accept, ranked above XML, JSON and HTML
    { accept: 'text/csv', expected: csv },
    { accept: 'TEXT/CSV; header=present', expected: csv },
    { accept: 'text/csv, application/json;q=0.9', expected: csv },
    { accept: 'text/csv, */*;q=0.1', expected: csv },
    { accept: 'text/csv;q=0.9, application/xml;q=0.5', expected: csv },
    { accept: 'text/csv, text/html;q=0.9', expected: csv },
    // never on a tie, on a wildcard alone, or ranked lower
    { accept: 'text/csv, application/json', expected: json },
    { accept: 'application/xml, text/csv', expected: xml },
    { accept: 'text/csv;q=0.5, application/json', expected: json },
    { accept: 'text/csv, text/html', expected: html },
    { accept: 'text/*', expected: xml },
    { accept: '*/*', expected: xml },
    { accept: 'text/csv;q=0, */*', expected: xml },
    // everyone else: exactly what they got before
    ...[undefined, '', xml, json, 'text/xml', browser, 'application/json, text/html;q=0.9'].map((accept) => ({
      accept,
      expected: negotiatePage(accept, undefined),
    })),
    { accept: browser, output: xml, expected: xml },
  ])('Accept "$accept", _output $output → $expected', ({ accept, output, expected }) => {
    expect(negotiateRead(accept, output)).toBe(expected);
  });

  it.each(notAcceptable.filter((accept) => accept !== 'text/html'))(
    'Accept "%s" is a 406 that names text/csv too',
    (accept) => {
      expect(serviceErrorOf(() => negotiateRead(accept, undefined))).toEqual({
        name: 'NegotiationError',
        status: 406,
        code: 'not_acceptable',
        message: `Accept "${accept}" admits no type this service answers with; use application/xml or application/json (or text/csv, on a flat resource)`,
      });
    },
  );

  it.each(['text/csv;q=0', 'text/csv;q=0, application/json;q=0'])('Accept "%s" is a 406', (accept) => {
    expect(serviceErrorOf(() => negotiateRead(accept, undefined))).toMatchObject({ status: 406 });
  });
});

describe('CSV is for reads only', () => {
  const refusal = {
    name: 'NegotiationError',
    status: 406,
    code: 'not_acceptable',
    message:
      '_output asks for text/csv, which only reads of flat resources answer with; use application/xml or application/json',
  };

  it.each<[string | undefined, BodyType | undefined]>([
    [undefined, 'json'],
    ['text/csv', 'xml'],
    [json, undefined],
  ])('a write with _output=text/csv (Accept "%s", body %s) is a 406', (accept, body) => {
    expect(serviceErrorOf(() => negotiateResponse(accept, 'text/csv', body))).toEqual(refusal);
  });

  it('a description page with _output=text/csv is the same 406', () => {
    expect(serviceErrorOf(() => negotiatePage(browser, 'text/csv'))).toEqual(refusal);
  });

  it.each(['text/csv', 'text/csv, text/html;q=0.5'])(
    'a write or a page with Accept "%s" gets the 406 it got before',
    (accept) => {
      const before = `Accept "${accept}" admits no type this service answers with; use application/xml or application/json`;
      expect(serviceErrorOf(() => negotiateResponse(accept, undefined, 'csv'))).toMatchObject({ message: before });
    },
  );

  it('a page with Accept text/csv alone is the 406 it was', () => {
    expect(serviceErrorOf(() => negotiatePage('text/csv', undefined))).toMatchObject({ status: 406 });
  });
});
