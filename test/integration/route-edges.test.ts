/**
 * Every route family through the real handlers, routed as serverless.yml routes them (PGlite): each answer, a
 * success or an error, says `X-Content-Type-Options: nosniff`; and a path of a family with a stray prefix or
 * suffix is a 404 for every method, never a 405 that names the very method it refuses.
 */
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke } from '../support/service';

const [pglite] = targets();
if (!pglite) throw new Error('no PGlite target');

describe('route families on PGlite', () => {
  useFixture(pglite);

  it.each([
    ['GET', '/res/Item', 200],
    ['GET', '/res/Item/1', 200],
    ['GET', '/res/Nope', 404],
    ['GET', '/res/Item?nosuch=1', 400],
    ['PATCH', '/res/Item', 405],
    ['GET', '/res', 200],
    ['GET', '/openapi.json', 200],
    ['POST', '/openapi.json', 405],
    ['GET', '/conf/metadata/Item', 200],
    ['GET', '/conf/metadata/Nope', 404],
    ['GET', '/xsd/Request.xsd', 200],
    ['GET', '/xsd/Other.xsd', 404],
    ['GET', '/health', 200],
    ['GET', '/health/db', 200],
    ['POST', '/health', 405],
    ['GET', '/nowhere', 404],
  ])('%s %s: %s with nosniff', async (method, target, status) => {
    const [path = '', query] = target.split('?');
    const reply = await invoke({ method, path, query });
    expect([reply.status, reply.headers['x-content-type-options']]).toEqual([status, 'nosniff']);
  });

  const prefixed = ['/res/Item', '/res/Item/1', '/res', '/openapi.json', '/conf/metadata/Item', '/xsd/Request.xsd']
    .concat(['/health', '/health/db'])
    .flatMap((path) => [`/x${path}`, `/dev/x${path}`]);
  const suffixed = ['/resx', '/openapi.jsonx', '/openapi.json/x', '/conf/metadata', '/conf/metadata/Item/x'].concat([
    '/xsd/Request.xsd/x',
    '/healthx',
    '/health/x',
    '/health/dbx',
    '/health/db/x',
  ]);

  it.each([...prefixed, ...suffixed])('%s is no path of the service: 404 for every method', async (path) => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
      const reply = await invoke({ method, path });
      expect([method, reply.status, reply.headers.allow]).toEqual([method, 404, undefined]);
      expect(reply.body).toMatch(/^No such path: /);
    }
  });

  it.each(['/openapi.json/', '/conf/metadata/Item/', '/xsd/Request.xsd/', '/health/', '/health/db/'])(
    '%s (a trailing slash) is a 404',
    async (path) => {
      const reply = await invoke({ method: 'GET', path });
      expect([reply.status, reply.body]).toEqual([404, `No such path: ${path}; resources live under /res/{name}`]);
    },
  );
});
