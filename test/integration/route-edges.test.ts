/**
 * Every route family through the real handlers, routed as serverless.yml routes them (PGlite): each answer, a
 * success or an error, says `X-Content-Type-Options: nosniff`; and a path of a family with a stray prefix or
 * suffix is a 404 for every method, never a 405 that names the very method it refuses. HEAD is answered wherever
 * GET is, with the GET's status and headers and no body, and a 405's Allow names it beside GET.
 */
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { type EventVersion, invoke, type Reply } from '../support/service';

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

  /** A reply's status and headers, but for the request id each reply has its own of. */
  const head = ({ status, headers: { 'x-request-id': _, ...headers } }: Reply) => ({ status, headers });

  it.each([
    '/health',
    '/health/db',
    '/res',
    '/res/',
    '/res/Item/1',
    '/res/Item?_output=json',
    '/res/Nope',
    '/openapi.json',
    '/conf/metadata/Item',
    '/xsd/Request.xsd',
  ])('HEAD %s answers as GET does, with the length of its body and without it', async (target) => {
    const [path = '', query] = target.split('?');
    for (const version of ['v2', 'v1'] as EventVersion[]) {
      const get = await invoke({ method: 'GET', path, query }, version);
      const reply = await invoke({ method: 'HEAD', path, query }, version);
      const length = String(Buffer.byteLength(get.body));
      expect({ version, ...head(reply), body: reply.body }).toEqual({
        version,
        status: get.status,
        headers: { ...head(get).headers, 'content-length': length },
        body: '',
      });
      expect(get.body).not.toBe('');
    }
  });

  it.each([
    ['PATCH', '/res/Item', 'GET, HEAD, POST, PUT, DELETE'],
    ['POST', '/openapi.json', 'GET, HEAD'],
    ['POST', '/health', 'GET, HEAD'],
    ['DELETE', '/xsd/Request.xsd', 'GET, HEAD'],
  ])('%s %s: 405 allowing %s', async (method, path, allow) => {
    const reply = await invoke({ method, path });
    expect([reply.status, reply.headers.allow]).toEqual([405, allow]);
  });

  it('HEAD of a path that is not the service: 404 without a body', async () => {
    const reply = await invoke({ method: 'HEAD', path: '/health/' });
    expect([reply.status, reply.body]).toEqual([404, '']);
  });
});
