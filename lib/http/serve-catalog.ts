/**
 * The catalogue paths: GET /res lists every resource (XML, JSON, or HTML for browsers) and GET /openapi.json
 * describes them in OpenAPI 3.1. Both load every definition, a few at a time; one that fails to load does not
 * fail either answer: the listing shows its error, the OpenAPI document leaves it out and names it. Other methods
 * are a 405. Must not serve /res/{name}: that is serve-resource.
 */
import { privilegesHeld } from '../auth/authorize';
import type { Caller, Privilege } from '../auth/caller';
import { privilegesOf } from '../auth/privileges-store';
import { config } from '../config';
import { definitionSource, resolveResource } from '../definitions/resolve-resource';
import { NotFoundError, ServiceError, toServiceError } from '../errors';
import { buildOpenApi } from '../openapi/build-openapi';
import { parseQuery } from '../request/parse-query';
import { pathOf } from '../routes';
import { htmlType } from '../serial/html-page';
import {
  type CatalogEntry,
  type CatalogError,
  listingHtml,
  listingOf,
  serializeListing,
} from '../serial/serialize-listing';
import type { HttpRequest } from './from-event';
import { negotiatePage } from './negotiate';
import { requireGet } from './require-get';
import { type HttpResponse, toResult, varyByAccept } from './to-result';

/** Definitions loaded at once: enough to overlap catalogue queries, few enough for a small connection pool. */
const concurrency = 4;

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

/** What the caller may do with each resource: every privilege without sign-in, else the privileges file's. */
async function heldBy(caller: Caller): Promise<(name: string) => readonly Privilege[]> {
  const privileges = caller.signedIn ? await privilegesOf(config()) : undefined;
  return (name) => privilegesHeld(caller, privileges, name);
}

/**
 * Every definition the caller holds a privilege on, resolved at most `concurrency` at a time, in name order.
 * The others are not even loaded: the caller learns nothing of them.
 */
async function resolveCatalog(held: (name: string) => readonly Privilege[]): Promise<CatalogEntry[]> {
  const settings = config();
  const names = (await definitionSource(settings).list()).filter((name) => held(name).length > 0);
  return mapBounded(names, concurrency, async (name): Promise<CatalogEntry> => {
    try {
      return { name, resource: (await resolveResource(settings, name)).resource };
    } catch (error) {
      return { name, error: catalogError(error) };
    }
  });
}

/** The status, code and text a request to the resource would answer with (no stack, no secret). */
function catalogError(error: unknown): CatalogError {
  if (!(error instanceof ServiceError)) {
    console.error('unexpected error loading a definition', error instanceof Error ? error.stack : String(error));
  }
  const { status, code, message } = toServiceError(error);
  return { status, code, message };
}

async function mapBounded<T, R>(items: readonly T[], limit: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await map(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
