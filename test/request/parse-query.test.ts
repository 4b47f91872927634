/**
 * Table tests of the D6 query-string parser: classification, escapes, decoding, repeats and specials. Pure: no
 * IO, no database.
 */
import { BadRequestError } from '../../lib/errors';
import { parseQuery } from '../../lib/request/parse-query';
import type { ParsedQuery } from '../../lib/request/resource-request';

type Method = 'GET' | 'PUT' | 'DELETE';

const ok: { raw: string; method?: Method; expected: ParsedQuery }[] = [
  // The D6 table, row by row.
  { raw: 'a=null', expected: { filters: [{ name: 'a', op: 'null' }] } },
  { raw: 'a=!null', expected: { filters: [{ name: 'a', op: 'notnull' }] } },
  { raw: 'a=%21null', expected: { filters: [{ name: 'a', op: 'notnull' }] } },
  { raw: 'a=!x', expected: { filters: [{ name: 'a', op: 'ne', value: 'x' }] } },
  { raw: 'a=!', expected: { filters: [{ name: 'a', op: 'ne', value: '' }] } },
  { raw: 'a=%3C5', expected: { filters: [{ name: 'a', op: 'lt', value: '5' }] } },
  { raw: 'a=%3C%3D5', expected: { filters: [{ name: 'a', op: 'le', value: '5' }] } },
  { raw: 'a=%3E5', expected: { filters: [{ name: 'a', op: 'gt', value: '5' }] } },
  { raw: 'a=%3E%3D5', expected: { filters: [{ name: 'a', op: 'ge', value: '5' }] } },
  { raw: 'a=<=5', expected: { filters: [{ name: 'a', op: 'le', value: '5' }] } },
  { raw: 'a=>=-2.5', expected: { filters: [{ name: 'a', op: 'ge', value: '-2.5' }] } },
  { raw: 'a=>', expected: { filters: [{ name: 'a', op: 'gt', value: '' }] } },
  { raw: 'a=<<3', expected: { filters: [{ name: 'a', op: 'lt', value: '<3' }] } },
  { raw: 'a=(1,2,3)', expected: { filters: [{ name: 'a', op: 'in', values: ['1', '2', '3'] }] } },
  { raw: 'a=%281%2C2%29', expected: { filters: [{ name: 'a', op: 'in', values: ['1', '2'] }] } },
  { raw: 'a=(x)', expected: { filters: [{ name: 'a', op: 'in', values: ['x'] }] } },
  { raw: 'a=(1,+2+,3)', expected: { filters: [{ name: 'a', op: 'in', values: ['1', ' 2 ', '3'] }] } },
  { raw: 'a=(,)', expected: { filters: [{ name: 'a', op: 'in', values: ['', ''] }] } },
  { raw: 'a=(x%25)', expected: { filters: [{ name: 'a', op: 'in', values: ['x%'] }] } },
  { raw: 'a=(a\\,b,c)', expected: { filters: [{ name: 'a', op: 'in', values: ['a,b', 'c'] }] } },
  { raw: 'a=(a%5C%2Cb,c)', expected: { filters: [{ name: 'a', op: 'in', values: ['a,b', 'c'] }] } },
  { raw: 'a=(a\\b,c)', expected: { filters: [{ name: 'a', op: 'in', values: ['a\\b', 'c'] }] } },
  { raw: 'a=(x', expected: { filters: [{ name: 'a', op: 'eq', value: '(x' }] } },
  { raw: 'a=x%25', expected: { filters: [{ name: 'a', op: 'like', value: 'x%' }] } },
  { raw: 'title=The%25', expected: { filters: [{ name: 'title', op: 'like', value: 'The%' }] } },
  { raw: 'a=%25_b', expected: { filters: [{ name: 'a', op: 'like', value: '%_b' }] } },
  { raw: 'a=100\\%25', expected: { filters: [{ name: 'a', op: 'like', value: '100\\%' }] } },
  { raw: 'a=a\\_b%25', expected: { filters: [{ name: 'a', op: 'like', value: 'a\\_b%' }] } },
  { raw: 'a=\\%25x', expected: { filters: [{ name: 'a', op: 'like', value: '\\%x' }] } },
  { raw: 'a=plain', expected: { filters: [{ name: 'a', op: 'eq', value: 'plain' }] } },
  { raw: 'a=a_b', expected: { filters: [{ name: 'a', op: 'eq', value: 'a_b' }] } },
  { raw: 'a=', expected: { filters: [{ name: 'a', op: 'eq', value: '' }] } },
  { raw: 'a', expected: { filters: [{ name: 'a', op: 'eq', value: '' }] } },
  { raw: 'a=NULL', expected: { filters: [{ name: 'a', op: 'eq', value: 'NULL' }] } },
  { raw: 'a=x!', expected: { filters: [{ name: 'a', op: 'eq', value: 'x!' }] } },
  // Comparison operands are not classified again.
  { raw: 'a=%3E5%25', expected: { filters: [{ name: 'a', op: 'gt', value: '5%' }] } },
  { raw: 'a=!a%25', expected: { filters: [{ name: 'a', op: 'ne', value: 'a%' }] } },
  { raw: 'a=!(1,2)', expected: { filters: [{ name: 'a', op: 'ne', value: '(1,2)' }] } },
  // Escapes: the first backslash goes and no operator applies; what remains is a LIKE if it has a %, else equals.
  { raw: 'a=\\!x', expected: { filters: [{ name: 'a', op: 'eq', value: '!x' }] } },
  { raw: 'a=%5C!null', expected: { filters: [{ name: 'a', op: 'eq', value: '!null' }] } },
  { raw: 'a=\\null', expected: { filters: [{ name: 'a', op: 'eq', value: 'null' }] } },
  { raw: 'a=\\(a', expected: { filters: [{ name: 'a', op: 'eq', value: '(a' }] } },
  { raw: 'a=\\(1,2)', expected: { filters: [{ name: 'a', op: 'eq', value: '(1,2)' }] } },
  { raw: 'a=\\\\x', expected: { filters: [{ name: 'a', op: 'eq', value: '\\x' }] } },
  { raw: 'a=%5C%3C3', expected: { filters: [{ name: 'a', op: 'eq', value: '<3' }] } },
  { raw: 'a=\\>%3D3', expected: { filters: [{ name: 'a', op: 'eq', value: '>=3' }] } },
  { raw: 'a=\\!x%25', expected: { filters: [{ name: 'a', op: 'like', value: '!x%' }] } },
  { raw: 'a=%5C(%25', expected: { filters: [{ name: 'a', op: 'like', value: '(%' }] } },
  { raw: 'a=\\(a,b%25)', expected: { filters: [{ name: 'a', op: 'like', value: '(a,b%)' }] } },
  { raw: 'a=\\<%25', expected: { filters: [{ name: 'a', op: 'like', value: '<%' }] } },
  { raw: 'a=\\null%25', expected: { filters: [{ name: 'a', op: 'like', value: '\\null%' }] } },
  { raw: 'a=%5C%5C%25', expected: { filters: [{ name: 'a', op: 'like', value: '\\%' }] } },
  { raw: 'a=\\nullx', expected: { filters: [{ name: 'a', op: 'eq', value: '\\nullx' }] } },
  { raw: 'a=\\x', expected: { filters: [{ name: 'a', op: 'eq', value: '\\x' }] } },
  { raw: 'a=\\', expected: { filters: [{ name: 'a', op: 'eq', value: '\\' }] } },
  // Decoding: + is a space, %2B a plus, names decode too.
  { raw: 'a=x+y', expected: { filters: [{ name: 'a', op: 'eq', value: 'x y' }] } },
  { raw: 'a=x%2By', expected: { filters: [{ name: 'a', op: 'eq', value: 'x+y' }] } },
  { raw: 'a=%3E+5', expected: { filters: [{ name: 'a', op: 'gt', value: ' 5' }] } },
  { raw: 'my+field=%C3%A9', expected: { filters: [{ name: 'my field', op: 'eq', value: 'é' }] } },
  { raw: 'a=x%3Dy', expected: { filters: [{ name: 'a', op: 'eq', value: 'x=y' }] } },
  { raw: 'a=x=y', expected: { filters: [{ name: 'a', op: 'eq', value: 'x=y' }] } },
  // Several fields, order, empty pieces, case-sensitive names.
  { raw: '', expected: { filters: [] } },
  { raw: '&&', expected: { filters: [] } },
  {
    raw: 'price=%3E10&price=%3C%3D20&title=The%25&_limit=5',
    expected: {
      filters: [
        { name: 'price', op: 'gt', value: '10' },
        { name: 'price', op: 'le', value: '20' },
        { name: 'title', op: 'like', value: 'The%' },
      ],
      limit: 5,
    },
  },
  {
    raw: 'b=1&&a=2',
    expected: {
      filters: [
        { name: 'b', op: 'eq', value: '1' },
        { name: 'a', op: 'eq', value: '2' },
      ],
    },
  },
  {
    raw: 'a=1&A=2',
    expected: {
      filters: [
        { name: 'a', op: 'eq', value: '1' },
        { name: 'A', op: 'eq', value: '2' },
      ],
    },
  },
  // Allowed repeats: a range in either order, several negations (!value and !null together).
  {
    raw: 'a=%3E5&a=%3C10',
    expected: {
      filters: [
        { name: 'a', op: 'gt', value: '5' },
        { name: 'a', op: 'lt', value: '10' },
      ],
    },
  },
  {
    raw: 'a=<=10&b=1&a=>=5',
    expected: {
      filters: [
        { name: 'a', op: 'le', value: '10' },
        { name: 'b', op: 'eq', value: '1' },
        { name: 'a', op: 'ge', value: '5' },
      ],
    },
  },
  {
    raw: 'a=!1&a=!2&a=!3',
    expected: {
      filters: [
        { name: 'a', op: 'ne', value: '1' },
        { name: 'a', op: 'ne', value: '2' },
        { name: 'a', op: 'ne', value: '3' },
      ],
    },
  },
  {
    raw: 'country=!null&country=!GB',
    expected: {
      filters: [
        { name: 'country', op: 'notnull' },
        { name: 'country', op: 'ne', value: 'GB' },
      ],
    },
  },
  {
    raw: 'a=!x&a=!null&a=!null',
    expected: {
      filters: [
        { name: 'a', op: 'ne', value: 'x' },
        { name: 'a', op: 'notnull' },
        { name: 'a', op: 'notnull' },
      ],
    },
  },
  // Specials: names case-insensitive, values normalised.
  { raw: '_limit=10', expected: { filters: [], limit: 10 } },
  { raw: '_LIMIT=0', expected: { filters: [], limit: 0 } },
  { raw: '_offset=007', expected: { filters: [], offset: 7 } },
  { raw: '_Offset=9007199254740991', expected: { filters: [], offset: Number.MAX_SAFE_INTEGER } },
  { raw: '_limit=2&_offset=4', expected: { filters: [], limit: 2, offset: 4 } },
  { raw: '_output=json', expected: { filters: [], output: 'application/json' } },
  { raw: '_output=XML', expected: { filters: [], output: 'application/xml' } },
  { raw: '_OUTPUT=application%2FJSON', expected: { filters: [], output: 'application/json' } },
  { raw: '_output=application/xml', expected: { filters: [], output: 'application/xml' } },
  { raw: '_output=json', method: 'PUT', expected: { filters: [], output: 'application/json' } },
  // text/csv is parsed on every method: negotiation answers a write that asks for it with a 406
  { raw: '_output=csv', expected: { filters: [], output: 'text/csv' } },
  { raw: '_output=Text/CSV', expected: { filters: [], output: 'text/csv' } },
  { raw: '_output=csv', method: 'PUT', expected: { filters: [], output: 'text/csv' } },
  {
    raw: 'id=3&_output=xml',
    method: 'DELETE',
    expected: { filters: [{ name: 'id', op: 'eq', value: '3' }], output: 'application/xml' },
  },
  { raw: 'a=1', method: 'PUT', expected: { filters: [{ name: 'a', op: 'eq', value: '1' }] } },
  // _order: labels separated by commas, `-` for descending.
  { raw: '_order=title', expected: { filters: [], order: [{ name: 'title', descending: false }] } },
  {
    raw: '_ORDER=-price,title%2C-id',
    expected: {
      filters: [],
      order: [
        { name: 'price', descending: true },
        { name: 'title', descending: false },
        { name: 'id', descending: true },
      ],
    },
  },
  { raw: '_order=a-b', expected: { filters: [], order: [{ name: 'a-b', descending: false }] } },
  // _after: the token as sent (decoded), checked by the planner; with _limit and filters.
  { raw: '_after=abc.def', expected: { filters: [], after: 'abc.def' } },
  {
    raw: 'a=1&_limit=2&_AFTER=x-y_z.0',
    expected: { filters: [{ name: 'a', op: 'eq', value: '1' }], limit: 2, after: 'x-y_z.0' },
  },
  // Other underscore names are ordinary fields for the planner to judge.
  { raw: '_sort=a', expected: { filters: [{ name: '_sort', op: 'eq', value: 'a' }] } },
  { raw: '_limitx=1', expected: { filters: [{ name: '_limitx', op: 'eq', value: '1' }] } },
];

const bad: { raw: string; method?: Method; error: RegExp }[] = [
  // Forbidden repeats.
  { raw: 'a=1&a=2', error: /^Parameter a is repeated; a field may repeat only as a range/ },
  { raw: 'a=%3E1&a=%3E%3D2', error: /^Parameter a is repeated/ },
  { raw: 'a=<1&a=<=2', error: /^Parameter a is repeated/ },
  { raw: 'a=>1&a=<5&a=<6', error: /^Parameter a is repeated/ },
  { raw: 'a=>1&a=<5&a=!3', error: /^Parameter a is repeated/ },
  { raw: 'a=!1&a=2', error: /^Parameter a is repeated/ },
  { raw: 'a=null&a=!null', error: /^Parameter a is repeated/ },
  { raw: 'a=!null&a=null', error: /^Parameter a is repeated/ },
  { raw: 'a=!null&a=>3', error: /^Parameter a is repeated/ },
  { raw: 'a=!null&a=x%25', error: /^Parameter a is repeated/ },
  { raw: 'a=(1)&a=(2)', error: /^Parameter a is repeated/ },
  { raw: 'x=1&a=x%25&a=y%25', error: /^Parameter a is repeated/ },
  // IN list.
  { raw: 'a=()', error: /^Parameter a has an empty IN list/ },
  // Empty name.
  { raw: '=5', error: /^A query parameter has an empty name \(value "5"\)$/ },
  { raw: 'a=1&=', error: /empty name/ },
  // Malformed percent-encoding.
  { raw: 'a=%ZZ', error: /^Malformed percent-encoding in "%ZZ"$/ },
  { raw: 'a=%', error: /Malformed percent-encoding/ },
  { raw: 'a%E0=1', error: /Malformed percent-encoding/ },
  // _limit and _offset values.
  { raw: '_limit=-1', error: /^Parameter _limit must be a non-negative integer, not "-1"$/ },
  { raw: '_limit=', error: /^Parameter _limit must be a non-negative integer, not ""$/ },
  { raw: '_limit=1.5', error: /non-negative integer/ },
  { raw: '_limit=1e3', error: /non-negative integer/ },
  { raw: '_limit=%2B5', error: /non-negative integer, not "\+5"$/ },
  { raw: '_limit=+5', error: /non-negative integer, not " 5"$/ },
  { raw: '_limit=0x10', error: /non-negative integer/ },
  { raw: '_Offset=abc', error: /^Parameter _Offset must be a non-negative integer, not "abc"$/ },
  { raw: '_offset=9007199254740992', error: /^Parameter _offset must be a non-negative integer/ },
  // _output values.
  { raw: '_output=html', error: /^Parameter _output must be application\/json, application\/xml, json or xml/ },
  { raw: '_output=', error: /^Parameter _output must be/ },
  { raw: '_output=text/xml', error: /^Parameter _output must be/ },
  {
    raw: '_output=tsv',
    error:
      /^Parameter _output must be application\/json, application\/xml, json or xml \(or text\/csv or csv, on a read of a flat resource\), not "tsv"$/,
  },
  { raw: '_output=text/csv;header=present', error: /^Parameter _output must be/ },
  // Specials at most once, whatever their case.
  { raw: '_limit=1&_limit=1', error: /^Parameter _limit is repeated; it may be given at most once$/ },
  { raw: '_limit=1&_LIMIT=2', error: /^Parameter _LIMIT is repeated/ },
  { raw: '_offset=1&_offset=2', error: /^Parameter _offset is repeated/ },
  { raw: '_output=json&_Output=xml', error: /^Parameter _Output is repeated/ },
  // _order items.
  {
    raw: '_order=',
    error: /^Parameter _order has an empty item: give field labels separated by commas, with - before/,
  },
  { raw: '_order=a,,b', error: /^Parameter _order has an empty item/ },
  { raw: '_order=-', error: /^Parameter _order has an empty item/ },
  { raw: '_order=a,', error: /^Parameter _order has an empty item/ },
  { raw: '_order=a,-a', error: /^Parameter _order names a twice; .*, each once$/ },
  { raw: '_order=a&_order=b', error: /^Parameter _order is repeated/ },
  { raw: '_order=a', method: 'PUT', error: /^Parameter _order is for GET only; it is not allowed on PUT$/ },
  // GET only.
  { raw: '_limit=5', method: 'PUT', error: /^Parameter _limit is for GET only; it is not allowed on PUT$/ },
  { raw: '_offset=5', method: 'PUT', error: /^Parameter _offset is for GET only/ },
  { raw: '_LIMIT=5', method: 'DELETE', error: /^Parameter _LIMIT is for GET only; it is not allowed on DELETE$/ },
  { raw: 'a=1&_offset=0', method: 'DELETE', error: /for GET only/ },
  { raw: '_after=t', method: 'PUT', error: /^Parameter _after is for GET only; it is not allowed on PUT$/ },
  // _after items.
  { raw: '_after=', error: /^Parameter _after is empty; give the token of a Link rel="next" as it is$/ },
  { raw: '_after=a&_after=b', error: /^Parameter _after is repeated/ },
  { raw: '_after=a&_offset=2', error: /^Parameters _after and _offset cannot be used together/ },
  { raw: '_offset=0&_limit=1&_after=a', error: /^Parameters _after and _offset cannot be used together/ },
];

describe('parseQuery', () => {
  it.each(ok)('$raw ($method) parses', ({ raw, method, expected }) => {
    expect(parseQuery(raw, method ?? 'GET')).toEqual(expected);
  });

  it.each(bad)('$raw ($method) is a 400', ({ raw, method, error }) => {
    let thrown: unknown;
    try {
      parseQuery(raw, method ?? 'GET');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(BadRequestError);
    expect(thrown).toMatchObject({ status: 400, code: 'bad_parameter' });
    expect((thrown as Error).message).toMatch(error);
  });

  it('omits the specials that were not given', () => {
    expect(Object.keys(parseQuery('a=1', 'GET'))).toEqual(['filters']);
  });
});
