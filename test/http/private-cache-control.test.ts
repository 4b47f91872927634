/** Table tests of the Cache-Control sent to signed-in callers: never for a shared cache. Pure. */
import { privateCacheControl } from '../../lib/http/private-cache-control';

const cases: { given: string; sent: string }[] = [
  { given: 'no-cache, no-transform', sent: 'private, no-cache, no-transform' },
  { given: 'public, max-age=600', sent: 'private, max-age=600' },
  { given: 'max-age=60, s-maxage=3600, PUBLIC', sent: 'private, max-age=60' },
  { given: 'private, max-age=5', sent: 'private, max-age=5' },
  { given: 'no-store', sent: 'no-store' },
  { given: 'public, no-store', sent: 'no-store' },
  { given: '', sent: 'private' },
  { given: ' max-age=0 ,, must-revalidate ', sent: 'private, max-age=0, must-revalidate' },
];

it.each(cases)('$given → $sent', ({ given, sent }) => {
  expect(privateCacheControl(given)).toBe(sent);
});
