/**
 * What the page of a read's rows needs to link from (lib/serial/rows-html.ts): the path prefix the service is
 * mounted under, found as the route table matches the resource's path, the query string as sent, and the read's
 * paging. Pure.
 */
import type { ReadRequest } from '../request/resource-request';
import { pathOf } from '../routes';
import type { ReadPage } from '../serial/rows-html';
import type { HttpRequest } from './from-event';

const resourcePaths = [pathOf('/res/{resName}/{resId+}'), pathOf('/res/{resName}')];

/** `rowsRead`: the rows the database returned, before regrouping (what `_limit` counts). */
export function readPageOf(http: HttpRequest, request: ReadRequest, rowsRead: number): ReadPage {
  const prefix = resourcePaths.map((paths) => paths.match(http.path)?.prefix).find((p) => p !== undefined);
  const { limit, offset } = request.query;
  return {
    base: prefix ?? '',
    rawQuery: http.rawQuery,
    rowsRead,
    ...(limit === undefined ? {} : { limit }),
    ...(offset === undefined ? {} : { offset }),
  };
}
