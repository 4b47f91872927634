/**
 * A tool's typed arguments written in the query grammar (lib/mcp/tool-query.ts), read back by the grammar's own
 * parser: each condition must come back as the filter it means, every value taken literally. A table of cases.
 */
import { formOf, queryOf, type Where } from '../../lib/mcp/tool-query';
import { parseFormBody } from '../../lib/request/parse-form-body';
import { parseQuery } from '../../lib/request/parse-query';

const cases: readonly [string, Where, unknown[]][] = [
  ['a value: equals', { name: 'Ada' }, [{ name: 'name', op: 'eq', value: 'Ada' }]],
  ['a number', { qty: 5 }, [{ name: 'qty', op: 'eq', value: '5' }]],
  ['a boolean', { active: true }, [{ name: 'active', op: 'eq', value: 'true' }]],
  ['null: IS NULL', { note: null }, [{ name: 'note', op: 'null' }]],
  ['the text null stays a text', { name: 'null' }, [{ name: 'name', op: 'eq', value: 'null' }]],
  ['a leading ! stays a text', { name: '!bang' }, [{ name: 'name', op: 'eq', value: '!bang' }]],
  ['a leading < stays a text', { name: '<5' }, [{ name: 'name', op: 'eq', value: '<5' }]],
  ['a leading ( stays a text', { name: '(a,b)' }, [{ name: 'name', op: 'eq', value: '(a,b)' }]],
  ['a leading backslash stays', { name: '\\x' }, [{ name: 'name', op: 'eq', value: '\\x' }]],
  ['a % makes an exact pattern', { name: '50% off' }, [{ name: 'name', op: 'like', value: '50\\% off' }]],
  ['with _ and \\ escaped too', { name: 'a_%\\' }, [{ name: 'name', op: 'like', value: 'a\\_\\%\\\\' }]],
  [
    'a range',
    { qty: { ge: 1, lt: 9 } },
    [
      { name: 'qty', op: 'lt', value: '9' },
      { name: 'qty', op: 'ge', value: '1' },
    ],
  ],
  ['ne, one', { qty: { ne: 3 } }, [{ name: 'qty', op: 'ne', value: '3' }]],
  [
    'ne, several, and not null',
    { qty: { ne: [3, null] } },
    [
      { name: 'qty', op: 'ne', value: '3' },
      { name: 'qty', op: 'notnull' },
    ],
  ],
  ['like, as given', { name: { like: 'A%' } }, [{ name: 'name', op: 'like', value: 'A%' }]],
  ['like with a leading !', { name: { like: '!%' } }, [{ name: 'name', op: 'like', value: '!%' }]],
  ['in, commas kept', { name: { in: ['a,b', 'c'] } }, [{ name: 'name', op: 'in', values: ['a,b', 'c'] }]],
  ['isNull false', { note: { isNull: false } }, [{ name: 'note', op: 'notnull' }]],
  ['eq in an object', { name: { eq: '%' } }, [{ name: 'name', op: 'like', value: '\\%' }]],
  ['names with odd characters', { 'a&b=c': 1 }, [{ name: 'a&b=c', op: 'eq', value: '1' }]],
];

it.each(cases)('%s', (_name, where, filters) => {
  expect(parseQuery(queryOf({ where }), 'GET').filters).toEqual(filters);
});

it('writes order, limit and offset as the special parameters', () => {
  const query = parseQuery(queryOf({ order: ['name', '-qty'], limit: 5, offset: 10 }), 'GET');
  expect(query).toMatchObject({
    order: [
      { name: 'name', descending: false },
      { name: 'qty', descending: true },
    ],
    limit: 5,
    offset: 10,
  });
});

it("writes an update's values as a form body, each taken literally, null as NULL", () => {
  const body = formOf({ a: 'null', b: null, c: '!x', d: 5, e: 'plain text & more' });
  expect(parseFormBody(body).values).toEqual({ a: 'null', b: null, c: '!x', d: '5', e: 'plain text & more' });
});
