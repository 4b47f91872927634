/** The resource paths: `/res/{name}[/{key}...]` after any stage prefix, the name decoded. Pure. */
import { resourcePath } from '../../lib/request/resource-path';

describe('resourcePath', () => {
  it.each([
    { path: '/res/Name', expected: { name: 'Name', keys: undefined } },
    { path: '/res/a.b.Name/1/2', expected: { name: 'a.b.Name', keys: '1/2' } },
    { path: '/res/Book/7', expected: { name: 'Book', keys: '7' } },
    { path: '/dev/res/X', expected: { name: 'X', keys: undefined } },
    { path: '/prod/res/shop.Book/a%2Fb/2', expected: { name: 'shop.Book', keys: 'a%2Fb/2' } },
    { path: '/res/My%20Res', expected: { name: 'My Res', keys: undefined } },
    { path: '/res/%C3%A9t%C3%A9', expected: { name: 'été', keys: undefined } },
    { path: '/res/a%2Fb', expected: { name: 'a/b', keys: undefined } },
    { path: '/res/%ZZ', expected: { name: '%ZZ', keys: undefined } },
    { path: '/res/X/', expected: { name: 'X', keys: '' } },
  ])('$path', ({ path, expected }) => {
    expect(resourcePath(path)).toEqual(expected);
  });

  it.each(['/res', '/res/', '/conf/definition/X', '/other/X', '/resources/X', '/myres/X', '/', ''])(
    '%s is not a resource path',
    (path) => {
      expect(resourcePath(path)).toBeUndefined();
    },
  );
});
