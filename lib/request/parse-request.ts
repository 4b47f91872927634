/**
 * The request stage's one entry: what a client asks of a resource, from the parts of its HTTP request. The
 * path (resource name and key segments), the method (POST with X-HTTP-Method-Override: PUT|DELETE is that
 * method), the query string (filters and specials) and the body, read by its type (XML, JSON, form, CSV) and tagged
 * with what it holds: child rows of the parent in the path when the path has a key and the body is XML or JSON.
 * A CSV body holds rows to insert, so it comes with POST only.
 * Asynchronous only so that other requests run between the slices of a big XML or JSON body.
 * Pure: it knows no resource, so it checks syntax only; the planner checks names and values.
 */
import type { EntityTags } from '../entity-tags';
import { BadRequestError, MethodNotAllowedError, NegotiationError, NotFoundError, TooLargeError } from '../errors';
import { requestBodyType } from './body-type';
import { parseEntityTags } from './parse-entity-tags';
import { parseFormBody } from './parse-form-body';
import { parsePathKeys } from './parse-path-keys';
import { parseCountPreference } from './parse-prefer';
import { parseQuery } from './parse-query';
import { readCsvBody } from './read-csv-body';
import { readJsonBodyInSlices } from './read-json-body';
import { readXmlBodyInSlices } from './read-xml-body';
import { resourceMethods, resourcePath } from './resource-path';
import type { BodyType, Operation, RequestBody, RequestParts, ResourceRequest } from './resource-request';

const operations: Readonly<Record<string, Operation>> = {
  GET: 'read',
  POST: 'insert',
  PUT: 'update',
  DELETE: 'delete',
};

export interface RequestLimits {
  readonly maxBodyBytes: number;
}

/** The resource and the operation a request asks for, before anything else of it is read. */
export function requestTarget(parts: Pick<RequestParts, 'path' | 'method' | 'methodOverride'>): {
  name: string;
  op: Operation;
  keys?: string;
  method: string;
} {
  const path = resourcePath(parts.path);
  if (!path) throw new NotFoundError('path_not_found', `No such path: ${parts.path}; resources live under /res/{name}`);
  const method = effectiveMethod(parts);
  const op = Object.hasOwn(operations, method) ? operations[method] : undefined;
  if (!op) throw new MethodNotAllowedError(method, resourceMethods);
  return { name: path.name, op, keys: path.keys, method };
}

export async function parseRequest(parts: RequestParts, limits: RequestLimits): Promise<ResourceRequest> {
  const { name, op, keys, method } = requestTarget(parts);
  const path = { name, keys };
  const text = bodyText(parts.body, op, limits);
  const bodyType = text === undefined ? undefined : requestBodyType(parts.contentType);
  const query = parseQuery(parts.rawQuery, op === 'read' ? 'GET' : method === 'DELETE' ? 'DELETE' : 'PUT');
  const pathKeys = parsePathKeys(path.keys);
  if (op === 'read') {
    const read = { op, name: path.name, pathKeys, query, ...readConditions(parts) } as const;
    return parseCountPreference(parts.prefer) ? { ...read, countExact: true } : read;
  }
  const request = { op, name: path.name, pathKeys, query, ...writeConditions(parts, method) };
  if (text === undefined || bodyType === undefined) return request;
  if (bodyType === 'csv' && op !== 'insert') throw csvNotInsert(method);
  return { ...request, body: await readBody(bodyType, text, pathKeys.length > 0 ? 'children' : 'parents') };
}

/** The body's text, within the size limit; undefined when there is none. A GET has none. */
function bodyText(body: string | undefined, op: Operation, limits: RequestLimits): string | undefined {
  if (body === undefined || body === '') return undefined;
  if (Buffer.byteLength(body) > limits.maxBodyBytes) {
    throw new TooLargeError(
      'body_too_large',
      `The request body is larger than ${limits.maxBodyBytes} bytes; send fewer rows per request`,
    );
  }
  if (op === 'read') throw new BadRequestError('bad_body', 'GET takes no request body');
  return body;
}

/** If-None-Match asks a read to answer 304 for a version the client holds; If-Match is for writes. */
function readConditions(parts: RequestParts): { ifNoneMatch?: EntityTags } {
  if (parts.ifMatch !== undefined) {
    throw new BadRequestError('bad_header', 'If-Match is for PUT and DELETE by key; a GET takes If-None-Match');
  }
  return parts.ifNoneMatch === undefined ? {} : { ifNoneMatch: parseEntityTags(parts.ifNoneMatch, 'If-None-Match') };
}

/** If-Match makes a write conditional on the versions of its rows; If-None-Match is for reads. */
function writeConditions(parts: RequestParts, method: string): { ifMatch?: EntityTags } {
  if (parts.ifNoneMatch !== undefined) {
    throw new BadRequestError(
      'bad_header',
      `If-None-Match is for GET; a ${method} is made conditional with If-Match and the ETag of the row it changes`,
    );
  }
  return parts.ifMatch === undefined ? {} : { ifMatch: parseEntityTags(parts.ifMatch, 'If-Match') };
}

/** POST with X-HTTP-Method-Override: PUT|DELETE is that method. */
function effectiveMethod(parts: Pick<RequestParts, 'method' | 'methodOverride'>): string {
  const override = parts.methodOverride?.trim().toUpperCase();
  if (parts.method !== 'POST' || !override) return parts.method;
  if (override !== 'PUT' && override !== 'DELETE') {
    throw new BadRequestError('bad_request', `X-HTTP-Method-Override must be PUT or DELETE, not ${override}`);
  }
  return override;
}

/** XML and JSON bodies are read a slice at a time: a big one holds the event loop for a millisecond, never for all of it. */
async function readBody(type: BodyType, text: string, shape: 'parents' | 'children'): Promise<RequestBody> {
  switch (type) {
    case 'form':
      return { type, row: parseFormBody(text) };
    case 'xml':
      return { type, shape, root: await readXmlBodyInSlices(text) };
    case 'json':
      return { type, shape, document: await readJsonBodyInSlices(text) };
    case 'csv':
      return { type, shape: 'parents', rows: readCsvBody(text) };
  }
}

function csvNotInsert(method: string): NegotiationError {
  return new NegotiationError(
    415,
    'unsupported_media_type',
    `A text/csv body holds rows to insert, so it goes with POST only; ${method} takes application/xml or application/json or application/x-www-form-urlencoded`,
  );
}
