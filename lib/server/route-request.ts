/**
 * The routes of serverless.yml as one table: which function serves a method and raw path. The server mode
 * (lib/server) and the tests' in-process calls (test/support/service.ts) route with it, so both route as API
 * Gateway does. Pure: names functions, imports no handler. Keep it in step with serverless.yml's `events`.
 */

export type FunctionName = 'read' | 'insert' | 'update' | 'delete' | 'conf' | 'catalog' | 'xsd' | 'health' | 'fallback';

/** /res/{resName} and /res/{resName}/{resId+}: by method; other methods go to the fallback (405). */
const resourceFunctions: Readonly<Record<string, FunctionName>> = {
  GET: 'read',
  POST: 'insert',
  PUT: 'update',
  DELETE: 'delete',
};

interface Route {
  readonly path: RegExp;
  /** The method the route takes, or undefined for ANY. */
  readonly method?: string;
  readonly to: FunctionName | ((method: string) => FunctionName);
}

/** In serverless.yml's order of precedence: a method's own route before ANY, "*" (the fallback) last. */
const routes: readonly Route[] = [
  { path: /^\/health(\/db)?$/, method: 'GET', to: 'health' },
  { path: /^\/conf\/[^/]+\/[^/]+$/, method: 'GET', to: 'conf' },
  { path: /^\/(res\/?|openapi\.json)$/, method: 'GET', to: 'catalog' },
  { path: /^\/res\/[^/]+(\/.*)?$/, to: (method) => resourceFunctions[method] ?? 'fallback' },
  { path: /^\/xsd\/[^/]+$/, to: 'xsd' },
];

/**
 * The functions anyone may call without a token even with sign-in on: the health checks (serverless.yml's
 * custom.openRoutes; handlers/health.ts asks for no token). Every other function asks for one first.
 */
export const openFunctions: ReadonlySet<FunctionName> = new Set<FunctionName>(['health']);

/** The function for `method` on `rawPath` (percent-encoded, without the query string). */
export function routeRequest(method: string, rawPath: string): FunctionName {
  const upper = method.toUpperCase();
  for (const route of routes) {
    if (!route.path.test(rawPath) || (route.method !== undefined && route.method !== upper)) continue;
    return typeof route.to === 'function' ? route.to(upper) : route.to;
  }
  return 'fallback';
}
