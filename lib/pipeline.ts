/**
 * The /res pipeline, top to bottom: check the caller's privilege for the resource and operation, parse the
 * request, negotiate the response type, resolve the resource, plan (with the caller's claims), execute,
 * serialize. Only the order lives here: each stage throws typed errors, and lib/http/create-handler turns any of
 * them into the response. What the request turned out to be (resource, operation, rows) is noted for its log line.
 * A write on a resource built from a catalog snapshot waits for the snapshot's check; a read does not, and one
 * that the database refuses because the snapshot turns out stale is served once more, loaded from the catalog.
 * A read returns at most its cap of rows (the definition's, else MAX_ROWS) and MAX_RESULT_BYTES, both kept while
 * its rows arrive.
 */
import { authorize } from './auth/authorize';
import type { Caller, Privilege } from './auth/caller';
import { privilegesOf } from './auth/privileges-store';
import { type Config, config } from './config';
import {
  confirmedForWrites,
  failedOnStaleSnapshot,
  type ResolvedResource,
  resolveResource,
} from './definitions/resolve-resource';
import { executeRead, executeWrite } from './execute/execute-plan';
import type { HttpRequest } from './http/from-event';
import { negotiateResponse } from './http/negotiate';
import { privateCacheControl } from './http/private-cache-control';
import { type HttpResponse, toResult } from './http/to-result';
import { operationName } from './observe/operation-name';
import { planRead } from './plan/plan-read';
import { planWrite } from './plan/plan-write';
import { parseRequest, requestTarget } from './request/parse-request';
import type { Operation, ResourceRequest } from './request/resource-request';
import { noteRequest } from './request-context';
import { groupRows } from './serial/group-rows';
import { checkResultSize, meterResult } from './serial/result-size';
import { serializeRead } from './serial/serialize-read';
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
    body: http.body,
  };
  const target = requestTarget(parts);
  noteRequest({ resource: target.name });
  if (caller.signedIn) authorize(caller, await privilegesOf(settings), target.name, privilegeOf[target.op]);
  const request = await parseRequest(parts, settings);
  noteRequest({ operation: operationName(request) });
  const bodyType = request.op === 'read' ? undefined : request.body?.type;
  const output = negotiateResponse(http.headers.accept, request.query.output, bodyType);
  const found = await resolveResource(settings, request.name);
  const resolved = request.op === 'read' ? found : await confirmedForWrites(settings, found);
  noteRequest({ resourceFound: true });
  try {
    return await serveResolved(resolved, request, output, caller, settings);
  } catch (error) {
    // built from a catalog snapshot whose tables have changed since: once more, with the catalog as it is now
    if (!(await failedOnStaleSnapshot(resolved, error))) throw error;
    return serveResolved(await resolveResource(settings, request.name), request, output, caller, settings);
  }
}

/** Plan, execute and serialize the request on its resolved resource. */
async function serveResolved(
  { resource, db, readDb }: ResolvedResource,
  request: ResourceRequest,
  output: OutputType,
  caller: Caller,
  settings: Config,
): Promise<HttpResponse> {
  if (request.op === 'read') {
    const plan = planRead(resource, request, caller.claims, resource.maxRows ?? settings.maxRows);
    const rows = await executeRead(readDb, resource, plan, meterResult(resource, settings.maxResultBytes));
    noteRequest({ rows: rows.length });
    const body = await serializeRead(resource, groupRows(resource, rows), output);
    checkResultSize(body, settings.maxResultBytes);
    const cacheControl = caller.signedIn ? privateCacheControl(resource.cacheControl) : resource.cacheControl;
    return toResult(200, output, body, { 'Cache-Control': cacheControl });
  }
  const outcome = await executeWrite(db, resource, await planWrite(resource, request, caller.claims));
  noteRequest({ rows: outcome.rowsAffected });
  const body = await serializeWrite(resource, outcome.rowsAffected, outcome.rows, output);
  return toResult(200, output, body, { 'Cache-Control': 'no-store' });
}
