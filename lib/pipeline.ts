/**
 * The /res pipeline, top to bottom: parse the request, negotiate the response type, resolve the resource, plan,
 * execute, serialize. Only the order lives here: each stage throws typed errors, and lib/http/create-handler
 * turns any of them into the response.
 */
import { config } from './config';
import { resolveResource } from './definitions/resolve-resource';
import { TooLargeError } from './errors';
import { executeRead, executeWrite } from './execute/execute-plan';
import type { HttpRequest } from './http/from-event';
import { negotiateResponse } from './http/negotiate';
import { type HttpResponse, toResult } from './http/to-result';
import { planRead } from './plan/plan-read';
import { planWrite } from './plan/plan-write';
import { parseRequest } from './request/parse-request';
import { groupRows } from './serial/group-rows';
import { serializeRead } from './serial/serialize-read';
import { serializeWrite } from './serial/serialize-write';

export async function serveResource(http: HttpRequest): Promise<HttpResponse> {
  const settings = config();
  const request = parseRequest(
    {
      method: http.method,
      path: http.path,
      rawQuery: http.rawQuery,
      contentType: http.headers['content-type'],
      methodOverride: http.headers['x-http-method-override'],
      body: http.body,
    },
    settings,
  );
  const bodyType = request.op === 'read' ? undefined : request.body?.type;
  const output = negotiateResponse(http.headers.accept, request.query.output, bodyType);
  const { resource, db } = await resolveResource(settings, request.name);
  if (request.op === 'read') {
    const rows = await executeRead(db, resource, planRead(resource, request));
    const body = serializeRead(resource, groupRows(resource, rows), output);
    if (Buffer.byteLength(body) > settings.maxResultBytes) {
      throw new TooLargeError(
        'result_too_large',
        `The result is larger than ${settings.maxResultBytes} bytes; page it with _limit and _offset, or narrow it with filters`,
      );
    }
    return toResult(200, output, body, { 'Cache-Control': resource.cacheControl });
  }
  const outcome = await executeWrite(db, resource, planWrite(resource, request));
  const body = serializeWrite(resource, outcome.rowsAffected, outcome.rows, output);
  return toResult(200, output, body, { 'Cache-Control': 'no-store' });
}
