/**
 * The service's routes, from one table (routes.json): each route as API Gateway writes it (`GET /res/{resName}`,
 * `ANY /xsd/{file}`, `*` for everything else), the function that serves it, and whether it asks for a token.
 * serverless.yml takes its events and open routes from the same table (scripts/deploy/route-events.js); here the
 * server mode and the tests route with it as the gateway does, and the log names a request's route by it. Adding
 * a route is a row there and a handler file; a GET row brings its HEAD route. Pure: names functions, imports no
 * handler.
 *
 * `trailingSlash`: the path with one `/` more is the same route (restSQL's clients call `/res/` and `/res/Book/`);
 * every other route is matched exactly, from the start of the path to its end. `values`: the only values a path
 * parameter may take. API Gateway cannot say so, so it routes every value to the function, and the function's
 * `pathOf(template)` matcher answers 404 for any other; the fallback's 405 takes them into account too.
 *
 * Handlers match their own paths with `pathOf`, by the template as the table writes it, so no handler writes a
 * path pattern of its own. They match at the end of the path, after any prefix: a stage or a custom domain's
 * mapping, which API Gateway may pass on before the route's path.
 */
import table from './routes.json';

export type FunctionName =
  | 'read'
  | 'insert'
  | 'update'
  | 'delete'
  | 'conf'
  | 'catalog'
  | 'xsd'
  | 'explorer'
  | 'health'
  | 'mcp'
  | 'fallback';

export interface RouteRow {
  /** `METHOD /path/{param}/{greedy+}` as API Gateway writes it (ANY: every method), or `*`. */
  readonly route: string;
  readonly function: FunctionName;
  /** Whether the route asks for a token when sign-in is on. */
  readonly signIn: boolean;
  readonly trailingSlash?: boolean;
  readonly values?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The table's rows, each GET row followed by its HEAD row: HEAD is answered wherever GET is, by the same function
 * (create-handler.ts serves it as the GET and sends no body). API Gateway's HTTP APIs route a method to its own
 * routes and ANY only, never a HEAD to a GET route, so the template's events carry the HEAD rows too
 * (route-events.js adds them the same way).
 */
export const routeTable: readonly RouteRow[] = (table as readonly RouteRow[]).flatMap((row) =>
  row.route.startsWith('GET ') ? [row, { ...row, route: `HEAD ${row.route.slice(4)}` }] : [row],
);

interface Matcher {
  readonly row: RouteRow;
  readonly method: string;
  readonly template: string;
  readonly pattern: RegExp;
  /** How specific the path is: its literal segments count up, a greedy parameter counts down. */
  readonly rank: number;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A parameter segment of a template: `{name}`, or `{name+}` for a greedy one. */
const parameterSegment = /^\{([A-Za-z]+)(\+?)\}$/;

/** A segment's pattern: a parameter as a named group (its `values` only, when the row lists them), or the text. */
function segmentPattern(segment: string, values?: RouteRow['values']): string {
  const parameter = parameterSegment.exec(segment);
  if (parameter === null) return escaped(segment);
  const [, name = '', greedy] = parameter;
  const listed = values?.[name];
  const pattern = listed ? listed.map(escaped).join('|') : greedy ? '.+' : '[^/]+';
  return `(?<${name}>${pattern})`;
}

/** The path of a row's template, from its first `/` (without start or end anchors). */
function pathPattern(row: RouteRow, template: string, withValues: boolean): string {
  const segments = template.split('/').slice(1);
  const body = segments.map((segment) => `/${segmentPattern(segment, withValues ? row.values : undefined)}`).join('');
  return `${body}${row.trailingSlash ? '/?' : ''}`;
}

function matcherOf(row: RouteRow): Matcher | undefined {
  if (row.route === '*') return undefined;
  const [method = '', template = ''] = row.route.split(' ');
  const segments = template.split('/').slice(1);
  const literal = segments.filter((s) => !s.startsWith('{')).length;
  const greedy = segments.some((s) => s.endsWith('+}'));
  // as API Gateway matches: any value of a parameter
  return {
    row,
    method,
    template,
    pattern: new RegExp(`^${pathPattern(row, template, false)}$`),
    rank: literal * 2 - (greedy ? 1 : 0),
  };
}

const matchers = routeTable.flatMap((row) => matcherOf(row) ?? []);
const catchAll = routeTable.find((row) => row.route === '*') as RouteRow;

/**
 * The matchers in the order they are tried, the most specific first: a method's own route before ANY, then the
 * path with more literal segments; between equals, the table's order. The first whose pattern matches wins.
 */
function bySpecificity(candidates: readonly Matcher[], method?: string): readonly Matcher[] {
  const score = (m: Matcher) => (m.method === method ? 1000 : 0) + m.rank;
  // Array.prototype.sort is stable: equal scores keep the table's order
  return [...candidates].sort((a, b) => score(b) - score(a));
}

const forMethod = (method: string) =>
  bySpecificity(
    matchers.filter((m) => m.method === method || m.method === 'ANY'),
    method,
  );

/** The matchers each method the table names may take, in the order they are tried; any other method takes ANY's. */
const triedFor = new Map([...new Set(matchers.map((m) => m.method))].map((method) => [method, forMethod(method)]));
const anyOnly = forMethod('ANY');

/**
 * The function that serves `method` on `rawPath` (percent-encoded, without the query string), as API Gateway
 * routes it: the catch-all's when no route matches.
 */
export function routeRequest(method: string, rawPath: string): FunctionName {
  return routeRowOf(method, rawPath).function;
}

/** The row of the route that serves `method` on `rawPath`: the catch-all's when no route matches. */
export function routeRowOf(method: string, rawPath: string): RouteRow {
  const found = (triedFor.get(method.toUpperCase()) ?? anyOnly).find((m) => m.pattern.test(rawPath));
  return found?.row ?? catchAll;
}

/** Every matcher, whatever its method, the most specific path first. */
const anyMethod = bySpecificity(matchers);

/**
 * The route a path was served by, as the table names it (`/res/{resName}/{resId+}`), whatever the method: what
 * the log shows instead of the path, which holds the resource's keys. A path no route names is `*`, so no text of
 * the client's reaches the log this way.
 */
export function routeName(rawPath: string): string {
  return anyMethod.find((m) => m.pattern.test(rawPath))?.template ?? '*';
}

/**
 * The functions anyone may call without a token even with sign-in on (the health checks, the explorer's page): every
 * route of theirs is open. The mcp function has one open route (its protected-resource metadata) and is not one.
 */
export const openFunctions: ReadonlySet<FunctionName> = new Set(
  routeTable
    .filter((row) => routeTable.every((other) => other.function !== row.function || !other.signIn))
    .map((row) => row.function),
);

/** The rows of a path template, as the table writes it (`/res/{resName}`), whatever their method. */
function rowsOf(template: string): RouteRow[] {
  return routeTable.filter((row) => row.route.split(' ')[1] === template);
}

/** A path a handler serves, matched at the end of a request's path. */
export interface PathMatch {
  /** What comes before the route's path: '' or a stage or mapping such as `/dev`. */
  readonly prefix: string;
  /** The path parameters, as written in the path (percent-encoded). */
  readonly params: Readonly<Record<string, string | undefined>>;
}

export interface PathMatcher {
  match(rawPath: string): PathMatch | undefined;
}

/**
 * The matcher of a template of the table, for the handler that serves it; a template the table does not have is
 * a mistake in the code, found when the module loads. Each parameter takes only its `values` where the table
 * lists them.
 */
export function pathOf(template: string): PathMatcher {
  const [row] = rowsOf(template).filter((r) => r.function !== 'fallback');
  if (row === undefined) throw new Error(`No route of lib/routes.json has the path ${template}`);
  const body = pathPattern(row, template, true);
  // the path alone first (no stage or mapping before it, the usual case): the shortest prefix, as the second finds it
  const whole = new RegExp(`^${body}$`);
  const prefixed = new RegExp(`^(?<prefix>.*?)${body}$`);
  const names = template.split('/').flatMap((segment) => parameterSegment.exec(segment)?.[1] ?? []);
  return {
    match(rawPath) {
      const found = whole.exec(rawPath) ?? prefixed.exec(rawPath);
      if (found === null) return undefined;
      const groups = found.groups ?? {};
      const params: Record<string, string | undefined> = {};
      for (const name of names) params[name] = groups[name];
      return { prefix: groups.prefix ?? '', params };
    },
  };
}

/** The methods the functions other than the fallback serve on a template of the table (`/res/{resName}`). */
export function methodsOf(template: string): readonly string[] {
  const rows = rowsOf(template).filter((row) => row.function !== 'fallback');
  return [...new Set(rows.map((row) => row.route.split(' ')[0] ?? ''))];
}

/** Each route a function other than the fallback serves, matched whole, each parameter taking only its values. */
const served = routeTable
  .filter((row) => row.function !== 'fallback' && row.route !== '*')
  .map((row) => {
    const [method = '', template = ''] = row.route.split(' ');
    return { method, pattern: new RegExp(`^${pathPattern(row, template, true)}$`) };
  });

/** The methods served on a path, matched whole (no prefix); undefined when no route but the fallback's has it. */
export function methodsServed(rawPath: string): readonly string[] | undefined {
  const methods = served.filter((route) => route.pattern.test(rawPath)).map((route) => route.method);
  return methods.length === 0 ? undefined : [...new Set(methods)];
}
