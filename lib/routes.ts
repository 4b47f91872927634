/**
 * The service's routes, from one table (routes.json): each route as API Gateway writes it (`GET /res/{resName}`,
 * `ANY /xsd/{file}`, `*` for everything else), the function that serves it, and whether it asks for a token.
 * serverless.yml takes its events and open routes from the same table (scripts/deploy/route-events.js); here the
 * server mode and the tests route with it as the gateway does, and the log names a request's route by it. Adding
 * a route is a row there and a handler file. Pure: names functions, imports no handler.
 *
 * `trailingSlash`: the path with one `/` more is the same route (restSQL's clients call `/res/` and `/res/Book/`);
 * every other route is matched exactly, from the start of the path to its end.
 */
import table from './routes.json';

export type FunctionName = 'read' | 'insert' | 'update' | 'delete' | 'conf' | 'catalog' | 'xsd' | 'health' | 'fallback';

export interface RouteRow {
  /** `METHOD /path/{param}/{greedy+}` as API Gateway writes it (ANY: every method), or `*`. */
  readonly route: string;
  readonly function: FunctionName;
  /** Whether the route asks for a token when sign-in is on. */
  readonly signIn: boolean;
  readonly trailingSlash?: boolean;
}

export const routeTable = table as readonly RouteRow[];

interface Matcher {
  readonly row: RouteRow;
  readonly method: string;
  readonly template: string;
  readonly pattern: RegExp;
  /** How specific the path is: its literal segments count up, a greedy parameter counts down. */
  readonly rank: number;
}

function segmentPattern(segment: string): string {
  if (/^\{[^}]+\+\}$/.test(segment)) return '.+';
  if (/^\{[^}]+\}$/.test(segment)) return '[^/]+';
  return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function matcherOf(row: RouteRow): Matcher | undefined {
  if (row.route === '*') return undefined;
  const [method = '', template = ''] = row.route.split(' ');
  const segments = template.split('/').slice(1);
  const body = segments.map((segment) => `/${segmentPattern(segment)}`).join('');
  const literal = segments.filter((s) => !s.startsWith('{')).length;
  const greedy = segments.some((s) => s.endsWith('+}'));
  return {
    row,
    method,
    template,
    pattern: new RegExp(`^${body}${row.trailingSlash ? '/?' : ''}$`),
    rank: literal * 2 - (greedy ? 1 : 0),
  };
}

const matchers = routeTable.flatMap((row) => matcherOf(row) ?? []);
const catchAll = routeTable.find((row) => row.route === '*') as RouteRow;

/** The most specific matcher: a method's own route before ANY, then the path with more literal segments. */
function best(candidates: readonly Matcher[], method?: string): Matcher | undefined {
  const score = (m: Matcher) => (m.method === method ? 1000 : 0) + m.rank;
  return candidates.reduce<Matcher | undefined>(
    (top, m) => (top === undefined || score(m) > score(top) ? m : top),
    undefined,
  );
}

/**
 * The function that serves `method` on `rawPath` (percent-encoded, without the query string), as API Gateway
 * routes it: the catch-all's when no route matches.
 */
export function routeRequest(method: string, rawPath: string): FunctionName {
  const upper = method.toUpperCase();
  const found = matchers.filter((m) => (m.method === upper || m.method === 'ANY') && m.pattern.test(rawPath));
  return (best(found, upper)?.row ?? catchAll).function;
}

/**
 * The route a path was served by, as the table names it (`/res/{resName}/{resId+}`), whatever the method: what
 * the log shows instead of the path, which holds the resource's keys. A path no route names is `*`, so no text of
 * the client's reaches the log this way.
 */
export function routeName(rawPath: string): string {
  return best(matchers.filter((m) => m.pattern.test(rawPath)))?.template ?? '*';
}

/** The functions anyone may call without a token even with sign-in on (the health checks). */
export const openFunctions: ReadonlySet<FunctionName> = new Set(
  routeTable.filter((row) => !row.signIn).map((row) => row.function),
);
