/** If-Match / If-None-Match values: `*` or a list of entity tags; anything else a 400 naming the header. */
import { type EntityTags, matchesStrongly, matchesWeakly } from '../../lib/entity-tags';
import { parseEntityTags } from '../../lib/request/parse-entity-tags';
import { serviceErrorOf } from '../support/resources';

const list = (...tags: string[]): EntityTags => ({ any: false, tags });

describe('parseEntityTags', () => {
  it.each<[string, EntityTags]>([
    ['*', { any: true }],
    ['  *  ', { any: true }],
    ['"abc"', list('"abc"')],
    ['W/"abc"', list('W/"abc"')],
    ['"a", "b",W/"c"', list('"a"', '"b"', 'W/"c"')],
    ['""', list('""')],
    ['"a-_B9+/="', list('"a-_B9+/="')],
  ])('%s', (header, tags) => {
    expect(parseEntityTags(header, 'If-Match')).toEqual(tags);
  });

  it.each(['abc', '"abc', 'abc"', '"a" "b"', '"a",,"b"', 'w/"a"', '"a b"', '*, "a"', ''])(
    '%s is a 400 naming the header',
    (header) => {
      const error = serviceErrorOf(() => parseEntityTags(header, 'If-None-Match'));
      expect([error.status, error.code]).toEqual([400, 'bad_header']);
      expect(error.message).toMatch(/^If-None-Match (must be \* or a list of entity tags|is empty)/);
    },
  );
});

describe('comparing tags', () => {
  it.each<[EntityTags, string, boolean, boolean]>([
    [{ any: true }, '"x"', true, true],
    [list('"x"'), '"x"', true, true],
    [list('"y"', '"x"'), '"x"', true, true],
    [list('W/"x"'), '"x"', false, true],
    [list('"y"'), '"x"', false, false],
    [list('"X"'), '"x"', false, false],
  ])('%j against %s: strongly %s, weakly %s', (tags, current, strong, weak) => {
    expect(matchesStrongly(tags, current)).toBe(strong);
    expect(matchesWeakly(tags, current)).toBe(weak);
  });
});
