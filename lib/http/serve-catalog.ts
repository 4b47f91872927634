/**
 * The catalogue paths: GET /res lists every resource (XML, JSON, or HTML for browsers) and GET /openapi.json
 * describes them in OpenAPI 3.1. Both load every definition, a few at a time; one that fails to load does not
 * fail either answer: the listing shows its error, the OpenAPI document leaves it out and names it. Other methods
 * are a 405. Must not serve /res/{name}: that is serve-resource.
 */
import type { Caller } from '../auth/caller';
import { config } from '../config';
import { NotFoundError } from '../errors';
import { buildOpenApi } from '../openapi/build-openapi';
import { parseQuery } from '../request/parse-query';
import { pathOf } from '../routes';
import { htmlType } from '../serial/html-page';
import { listingHtml, listingOf, serializeListing } from '../serial/serialize-listing';
import { heldBy, resolveCatalog } from './caller-catalog';
import type { HttpRequest } from './from-event';
import { negotiatePage } from './negotiate';
import { requireGet } from './require-get';
import { type HttpResponse, toResult, varyByAccept } from './to-result';

const listingPath = pathOf('/res');
const openApiPath = pathOf('/openapi.json');

export async function serveCatalog(request: HttpRequest, caller: Caller): Promise<HttpResponse> {
  const openApiMatch = openApiPath.match(request.path);
  const match = openApiMatch ?? listingPath.match(request.path);
  if (!match) throw new NotFoundError('path_not_found', `No such path: ${request.path}; see /res and /openapi.json`);
  requireGet(request.method);
  const base = match.prefix;
  const headers = { 'Cache-Control': caller.signedIn ? 'private, no-cache' : 'no-cache' };
  const held = await heldBy(caller);
  if (openApiMatch) {
    const granted = caller.signedIn ? held : undefined;
    const document = buildOpenApi(await resolveCatalog(held), {
      serverUrl: base || '/',
      granted,
      maxRows: config().maxRows,
    });
    return toResult(200, 'application/json', JSON.stringify(document), headers);
  }
  const output = negotiatePage(request.headers.accept, parseQuery(request.rawQuery, 'PUT').output);
  const listing = listingOf(await resolveCatalog(held), base, caller.signedIn ? held : undefined);
  const body = output === htmlType ? listingHtml(listing, base) : serializeListing(listing, output);
  return toResult(200, output, body, { ...headers, ...varyByAccept });
}
