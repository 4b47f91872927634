/** Table tests of the D7 path-key splitter. Pure: no IO. */
import { BadRequestError } from '../../lib/errors';
import { parsePathKeys } from '../../lib/request/parse-path-keys';

const ok: { raw: string | undefined; expected: string[] }[] = [
  { raw: undefined, expected: [] },
  { raw: '', expected: [] },
  { raw: '7', expected: ['7'] },
  { raw: 'ABC/42', expected: ['ABC', '42'] },
  { raw: 'a/b/c', expected: ['a', 'b', 'c'] },
  { raw: 'a%20b', expected: ['a b'] },
  { raw: 'a+b', expected: ['a+b'] },
  { raw: 'a%2Bb', expected: ['a+b'] },
  { raw: 'a%2Fb/c', expected: ['a/b', 'c'] },
  { raw: '%C3%A9t%C3%A9', expected: ['été'] },
  { raw: "1%20or%201%3D1'", expected: ["1 or 1=1'"] },
  { raw: '%25', expected: ['%'] },
];

const bad: { raw: string; error: RegExp }[] = [
  { raw: 'a//b', error: /^Path key a\/\/b has an empty segment$/ },
  { raw: 'a/', error: /empty segment/ },
  { raw: '/a', error: /empty segment/ },
  { raw: '/', error: /empty segment/ },
  { raw: '%ZZ', error: /^Path key segment %ZZ has malformed percent-encoding$/ },
  { raw: 'a/%E0%A4', error: /^Path key segment %E0%A4 has malformed percent-encoding$/ },
  { raw: '50%', error: /malformed percent-encoding/ },
];

describe('parsePathKeys', () => {
  it.each(ok)('$raw splits', ({ raw, expected }) => {
    expect(parsePathKeys(raw)).toEqual(expected);
  });

  it.each(bad)('$raw is a 400', ({ raw, error }) => {
    let thrown: unknown;
    try {
      parsePathKeys(raw);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(BadRequestError);
    expect(thrown).toMatchObject({ status: 400, code: 'bad_path_key' });
    expect((thrown as Error).message).toMatch(error);
  });
});
