/**
 * GET /xsd/Request.xsd and /xsd/Response.xsd through the real exported handler (handlers/xsd.ts), from HTTP API
 * (v2) and REST API (v1) events: exactly the schema text, as application/xml; any other name a 404 naming the
 * path; other methods a 405.
 */
import { handler } from '../../handlers/xsd';
import { requestXsd } from '../../lib/xsd/request-xsd';
import { responseXsd } from '../../lib/xsd/response-xsd';

function v2(method: string, path: string, headers: Record<string, string> = {}) {
  return {
    version: '2.0',
    routeKey: `${method} /xsd/{file}`,
    rawPath: path,
    rawQueryString: '',
    headers,
    isBase64Encoded: false,
    requestContext: { http: { method, path } },
  } as never;
}

function v1(method: string, path: string) {
  return {
    httpMethod: method,
    path,
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    body: null,
    isBase64Encoded: false,
  } as never;
}

describe('GET /xsd/{file}', () => {
  it.each([
    ['/xsd/Request.xsd', requestXsd],
    ['/xsd/Response.xsd', responseXsd],
  ])('%s is exactly the schema text, as application/xml', async (path, schema) => {
    for (const event of [v2('GET', path), v1('GET', path)]) {
      const result = await handler(event);
      expect(result.statusCode).toBe(200);
      expect(result.headers?.['Content-Type']).toBe('application/xml');
      expect(result.body).toBe(schema);
    }
    expect(schema.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<!--')).toBe(true);
  });

  it.each(['/xsd/x.xsd', '/xsd/request.xsd', '/xsd/constructor', '/xsd/Request.xsd/more'])(
    '%s is a 404 naming the path and the schemas',
    async (path) => {
      const result = await handler(v2('GET', path));
      expect(result.statusCode).toBe(404);
      expect(result.headers?.['Content-Type']).toMatch(/^text\/plain/);
      expect(result.body).toBe(`No such path: ${path}; the schemas are /xsd/Request.xsd and /xsd/Response.xsd`);
    },
  );

  it('answers problem+json on request (D19) and 405 with Allow for another method', async () => {
    const problem = await handler(v2('GET', '/xsd/x.xsd', { accept: 'application/problem+json' }));
    expect(JSON.parse(problem.body)).toMatchObject({ status: 404, code: 'path_not_found' });
    const post = await handler(v2('POST', '/xsd/Request.xsd'));
    expect(post.statusCode).toBe(405);
    expect(post.headers?.Allow).toBe('GET, HEAD');
  });
});
