/**
 * The /res pipeline for one request (DESIGN.md): parse → negotiate → resolve → plan → execute → serialize.
 * Every failure is thrown as a typed error; create-handler answers it through errorResult, the one place that does.
 */
import { config } from '../config';
import { executeRead, executeWrite } from '../execute/execute-plan';
import { resolveResource } from '../definitions/resolve-resource';
import { BadRequestError, MethodNotAllowedError, NotFoundError, TooLargeError } from '../errors';
import { planRead } from '../plan/plan-read';
import { addressesChildren, planWrite } from '../plan/plan-write';
import { parsePathKeys } from '../request/parse-path-keys';
import { parseQuery } from '../request/parse-query';
import type { BodyType, Operation } from '../request/resource-request';
import type { SqlResource } from '../resource';
import { tableOf, tableWithRole } from '../resource-levels';
import { groupRows } from '../serial/group-rows';
import { type BodyNames, parseBody } from '../serial/parse-body';
import { serializeRead } from '../serial/serialize-read';
import { serializeWrite } from '../serial/serialize-write';
import type { OutputType } from '../values';
import { type HttpRequest, resourcePath } from './from-event';
import { negotiateResponse, requestBodyType } from './negotiate';
import { resourceMethods } from './serve-fallback';
import { type HttpResponse, toResult } from './to-result';

const operations: Record<string, Operation> = { GET: 'read', POST: 'insert', PUT: 'update', DELETE: 'delete' };

/** POST with X-HTTP-Method-Override: PUT|DELETE is that method (D13). */
export function effectiveMethod(request: HttpRequest): string {
  const override = request.headers['x-http-method-override']?.trim().toUpperCase();
  if (request.method !== 'POST' || !override) return request.method;
  if (override !== 'PUT' && override !== 'DELETE') {
    throw new BadRequestError('bad_request', `X-HTTP-Method-Override must be PUT or DELETE, not ${override}`);
  }
  return override;
}

export async function serveResource(request: HttpRequest): Promise<HttpResponse> {
  const path = resourcePath(request.path);
  if (!path)
    throw new NotFoundError('path_not_found', `No such path: ${request.path}; resources live under /res/{name}`);
  const method = effectiveMethod(request);
  const op = operations[method];
  if (!op) throw new MethodNotAllowedError(method, resourceMethods);
  const settings = config();
  const hasBody = request.body !== undefined && request.body !== '';
  if (hasBody && Buffer.byteLength(request.body as string) > settings.maxBodyBytes) {
    throw new TooLargeError(
      'body_too_large',
      `The request body is larger than ${settings.maxBodyBytes} bytes; send fewer rows per request`,
    );
  }
  if (hasBody && op === 'read') throw new BadRequestError('bad_body', 'GET takes no request body');
  const bodyType = hasBody ? requestBodyType(request.headers['content-type']) : undefined;
  const query = parseQuery(request.rawQuery, op === 'read' ? 'GET' : method === 'DELETE' ? 'DELETE' : 'PUT');
  const output = negotiateResponse(request.headers.accept, query.output, bodyType);
  const pathKeys = parsePathKeys(path.keys);
  const { resource, db } = await resolveResource(settings, path.name);
  if (op === 'read') {
    const plan = planRead(resource, query, pathKeys);
    if (plan.kind !== 'read') throw new Error('planRead returned a write plan');
    const rows = await executeRead(db, resource, plan.select);
    const body = serializeRead(resource, groupRows(resource, rows), output);
    return checkedResult(body, output, settings.maxResultBytes, { 'Cache-Control': resource.cacheControl });
  }
  const shape = addressesChildren(resource, { pathKeys, bodyType }) ? 'children' : 'parents';
  const rows = hasBody
    ? parseBody(bodyType as BodyType, request.body as string, bodyNames(resource), shape)
    : undefined;
  const plan = planWrite(resource, { op, pathKeys, filters: query.filters, bodyType, rows });
  if (plan.kind === 'read') throw new Error('planWrite returned a read plan');
  const outcome = await executeWrite(db, resource, plan);
  return toResult(200, output, serializeWrite(resource, outcome.rowsAffected, outcome.rows, output), {
    'Cache-Control': 'no-store',
  });
}

function bodyNames(resource: SqlResource): BodyNames {
  return {
    rowName: resource.rowName,
    collectionName: resource.collectionName,
    childRowName: resource.childRowName,
    childCollectionName: resource.childCollectionName,
    rowTable: tableOf(resource, 'Parent').table,
    childTable: tableWithRole(resource, 'Child')?.table,
  };
}

function checkedResult(
  body: string,
  output: OutputType,
  maxBytes: number,
  headers: Record<string, string>,
): HttpResponse {
  if (Buffer.byteLength(body) > maxBytes) {
    throw new TooLargeError(
      'result_too_large',
      `The result is larger than ${maxBytes} bytes; page it with _limit and _offset, or narrow it with filters`,
    );
  }
  return toResult(200, output, body, headers);
}
