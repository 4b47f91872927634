/** The type of a request body from its Content-Type, and the 415 for any other. Pure. */
import { requestBodyType } from '../../lib/request/body-type';
import type { BodyType } from '../../lib/request/resource-request';
import { serviceErrorOf } from '../support/resources';

const bodyTypes: { contentType: string; expected: BodyType }[] = [
  { contentType: 'application/xml', expected: 'xml' },
  { contentType: 'application/xml; charset=utf-8', expected: 'xml' },
  { contentType: 'text/xml', expected: 'xml' },
  { contentType: 'TEXT/XML; charset=ISO-8859-1', expected: 'xml' },
  { contentType: 'application/atom+xml', expected: 'xml' },
  { contentType: 'application/json', expected: 'json' },
  { contentType: 'application/json;charset=UTF-8', expected: 'json' },
  { contentType: ' Application/JSON ', expected: 'json' },
  { contentType: 'application/vnd.api+json', expected: 'json' },
  { contentType: 'application/x-www-form-urlencoded', expected: 'form' },
  { contentType: 'application/x-www-form-urlencoded; charset=UTF-8', expected: 'form' },
  { contentType: 'text/csv', expected: 'csv' },
  { contentType: 'Text/CSV; charset=utf-8; header=present', expected: 'csv' },
];

const unsupported: (string | undefined)[] = [
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'text/html',
  'application/jsonp',
  'text/csvx',
  'application/csv',
  '',
  undefined,
];

describe('requestBodyType', () => {
  it.each(bodyTypes)('$contentType → $expected', ({ contentType, expected }) => {
    expect(requestBodyType(contentType)).toBe(expected);
  });

  it.each(unsupported)('Content-Type "%s" is a 415', (contentType) => {
    expect(serviceErrorOf(() => requestBodyType(contentType))).toEqual({
      name: 'NegotiationError',
      status: 415,
      code: 'unsupported_media_type',
      message: `Content-Type "${contentType ?? ''}" is not supported for request bodies; use application/xml or application/json or application/x-www-form-urlencoded`,
    });
  });
});
