/**
 * The one route table (lib/routes.json): routing as API Gateway routes (a method's own route before ANY, the most
 * specific path, `*` last), case by case; and nothing is served that the table does not list: serverless.yml's
 * functions and events, the handler files, the open routes and the server mode's functions all come from it.
 * Pure, but for reading the files it compares.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { methodsOf, openFunctions, pathOf, routeRequest, routeTable } from '../../lib/routes';
import { functions } from '../../lib/server/functions';

const root = path.resolve(__dirname, '..', '..');
// the template's events and open routes, as serverless reads them
const events = require('../../scripts/deploy/route-events.js') as Record<string, unknown>;

it.each([
  ['GET', '/res/Book', 'read'],
  ['GET', '/res/Book/', 'read'],
  ['POST', '/res/Book/', 'insert'],
  ['GET', '/res//', 'fallback'],
  ['GET', '/health/', 'fallback'],
  ['GET', '/openapi.json/', 'fallback'],
  ['GET', '/x/res/Book', 'fallback'],
  ['DELETE', '/xsd/Request.xsd', 'fallback'],
  ['GET', '/conf/other/Book', 'conf'],
  ['GET', '/res/Book/1/2', 'read'],
  ['POST', '/res/Book', 'insert'],
  ['put', '/res/Book/1', 'update'],
  ['DELETE', '/res/Book/1', 'delete'],
  ['PATCH', '/res/Book/1', 'fallback'],
  ['HEAD', '/res/Book', 'read'],
  ['HEAD', '/res/Book/1', 'read'],
  ['HEAD', '/res', 'catalog'],
  ['HEAD', '/openapi.json', 'catalog'],
  ['HEAD', '/conf/metadata/Book', 'conf'],
  ['HEAD', '/xsd/Request.xsd', 'xsd'],
  ['HEAD', '/explorer', 'explorer'],
  ['HEAD', '/health', 'health'],
  ['HEAD', '/health/db', 'health'],
  ['HEAD', '/health/', 'fallback'],
  ['HEAD', '/nowhere', 'fallback'],
  ['GET', '/res', 'catalog'],
  ['GET', '/res/', 'catalog'],
  ['GET', '/openapi.json', 'catalog'],
  ['POST', '/res', 'fallback'],
  ['GET', '/conf/metadata/Book', 'conf'],
  ['POST', '/conf/reload/Book', 'fallback'],
  ['GET', '/conf/metadata', 'fallback'],
  ['GET', '/xsd/Request.xsd', 'xsd'],
  ['POST', '/xsd/Request.xsd', 'fallback'],
  ['GET', '/xsd/Other.xsd', 'xsd'],
  ['GET', '/explorer', 'explorer'],
  ['GET', '/explorer/swagger-ui-bundle.js', 'explorer'],
  ['GET', '/explorer/', 'fallback'],
  ['POST', '/explorer', 'fallback'],
  ['GET', '/health', 'health'],
  ['GET', '/health/db', 'health'],
  ['POST', '/health', 'fallback'],
  ['GET', '/healthy', 'fallback'],
  ['GET', '/', 'fallback'],
  ['GET', '/resources/Book', 'fallback'],
])('%s %s → %s', (method, rawPath, expected) => {
  expect(routeRequest(method, rawPath)).toBe(expected);
});

it('takes every function of serverless.yml, and its events, from the table', () => {
  const yml = readFileSync(path.join(root, 'serverless.yml'), 'utf8');
  const declared = [...yml.matchAll(/^ {2}([a-z]+):\n {4}handler: handlers\/([a-z]+)\.handler/gm)];
  const named = [...new Set(routeTable.map((row) => row.function))].sort();
  expect(declared.map((m) => m[1]).sort()).toEqual(named);
  for (const [, name, file] of declared) {
    expect(file).toBe(name);
    expect(yml).toContain(`  ${name}:\n    handler: handlers/${name}.handler\n`);
    expect(yml).toMatch(
      new RegExp(
        `handlers/${name}\\.handler\\n(?: {4}.*\\n)*? {4}events: \\$\\{file\\(\\./scripts/deploy/route-events\\.js\\):${name}\\}`,
      ),
    );
    expect(events[name as string]).toEqual(
      routeTable.filter((row) => row.function === name).map((row) => ({ httpApi: row.route })),
    );
  }
  expect(yml).not.toMatch(/- httpApi:/);
});

/** Handlers no route reaches: the change events' drain, which serverless.yml runs on a schedule. */
const unrouted = ['events-drain'];

it('has a handler file for each function of the table, and no other but the unrouted ones', () => {
  const files = readdirSync(path.join(root, 'handlers'))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
  const routed = files.filter((file) => !unrouted.includes(file));
  expect(routed).toEqual([...new Set(routeTable.map((row) => row.function))].sort());
  expect(Object.keys(functions).sort()).toEqual(routed);
  const yml = readFileSync(path.join(root, 'serverless.yml'), 'utf8');
  for (const file of unrouted) {
    expect(files).toContain(file);
    expect(yml).toContain(`handler: handlers/${file}.handler`);
  }
});

it('asks for no token on exactly the open routes of the table, in the template and the server mode', () => {
  expect(events.openRoutes).toEqual([
    'GET /explorer',
    'HEAD /explorer',
    'GET /explorer/{file}',
    'HEAD /explorer/{file}',
    'GET /.well-known/oauth-protected-resource',
    'HEAD /.well-known/oauth-protected-resource',
    'GET /.well-known/oauth-protected-resource/mcp',
    'HEAD /.well-known/oauth-protected-resource/mcp',
    'GET /health',
    'HEAD /health',
    'GET /health/db',
    'HEAD /health/db',
    'GET /health/events',
    'HEAD /health/events',
  ]);
  expect(readFileSync(path.join(root, 'serverless.yml'), 'utf8')).toContain(
    `openRoutes: $\{file(./scripts/deploy/route-events.js):openRoutes}`,
  );
  expect([...openFunctions]).toEqual(['explorer', 'health']);
  const routed = (events.openRoutes as string[]).map((route) => {
    const [method = '', rawPath = ''] = route.split(' ');
    return routeRequest(method, rawPath);
  });
  // the mcp function serves its metadata openly, and /mcp only with a token
  expect(new Set(routed)).toEqual(new Set([...openFunctions, 'mcp']));
});

it('answers HEAD wherever it answers GET, by the same function, and nowhere else', () => {
  const routesOf = (method: string) =>
    routeTable.filter((row) => row.route.startsWith(`${method} `)).map((row) => [row.route.slice(method.length), row]);
  const asGet = routesOf('HEAD').map(([route, row]) => [route, { ...(row as object), route: `GET${route}` }]);
  expect(asGet).toEqual(routesOf('GET'));
  expect(asGet.length).toBeGreaterThan(0);
});

it('writes each route as API Gateway does, once', () => {
  for (const row of routeTable)
    expect(row.route).toMatch(/^\*$|^(GET|HEAD|POST|PUT|DELETE|ANY) (\/(\{[A-Za-z]+\+?\}|[a-z.-]+))+$/);
  expect(new Set(routeTable.map((row) => row.route)).size).toBe(routeTable.length);
});

describe('pathOf: a handler matches its own paths by the table', () => {
  it.each<[string, string, unknown]>([
    ['/res/{resName}', '/res/Book', { prefix: '', params: { resName: 'Book' } }],
    ['/res/{resName}', '/res/Book/', { prefix: '', params: { resName: 'Book' } }],
    ['/res/{resName}/{resId+}', '/dev/res/Book/1/2', { prefix: '/dev', params: { resName: 'Book', resId: '1/2' } }],
    ['/res', '/v1/res/', { prefix: '/v1', params: {} }],
    ['/openapi.json', '/openapi.json', { prefix: '', params: {} }],
    ['/conf/{what}/{resName}', '/conf/metadata/a%2Fb', { prefix: '', params: { what: 'metadata', resName: 'a%2Fb' } }],
    ['/conf/{what}/{resName}', '/conf/other/Book', undefined],
    ['/xsd/{file}', '/stage/xsd/Response.xsd', { prefix: '/stage', params: { file: 'Response.xsd' } }],
    ['/xsd/{file}', '/xsd/Other.xsd', undefined],
    ['/health', '/health', { prefix: '', params: {} }],
    ['/health', '/health/', undefined],
    ['/health/db', '/x/health/db', { prefix: '/x', params: {} }],
    ['/explorer/{file}', '/explorer/swagger-ui.css', { prefix: '', params: { file: 'swagger-ui.css' } }],
    ['/explorer/{file}', '/explorer/index.html', undefined],
    ['/res/{resName}', '/myres/Book', undefined],
    ['/res/{resName}', '/res//', undefined],
  ])('%s matches %s', (template, rawPath, expected) => {
    expect(pathOf(template).match(rawPath)).toEqual(expected);
  });

  it('refuses a template the table does not have, or only the fallback serves', () => {
    expect(() => pathOf('/res/{name}')).toThrow('No route of lib/routes.json has the path /res/{name}');
    expect(() => pathOf('*')).toThrow();
  });

  it('knows the methods each template serves', () => {
    expect(methodsOf('/res/{resName}')).toEqual(['GET', 'HEAD', 'POST', 'PUT', 'DELETE']);
    expect(methodsOf('/xsd/{file}')).toEqual(['GET', 'HEAD']);
  });
});

it('has no path pattern of its own in a handler: each matches its paths with pathOf', () => {
  const httpDir = path.join(root, 'lib', 'http');
  for (const file of readdirSync(httpDir).filter((f) => f.startsWith('serve-'))) {
    const source = readFileSync(path.join(httpDir, file), 'utf8');
    expect([file, /\/\^?\(\?:\^\|\\\/\)|exec\(request\.path\)/.test(source)]).toEqual([file, false]);
  }
});
