/**
 * The headers a read of rows (/res/{name}) answers with about its page: `Content-Range` (the rows' 0-based positions
 * and the total, `*` when not counted), `Link: <...>; rel="next"` when `_limit` left rows for a next page, and
 * `Preference-Applied: count=exact` when the total was counted. `Vary` names `Prefer` beside `Accept`, since the
 * headers differ by it. A read by key answers without them. Pure.
 */
import type { ReadOutcome } from '../execute/execute-plan';
import type { ReadPlan } from '../plan/plan';
import { cursorAfter } from '../plan/plan-after';
import { decodePairs } from '../request/decode';
import type { ReadRequest } from '../request/resource-request';
import type { SqlResource } from '../resource';
import type { HttpRequest } from './from-event';

export function pagingHeaders(
  http: Pick<HttpRequest, 'path' | 'rawQuery'>,
  resource: SqlResource,
  request: ReadRequest,
  plan: ReadPlan,
  read: ReadOutcome,
  cursorKey?: string,
): Record<string, string> {
  if (request.pathKeys.length > 0) return {};
  const next = nextQuery(resource, request, plan, read, cursorKey);
  return {
    'Content-Range': contentRange(request, read),
    ...(next === undefined ? {} : { Link: `<${http.path}?${withParameter(http.rawQuery, ...next)}>; rel="next"` }),
    ...(read.total === undefined ? {} : { 'Preference-Applied': 'count=exact' }),
    Vary: 'Accept, Prefer',
  };
}

/**
 * `first-last/total`, positions from 0. A page after a cursor does not know where it starts without counting the
 * rows before it, so it says `*` there, as an empty page does.
 */
function contentRange(request: ReadRequest, { rows, total }: ReadOutcome): string {
  const first = request.query.offset ?? 0;
  const range = rows.length === 0 || request.query.after !== undefined ? '*' : `${first}-${first + rows.length - 1}`;
  return `${range}/${total ?? '*'}`;
}

/** The parameter that asks for the next page: `_offset` moved on by `_limit` when paging by offset, else `_after`. */
function nextQuery(
  resource: SqlResource,
  { query }: ReadRequest,
  plan: ReadPlan,
  { rows, more }: ReadOutcome,
  cursorKey: string | undefined,
): [string, string] | undefined {
  const last = rows[rows.length - 1];
  if (!more || query.limit === undefined || last === undefined) return undefined;
  if (query.offset !== undefined) return ['_offset', String(query.offset + query.limit)];
  return ['_after', cursorAfter(resource, plan.select.orderBy, query.filters, last, cursorKey)];
}

/** The query as sent, with `name` set to `value`: other parameters keep their text and their order. */
function withParameter(rawQuery: string, name: string, value: string): string {
  // the query was decoded once already, so its names decode
  const kept = rawQuery.split('&').filter((piece) => piece !== '' && decodePairs(piece)[0]?.[0].toLowerCase() !== name);
  return [...kept, `${name}=${encodeURIComponent(value)}`].join('&');
}
