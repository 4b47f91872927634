/**
 * The JSON reader: documents as JSON.parse reads them but for numbers, which keep their source text; every error a
 * 400 naming line, column and position in characters and what was wrong; and the same answer in one go or a slice
 * at a time, at any slice length. By a table of cases and by generated documents (fast-check, seeded).
 */
import fc from 'fast-check';
import { isLosslessNumber, LosslessNumber } from 'lossless-json';
import { ServiceError } from '../../lib/errors';
import { jsonSliceLength, readJsonBody, readJsonBodyInSlices } from '../../lib/request/read-json-body';
import { loopTurnsDuring } from '../support/loop-turns';

/** The document with numbers as `{ n: source }`, or the error's status, code and message. */
async function outcome(read: () => unknown): Promise<unknown> {
  try {
    return { document: plain(await read()) };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return { status: error.status, code: error.code, message: error.message };
  }
}

function plain(value: unknown): unknown {
  if (isLosslessNumber(value)) return { n: value.value };
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, plain(inner)]));
  }
  return value;
}

/** Every way the service reads a body must give the same outcome. */
async function sameEveryWay(text: string): Promise<unknown> {
  const whole = await outcome(() => readJsonBody(text));
  for (const length of [1, 2, 3, 7, 64]) {
    expect(await outcome(() => readJsonBodyInSlices(text, length))).toEqual(whole);
  }
  expect(await outcome(() => readJsonBodyInSlices(text))).toEqual(whole);
  return whole;
}

describe('readJsonBody reads', () => {
  it.each<[string, string, unknown]>([
    ['an object', '{"a":"x","b":true,"c":false,"d":null}', { a: 'x', b: true, c: false, d: null }],
    ['an array at the root', '[1,"2"]', [{ n: '1' }, '2']],
    ['a string at the root', '"x"', 'x'],
    ['a number at the root, ending the body', '12.50', { n: '12.50' }],
    [
      'numbers as their exact source digits',
      '[12345678901234567890,20.10,-0.0,1e400,0.00,-7,1E-2]',
      ['12345678901234567890', '20.10', '-0.0', '1e400', '0.00', '-7', '1E-2'].map((n) => ({ n })),
    ],
    ['escapes', '["a \\"b\\"\\n\\t\\/\\\\ \\u00e9 \\ud83d\\ude00"]', ['a "b"\n\t/\\ é 😀']],
    ['characters beyond ASCII as written', '{"Zoë":"日本 😀"}', { Zoë: '日本 😀' }],
    ['whitespace anywhere between tokens', ' \n{ "a" :\r\n[ 1 , 2 ]\t}\n ', { a: [{ n: '1' }, { n: '2' }] }],
    ['a byte order mark', '\uFEFF{"a":1}', { a: { n: '1' } }],
    ['the same key in different objects', '[{"id":1},{"id":2}]', [{ id: { n: '1' } }, { id: { n: '2' } }]],
    [
      'keys that are Object methods',
      '{"toString":1,"__proto__":2}',
      { toString: { n: '1' }, ['__proto__']: { n: '2' } },
    ],
    ['nesting 64 deep', `${'['.repeat(64)}${']'.repeat(64)}`, JSON.parse(`${'['.repeat(64)}${']'.repeat(64)}`)],
  ])('%s', async (_, text, document) => {
    expect(await sameEveryWay(text)).toEqual({ document });
  });

  it('keeps numbers as LosslessNumber', () => {
    expect(readJsonBody('{"a":1.10}')).toEqual({ a: new LosslessNumber('1.10') });
  });

  it('keeps __proto__ as a key of its own, not the prototype', () => {
    const document = readJsonBody('{"__proto__":{"admin":true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(document)).toBe(Object.prototype);
    expect(Object.keys(document)).toEqual(['__proto__']);
  });
});

describe('readJsonBody refuses, saying where and what', () => {
  const at = (line: number, column: number, position: number, reason: string) =>
    `The JSON body is malformed at line ${line}, column ${column} (position ${position}): ${reason}`;
  it.each<[string, string, string]>([
    ['an empty body', '', 'The JSON body is empty'],
    ['a blank body', ' \n\t', 'The JSON body is empty'],
    ['a trailing comma in an object', '{"a":1,}', at(1, 8, 7, "unexpected '}'; expected a quoted key")],
    ['a trailing comma in an array', '[1,]', at(1, 4, 3, "unexpected ']'; expected a value")],
    [
      'a missing colon, on line 3',
      '{\n  "items": [\n    {"id" 1}]}',
      at(3, 11, 25, "unexpected '1'; expected ':' after the key"),
    ],
    ['a missing comma', '[1 2]', at(1, 4, 3, "unexpected '2'; expected ',' or the end of the object or array")],
    ['text where a colon belongs', '{"a" x}', at(1, 6, 5, "unexpected 'x'; expected ':' after the key")],
    [
      'text where a comma belongs',
      '[1 x]',
      at(1, 4, 3, "unexpected 'x'; expected ',' or the end of the object or array"),
    ],
    ['a key not quoted', '{a:1}', at(1, 2, 1, "unexpected 'a'; expected a quoted key")],
    ['NaN', '{"id":NaN}', at(1, 7, 6, "unexpected 'N'; expected a value")],
    ['a leading zero', '[01]', at(1, 3, 2, "unexpected '1'; expected ',' or the end of the object or array")],
    ['a number without digits after its point', '[1.]', at(1, 4, 3, "unexpected ']' in a number")],
    ['a misspelt literal', '{"a":tru}', at(1, 9, 8, "unexpected '}' in true, false or null")],
    [
      'a control character in a string',
      '["a\u0001"]',
      at(1, 4, 3, 'unexpected control character U+0001 in a string; write a control character as \\uXXXX'),
    ],
    [
      'an unknown escape',
      '["\\x"]',
      at(1, 4, 3, "unexpected 'x' after a backslash; the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX"),
    ],
    [
      'a bad \\u escape',
      '["\\u12G4"]',
      at(1, 7, 6, "unexpected 'G' in a \\uXXXX escape; expected a hexadecimal digit"),
    ],
    ['a key given twice', '{"items":[{"id":1,"id":1}]}', at(1, 19, 18, "the key 'id' is given twice in one object")],
    ['text after the document', '{"a":1} x', at(1, 9, 8, "unexpected 'x'; expected the end of the body")],
    ['a second document', '{"a":1}\n{}', at(2, 1, 8, "unexpected '{'; expected the end of the body")],
    ['a body cut short', '{"items":[', at(1, 11, 10, 'the body ends before the JSON document does')],
    ['a body cut inside a string', '{"a":"b', at(1, 8, 7, 'the body ends in the middle of a value')],
    ['a body cut inside a literal', '[tr', at(1, 4, 3, 'the body ends in the middle of a value')],
    [
      'positions and columns in UTF-16 code units, as JavaScript counts them',
      '{"ü😀":x}',
      at(1, 8, 7, "unexpected 'x'; expected a value"),
    ],
    ['nesting 65 deep', '['.repeat(65), 'The JSON body is nested too deeply (more than 64 levels)'],
    ['absurd nesting', `{"items":${'['.repeat(100000)}`, 'The JSON body is nested too deeply (more than 64 levels)'],
  ])('%s', async (_, text, message) => {
    expect(await sameEveryWay(text)).toEqual({ status: 400, code: 'bad_body', message });
  });
});

describe('readJsonBody against JSON.parse', () => {
  it('reads every generated document as JSON.parse does, numbers as their source text, in any slices', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 1, max: 40 }), async (value, length) => {
        const text = JSON.stringify(value, null, length % 3);
        const expected = JSON.parse(text, (_, inner) => (typeof inner === 'number' ? { n: String(inner) } : inner));
        expect(plain(readJsonBody(text))).toEqual(expected);
        expect(plain(await readJsonBodyInSlices(text, length))).toEqual(expected);
      }),
      { seed: 20261125, numRuns: 300 },
    );
  });
});

describe('readJsonBodyInSlices', () => {
  it('lets the event loop turn between slices of a big body', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `{"id":${i},"title":"book ${i}"}`);
    const text = `{"items":[${rows.join(',')}]}`;
    const { result, turns } = await loopTurnsDuring(() => readJsonBodyInSlices(text));
    expect((result as { items: unknown[] }).items).toHaveLength(20_000);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(text.length / jsonSliceLength) - 1);
  });
});
