/**
 * GET /explorer and GET /explorer/{file} through the real handler (routed by the table, as API Gateway routes):
 * the page, and the Swagger UI files exactly as the package ships them (less the source map comment) with a year's
 * cache; other names a 404, other methods a 405. Then the function as serverless.yml bundles it (with
 * scripts/deploy/bundle-plugins.js): the files are in the bundle, which serves the same bytes without reading
 * node_modules; and the read function's bundle holds none of them.
 */
import { readFileSync } from 'node:fs';
import { handler as explorer } from '../../handlers/explorer';
import { explorerPage } from '../../lib/http/serve-explorer';
import { bundleHandler, loadBundle } from '../support/handler-bundle';
import { invoke } from '../support/service';

const plugins = require('../../scripts/deploy/bundle-plugins.js');
const shipped = (name: string) => readFileSync(require.resolve(`swagger-ui-dist/${name}`), 'utf8');
const version: string = require('swagger-ui-dist/package.json').version;
/** An HTTP API event with the path as API Gateway passes it: a stage's name may come first. */
const event = (path: string) => ({
  version: '2.0',
  rawPath: path,
  rawQueryString: '',
  headers: {},
  requestContext: { http: { method: 'GET', path } },
});

describe('GET /explorer', () => {
  it('is an HTML page that loads Swagger UI from the service, asks for no token, and is checked each time', async () => {
    const page = await invoke({ method: 'GET', path: '/explorer' });
    expect(page.status).toBe(200);
    expect(page.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    expect(page.body).toContain(`<script src="/explorer/swagger-ui-bundle.js?v=${version}"></script>`);
    expect(page.body).toContain(`<link rel="stylesheet" href="/explorer/swagger-ui.css?v=${version}">`);
    expect(page.body).toContain("fetch(base + '/openapi.json'");
    expect(page.body).toContain('validatorUrl: null');
  });

  it('puts the path before /explorer (a stage) before every link, escaped', async () => {
    const page = await explorer(event('/dev/explorer') as never);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<body data-base="/dev" ');
    expect(page.body).toContain('href="/dev/openapi.json"');
    expect(page.body).toContain('src="/dev/explorer/swagger-ui-bundle.js?v=');
    expect(explorerPage('/a"<b>', false)).toContain('data-base="/a&quot;&lt;b&gt;"');
  });
});

describe('GET /explorer/{file}', () => {
  it.each([
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['swagger-ui.css', 'text/css; charset=utf-8'],
  ])('serves %s as the package ships it, kept a year', async (name, type) => {
    const reply = await invoke({ method: 'GET', path: `/explorer/${name}`, query: `v=${version}` });
    expect(reply.status).toBe(200);
    expect(reply.headers).toMatchObject({
      'content-type': type,
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    });
    expect(reply.body).not.toContain('sourceMappingURL');
    expect(reply.body.trimEnd()).toBe(
      shipped(name)
        .replace(/\/\*# sourceMappingURL=\S+\s*$/, '')
        .trimEnd(),
    );
  });

  it.each(['/explorer/index.html', '/explorer/swagger-ui.js', '/explorer/package.json', '/explorer/swagger-ui.css/x'])(
    '%s is a 404',
    async (path) => {
      expect((await invoke({ method: 'GET', path })).status).toBe(404);
    },
  );

  it('answers HEAD as GET without the body, and other methods with a 405 that allows GET and HEAD', async () => {
    const head = await invoke({ method: 'HEAD', path: '/explorer/swagger-ui.css' });
    expect([head.status, head.headers['content-type'], head.body]).toEqual([200, 'text/css; charset=utf-8', '']);
    const reply = await invoke({ method: 'POST', path: '/explorer' });
    expect([reply.status, reply.headers.allow]).toEqual([405, 'GET, HEAD']);
  });
});

describe('the bundles, as serverless.yml builds them', () => {
  it('the explorer function holds the Swagger UI files and serves them without node_modules', async () => {
    const { code } = await bundleHandler('handlers/explorer.ts', { external: [], plugins });
    expect(code).not.toContain('swagger-ui-dist/');
    const { handler, required } = loadBundle(code);
    for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
      const reply = await handler(event(`/explorer/${name}`));
      expect([name, reply.statusCode, reply.body.length > 100_000]).toEqual([name, 200, true]);
      expect(reply.body.trimEnd()).toBe(
        shipped(name)
          .replace(/\/\*# sourceMappingURL=\S+\s*$/, '')
          .trimEnd(),
      );
    }
    expect(required.filter((id) => id.includes('swagger'))).toEqual([]);
  });

  it('the read function holds none of them', async () => {
    const { code } = await bundleHandler('handlers/read.ts', { external: [], plugins });
    expect(code).not.toContain('SwaggerUIBundle');
    expect(code).not.toContain('.swagger-ui');
  });
});
