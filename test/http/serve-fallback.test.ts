/**
 * Table tests of the methods each served path allows: a 405 with Allow on them, a 404 elsewhere, judged from the
 * start of the path to its end as the gateway routes: a path with a stray prefix or suffix is not the service's.
 * HEAD is allowed wherever GET is.
 * Pure.
 */
import { methodsServed } from '../../lib/routes';

const all = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'];

it.each([
  { path: '/res/Book', allowed: all },
  { path: '/res/Book/1/2', allowed: all },
  { path: '/res/Book/', allowed: all },
  { path: '/res', allowed: ['GET', 'HEAD'] },
  { path: '/res/', allowed: ['GET', 'HEAD'] },
  { path: '/openapi.json', allowed: ['GET', 'HEAD'] },
  { path: '/conf/metadata/Book', allowed: ['GET', 'HEAD'] },
  { path: '/conf/reload/Book', allowed: ['GET', 'HEAD'] },
  { path: '/xsd/Request.xsd', allowed: ['GET', 'HEAD'] },
  { path: '/health', allowed: ['GET', 'HEAD'] },
  { path: '/health/db', allowed: ['GET', 'HEAD'] },
  // prefixed: no path of the service
  { path: '/x/res/Book', allowed: undefined },
  { path: '/x/res/Book/1', allowed: undefined },
  { path: '/x/res', allowed: undefined },
  { path: '/x/openapi.json', allowed: undefined },
  { path: '/x/conf/metadata/Book', allowed: undefined },
  { path: '/x/xsd/Request.xsd', allowed: undefined },
  { path: '/dev/health', allowed: undefined },
  { path: '/x/health/db', allowed: undefined },
  { path: 'res/Book', allowed: undefined },
  // suffixed
  { path: '/openapi.json/', allowed: undefined },
  { path: '/openapi.jsonx', allowed: undefined },
  { path: '/resx', allowed: undefined },
  { path: '/res//', allowed: undefined },
  { path: '/conf/metadata/Book/', allowed: undefined },
  { path: '/conf/metadata/Book/x', allowed: undefined },
  { path: '/conf/other/Book', allowed: undefined },
  { path: '/xsd/Request.xsd/', allowed: undefined },
  { path: '/health/', allowed: undefined },
  { path: '/health/db/', allowed: undefined },
  { path: '/health/other', allowed: undefined },
  { path: '/healthy', allowed: undefined },
  { path: '/nowhere', allowed: undefined },
  { path: '/', allowed: undefined },
])('$path: $allowed', ({ path, allowed }) => {
  expect(methodsServed(path)).toEqual(allowed);
});
