import type { BodyRow } from '../../lib/request/resource-request';
import { type BodyNames, badBody, failure, flatNames, hierarchicalNames, parseBody } from '../support/body-rows';

type Shape = 'parents' | 'children';

function parseJson(text: string, names: BodyNames = flatNames, shape: Shape = 'parents'): Promise<BodyRow[]> {
  return parseBody('json', text, names, shape);
}

describe('parseBody JSON', () => {
  it.each<[string, string, BodyRow[]]>([
    ['an empty collection', '{"items":[]}', []],
    [
      'strings, booleans and null as they are',
      '{"items":[{"title":"a \\"b\\"\\n\\u00e9","active":true,"born":null,"photo":""}]}',
      [{ values: { title: 'a "b"\né', active: true, born: null, photo: '' } }],
    ],
    [
      'numbers as their exact source digits',
      '{"items":[{"id":12345678901234567890,"price":20.10,"ratio":-0.0,"big":1e400,"zero":0.00,"neg":-7}]}',
      [
        {
          values: { id: '12345678901234567890', price: '20.10', ratio: '-0.0', big: '1e400', zero: '0.00', neg: '-7' },
        },
      ],
    ],
    [
      'rows and properties in document order',
      '{ "items" : [ {"title":"c","id":3}, {"id":1} ,{"id":2} ] }',
      [{ values: { title: 'c', id: '3' } }, { values: { id: '1' } }, { values: { id: '2' } }],
    ],
    ['an empty row', '{"items":[{}]}', [{ values: {} }]],
  ])('reads %s', async (_what, text, rows) => {
    expect(await parseJson(text)).toEqual(rows);
  });

  it('keeps a __proto__ property as an own value, not a prototype', async () => {
    const [row] = await parseJson('{"items":[{"__proto__":"x","id":1}]}');
    expect(Object.entries(row?.values ?? {})).toEqual([
      ['__proto__', 'x'],
      ['id', '1'],
    ]);
    expect(Object.getPrototypeOf(row?.values)).toBe(Object.prototype);
  });

  it('reads hierarchical parents with children only where the child collection is given', async () => {
    const text =
      '{"langs":[{"langId":1,"movies":[{"filmId":9},{"filmId":2,"rate":4.90}]},{"langName":"New"},{"langId":3,"movies":[]}]}';
    expect(await parseJson(text, hierarchicalNames)).toEqual([
      { values: { langId: '1' }, children: [{ values: { filmId: '9' } }, { values: { filmId: '2', rate: '4.90' } }] },
      { values: { langName: 'New' } },
      { values: { langId: '3' }, children: [] },
    ]);
  });

  it('reads child rows under the child collection for the children shape', async () => {
    expect(await parseJson('{"movies":[{"filmId":2},{"filmId":"1"}]}', hierarchicalNames, 'children')).toEqual([
      { values: { filmId: '2' } },
      { values: { filmId: '1' } },
    ]);
  });

  it.each<[string, string, BodyNames, Shape, string]>([
    ['an empty body', '', flatNames, 'parents', 'The JSON body is empty'],
    ['a blank body', ' \n', flatNames, 'parents', 'The JSON body is empty'],
    [
      'a trailing comma',
      '{"items":[{"id":1,}]}',
      flatNames,
      'parents',
      "The JSON body is malformed at line 1, column 19 (position 18): unexpected '}'; expected a quoted key",
    ],
    [
      'a missing colon on line 3',
      '{\n  "items": [\n    {"id" 1}]}',
      flatNames,
      'parents',
      "The JSON body is malformed at line 3, column 11 (position 25): unexpected '1'; expected ':' after the key",
    ],
    [
      'a truncated body',
      '{"items":[',
      flatNames,
      'parents',
      'The JSON body is malformed at line 1, column 11 (position 10): the body ends before the JSON document does',
    ],
    [
      'a key given twice, even with the same value',
      '{"items":[{"id":1,"id":1}]}',
      flatNames,
      'parents',
      "The JSON body is malformed at line 1, column 19 (position 18): the key 'id' is given twice in one object",
    ],
    [
      'NaN',
      '{"items":[{"id":NaN}]}',
      flatNames,
      'parents',
      "The JSON body is malformed at line 1, column 17 (position 16): unexpected 'N'; expected a value",
    ],
    [
      'absurd nesting',
      `{"items":${'['.repeat(100000)}`,
      flatNames,
      'parents',
      'The JSON body is nested too deeply (more than 64 levels)',
    ],
    [
      'a name with a quote in it',
      '{"items":[{"a\\"b":{}}]}',
      flatNames,
      'parents',
      'In the JSON body, property "a\\"b" of row 1 of "items" must be a string, number, boolean or null; found an object',
    ],
    [
      'an array at the top',
      '[{"id":1}]',
      flatNames,
      'parents',
      'The JSON body must be an object with the key "items"; found an array',
    ],
    [
      'a number at the top',
      '5',
      flatNames,
      'parents',
      'The JSON body must be an object with the key "items"; found a number',
    ],
    [
      'null at the top',
      'null',
      flatNames,
      'parents',
      'The JSON body must be an object with the key "items"; found null',
    ],
    [
      'a string at the top',
      '"x"',
      flatNames,
      'parents',
      'The JSON body must be an object with the key "items"; found a string',
    ],
    ['an empty object', '{}', flatNames, 'parents', 'The JSON body must have exactly one key, "items"; found no keys'],
    [
      'the row name as key',
      '{"item":[]}',
      flatNames,
      'parents',
      'The JSON body must have exactly one key, "items"; found "item"',
    ],
    [
      'an extra key',
      '{"items":[],"limit":5}',
      flatNames,
      'parents',
      'The JSON body must have exactly one key, "items"; found "items", "limit"',
    ],
    [
      'a collection that is not an array',
      '{"items":{"id":1}}',
      flatNames,
      'parents',
      'In the JSON body, "items" must be an array of row objects; found an object',
    ],
    [
      'a row that is not an object',
      '{"items":[{"id":1},7]}',
      flatNames,
      'parents',
      'In the JSON body, row 2 of "items" must be an object; found a number',
    ],
    [
      'a row that is an array',
      '{"items":[[1]]}',
      flatNames,
      'parents',
      'In the JSON body, row 1 of "items" must be an object; found an array',
    ],
    [
      'an object value',
      '{"items":[{"title":{"en":"x"}}]}',
      flatNames,
      'parents',
      'In the JSON body, property "title" of row 1 of "items" must be a string, number, boolean or null; found an object',
    ],
    [
      'an array value',
      '{"items":[{"id":1},{"title":["x"]}]}',
      flatNames,
      'parents',
      'In the JSON body, property "title" of row 2 of "items" must be a string, number, boolean or null; found an array',
    ],
    [
      'a child collection on a flat resource',
      '{"items":[{"movies":[]}]}',
      flatNames,
      'parents',
      'In the JSON body, property "movies" of row 1 of "items" must be a string, number, boolean or null; found an array',
    ],
    [
      'a child collection that is not an array',
      '{"langs":[{"langId":1,"movies":{"filmId":1}}]}',
      hierarchicalNames,
      'parents',
      'In the JSON body, "movies" in row 1 of "langs" must be an array of row objects; found an object',
    ],
    [
      'a child row that is not an object',
      '{"langs":[{"movies":[{"filmId":1},null]}]}',
      hierarchicalNames,
      'parents',
      'In the JSON body, row 2 of "movies" in row 1 of "langs" must be an object; found null',
    ],
    [
      'children nested in a child row',
      '{"langs":[{"movies":[{"movies":[]}]}]}',
      hierarchicalNames,
      'parents',
      'In the JSON body, property "movies" of row 1 of "movies" in row 1 of "langs" must be a string, number, boolean or null; found an array',
    ],
    [
      'the parent collection in a children body',
      '{"langs":[]}',
      hierarchicalNames,
      'children',
      'The JSON body must have exactly one key, "movies"; found "langs"',
    ],
    [
      'a child collection inside a row of a children body',
      '{"movies":[{"movies":[]}]}',
      hierarchicalNames,
      'children',
      'In the JSON body, property "movies" of row 1 of "movies" must be a string, number, boolean or null; found an array',
    ],
    [
      'child rows for a resource without any',
      '{"items":[]}',
      flatNames,
      'children',
      'The body lists child rows, but this resource has no child rows',
    ],
  ])('refuses %s', async (_what, text, names, shape, message) => {
    expect(await failure(() => parseJson(text, names, shape))).toEqual(badBody(message));
  });
});
