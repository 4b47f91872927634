/** Table tests of the methods each served path allows: a 405 with Allow on them, a 404 elsewhere. Pure. */
import { allowedMethods } from '../../lib/http/serve-fallback';

const all = ['GET', 'POST', 'PUT', 'DELETE'];

it.each([
  { path: '/res/Book', allowed: all },
  { path: '/res/Book/1/2', allowed: all },
  { path: '/res', allowed: ['GET'] },
  { path: '/openapi.json', allowed: ['GET'] },
  { path: '/conf/metadata/Book', allowed: ['GET'] },
  { path: '/xsd/Request.xsd', allowed: ['GET'] },
  { path: '/health', allowed: ['GET'] },
  { path: '/health/db', allowed: ['GET'] },
  { path: '/dev/health', allowed: ['GET'] },
  { path: '/health/other', allowed: undefined },
  { path: '/healthy', allowed: undefined },
  { path: '/nowhere', allowed: undefined },
])('$path: $allowed', ({ path, allowed }) => {
  expect(allowedMethods(path)).toEqual(allowed);
});
