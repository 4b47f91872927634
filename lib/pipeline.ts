/**
 * The /res pipeline, top to bottom: check the caller's privilege for the resource and operation, parse the request,
 * negotiate the response type (a read answers a browser with a page of rows), resolve the resource, plan (with the
 * caller's claims), execute, serialize. Only the order lives here: each stage throws typed errors, and
 * lib/http/create-handler turns any of them into the response. What the request turned out to be (resource,
 * operation, rows) is noted for its log line. A write on a resource built from a catalog snapshot waits for the
 * snapshot's check; a read does not, and one that the database refuses because the snapshot turns out stale is served
 * once more, loaded from the catalog. A read returns at most its cap of rows (the definition's, else MAX_ROWS) and
 * MAX_RESULT_BYTES, both kept while its rows arrive.
 */
import { authorize } from './auth/authorize';
import type { Caller, Privilege } from './auth/caller';
import { privilegesOf } from './auth/privileges-store';
import { type Config, config } from './config';
import {
  confirmedForWrites,
  failedOnStaleSnapshot,
  type ResolvedResource,
  resolvedNow,
  resolveResource,
} from './definitions/resolve-resource';
import { announcerFor } from './events/announce';
import { executeRead, executeWrite } from './execute/execute-plan';
import type { HttpRequest } from './http/from-event';
import { negotiateRead, negotiateResponse } from './http/negotiate';
import { pagingHeaders } from './http/paging-headers';
import { privateCacheControl } from './http/private-cache-control';
import { readPageOf } from './http/read-page';
import { readResult } from './http/read-result';
import { rowTagsOf } from './http/row-tags';
import { type HttpResponse, toResult, varyByAccept } from './http/to-result';
import { operationName } from './observe/operation-name';
import { planWrittenKey } from './plan/plan-preconditions';
import { planRead } from './plan/plan-read';
import { planWrite } from './plan/plan-write';
import { parseRequest, requestTarget } from './request/parse-request';
import type { Operation, ReadRequest, WriteRequest } from './request/resource-request';
import { currentRequestId, noteRequest } from './request-context';
import { groupRows } from './serial/group-rows';
import { checkResultSize, meterResult } from './serial/result-size';
import { type Representation, representationOf, serializeRead } from './serial/serialize-read';
import { serializeWrite } from './serial/serialize-write';
import type { OutputType } from './values';

/** The privilege each operation needs, named as in the privileges file. */
const privilegeOf: Readonly<Record<Operation, Privilege>> = {
  read: 'select',
  insert: 'insert',
  update: 'update',
  delete: 'delete',
};

export async function serveResource(http: HttpRequest, caller: Caller): Promise<HttpResponse> {
  const settings = config();
  const parts = {
    method: http.method,
    path: http.path,
    rawQuery: http.rawQuery,
    contentType: http.headers['content-type'],
    methodOverride: http.headers['x-http-method-override'],
    ifMatch: http.headers['if-match'],
    ifNoneMatch: http.headers['if-none-match'],
    body: http.body,
    prefer: http.headers.prefer,
  };
  const target = requestTarget(parts);
  noteRequest({ resource: target.name });
  if (caller.signedIn) authorize(caller, await privilegesOf(settings), target.name, privilegeOf[target.op]);
  const request = await parseRequest(parts, settings);
  noteRequest({ operation: operationName(request) });
  if (request.op === 'read') {
    const output = negotiateRead(http.headers.accept, request.query.output);
    const known = resourceOf(settings, request.name);
    const found = known instanceof Promise ? await known : known;
    return servedFresh(found, request.name, settings, (resolved) =>
      serveRead(resolved, request, output, http, caller, settings),
    );
  }
  const output = negotiateResponse(http.headers.accept, request.query.output, request.body?.type);
  const resolved = await confirmedForWrites(settings, await resourceOf(settings, request.name));
  return servedFresh(resolved, request.name, settings, (fresh) => serveWrite(fresh, request, output, caller, settings));
}

/** The resource: its cached copy at once while fresh, else when resolved. */
const resourceOf = (settings: Config, name: string) => resolvedNow(settings, name) ?? resolveResource(settings, name);

/**
 * Serves the request on its resolved resource; when that was built from a catalog snapshot whose tables have
 * changed since and the database refused it, once more, with the catalog as it is now.
 */
async function servedFresh(
  resolved: ResolvedResource,
  name: string,
  settings: Config,
  serve: (resolved: ResolvedResource) => Promise<HttpResponse>,
): Promise<HttpResponse> {
  noteRequest({ resourceFound: true });
  try {
    return await serve(resolved);
  } catch (error) {
    if (!(await failedOnStaleSnapshot(resolved, error))) throw error;
    return serve(await resolveResource(settings, name));
  }
}

/** Plan, execute and serialize a read: at most its cap of rows, and MAX_RESULT_BYTES; its page's headers. */
async function serveRead(
  { resource, readDb }: ResolvedResource,
  request: ReadRequest,
  negotiated: Representation,
  http: HttpRequest,
  caller: Caller,
  settings: Config,
): Promise<HttpResponse> {
  const output = representationOf(resource, negotiated);
  const plan = planRead(resource, request, caller.claims, resource.maxRows ?? settings.maxRows, settings.cursorSecret);
  const read = await executeRead(readDb, resource, plan, meterResult(resource, settings.maxResultBytes));
  const { rows } = read;
  noteRequest({ rows: rows.length });
  const page = () => readPageOf(http, request, rows.length);
  const text = serializeRead(resource, groupRows(resource, rows), output, page);
  const body = typeof text === 'string' ? text : await text;
  checkResultSize(body, settings.maxResultBytes);
  const cacheControl = caller.signedIn ? privateCacheControl(resource.cacheControl) : resource.cacheControl;
  const paging = pagingHeaders(http, resource, request, plan, read, settings.cursorSecret);
  return readResult(request, output, body, { 'Cache-Control': cacheControl, ...varyByAccept, ...paging });
}

/** Plan, execute and serialize a write: its echo, or the rows it affected. */
async function serveWrite(
  { resource, db }: ResolvedResource,
  request: WriteRequest,
  output: OutputType,
  caller: Caller,
  settings: Config,
): Promise<HttpResponse> {
  const plan = await planWrite(resource, request, caller.claims);
  const versions = {
    tagsOf: rowTagsOf(resource, caller.claims, output),
    writtenKey: planWrittenKey(resource, request, plan),
  };
  const subject = typeof caller.claims.sub === 'string' ? caller.claims.sub : undefined;
  const events = announcerFor(resource, request.op, { requestId: currentRequestId(), caller: subject }, settings);
  const outcome = await executeWrite(db, resource, plan, versions, events);
  noteRequest({ rows: outcome.rowsAffected, ...(events ? { nudgeFailed: await events.committed() } : {}) });
  const text = serializeWrite(resource, outcome.rowsAffected, outcome.rows, output);
  const body = typeof text === 'string' ? text : await text;
  const etag: Record<string, string> = outcome.etag === undefined ? {} : { ETag: outcome.etag };
  return toResult(200, output, body, { 'Cache-Control': 'no-store', ...varyByAccept, ...etag });
}
