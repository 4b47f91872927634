/** The routing table of the server mode against serverless.yml's routes, case by case. Pure. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openFunctions, routeRequest } from '../../lib/server/route-request';

it.each([
  ['GET', '/res/Book', 'read'],
  ['GET', '/res/Book/1/2', 'read'],
  ['POST', '/res/Book', 'insert'],
  ['put', '/res/Book/1', 'update'],
  ['DELETE', '/res/Book/1', 'delete'],
  ['PATCH', '/res/Book/1', 'fallback'],
  ['HEAD', '/res/Book', 'fallback'],
  ['GET', '/res', 'catalog'],
  ['GET', '/res/', 'catalog'],
  ['GET', '/openapi.json', 'catalog'],
  ['POST', '/res', 'fallback'],
  ['GET', '/conf/metadata/Book', 'conf'],
  ['POST', '/conf/reload/Book', 'fallback'],
  ['GET', '/conf/metadata', 'fallback'],
  ['GET', '/xsd/Request.xsd', 'xsd'],
  ['POST', '/xsd/Request.xsd', 'xsd'],
  ['GET', '/health', 'health'],
  ['GET', '/health/db', 'health'],
  ['POST', '/health', 'fallback'],
  ['GET', '/healthy', 'fallback'],
  ['GET', '/', 'fallback'],
  ['GET', '/resources/Book', 'fallback'],
])('%s %s → %s', (method, rawPath, expected) => {
  expect(routeRequest(method, rawPath)).toBe(expected);
});

it('names every function of serverless.yml that serves a route', () => {
  const yml = readFileSync(path.resolve(__dirname, '..', '..', 'serverless.yml'), 'utf8');
  const declared = [...yml.matchAll(/handler: handlers\/([a-z]+)\.handler/g)].map((m) => m[1]).sort();
  const routed = new Set(
    [
      ['GET', '/res/A'],
      ['POST', '/res/A'],
      ['PUT', '/res/A'],
      ['DELETE', '/res/A'],
      ['GET', '/conf/metadata/A'],
      ['GET', '/res'],
      ['GET', '/xsd/A'],
      ['GET', '/health'],
      ['GET', '/nowhere'],
    ].map(([method, rawPath]) => routeRequest(method as string, rawPath as string)),
  );
  expect([...routed].sort()).toEqual(declared);
});

it('asks for no token on exactly the functions of serverless.yml’s open routes', () => {
  const yml = readFileSync(path.resolve(__dirname, '..', '..', 'serverless.yml'), 'utf8');
  const open = /openRoutes: \[(.*)\]/.exec(yml)?.[1]?.match(/"[A-Z]+ [^"]+"/g) ?? [];
  expect(open.length).toBeGreaterThan(0);
  const routed = new Set(
    open.map((route) => {
      const [method = '', rawPath = ''] = route.slice(1, -1).split(' ');
      return routeRequest(method, rawPath);
    }),
  );
  expect([...routed]).toEqual([...openFunctions]);
});
