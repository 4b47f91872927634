/**
 * Calls the real exported Lambda handlers with API Gateway events (HTTP API v2 or REST v1) and points the
 * service at a test database and definitions folder.
 */
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { resetConfig } from '../../lib/config';
import { closeDatabases } from '../../lib/db/select-database';
import { forgetResource } from '../../lib/definitions/resolve-resource';
import type { Handler } from '../../lib/http/create-handler';
import { routeRequest } from '../../lib/routes';
import { functions } from '../../lib/server/functions';

export const testDefinitions = path.resolve(__dirname, '..', 'fixtures', 'definitions');

export async function useService(env: Record<string, string | undefined>): Promise<void> {
  await closeDatabases();
  forgetResource();
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetConfig();
}

export type EventVersion = 'v1' | 'v2';

export interface Call {
  readonly method: string;
  /** Percent-encoded path, e.g. `/res/Item/1`. */
  readonly path: string;
  /** Raw query string without `?`. */
  readonly query?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** The routes of serverless.yml (the route table, lib/routes.ts, which the server mode routes with too). */
function route(call: Call): Handler {
  return functions[routeRequest(call.method, call.path)];
}

function v2Event(call: Call) {
  return {
    version: '2.0',
    routeKey: `${call.method} ${call.path}`,
    rawPath: call.path,
    rawQueryString: call.query ?? '',
    headers: call.headers ?? {},
    body: call.body,
    isBase64Encoded: false,
    requestContext: { http: { method: call.method, path: call.path } },
  };
}

/** v1 carries decoded, possibly repeated query parameters and no raw query string. */
function v1Event(call: Call) {
  const multi: Record<string, string[]> = {};
  for (const piece of (call.query ?? '').split('&').filter(Boolean)) {
    const [name = '', value = ''] = piece.split(/=(.*)/s);
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    const key = decode(name);
    multi[key] = [...(multi[key] ?? []), decode(value)];
  }
  const hasQuery = Object.keys(multi).length > 0;
  return {
    httpMethod: call.method,
    path: call.path,
    headers: call.headers ?? {},
    multiValueHeaders: {},
    queryStringParameters: hasQuery
      ? Object.fromEntries(Object.entries(multi).map(([k, v]) => [k, v[v.length - 1]]))
      : null,
    multiValueQueryStringParameters: hasQuery ? multi : null,
    body: call.body ?? null,
    isBase64Encoded: false,
  };
}

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export async function invoke(call: Call, version: EventVersion = 'v2'): Promise<Reply> {
  const handler = route(call);
  const event = version === 'v2' ? v2Event(call) : v1Event(call);
  const result = await handler(event as never);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k.toLowerCase()] = String(v);
  return { status: result.statusCode, headers, body: result.body };
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  isArray: (name, _path, _leaf, isAttribute) =>
    !isAttribute && !['readResponse', 'writeResponse', '?xml'].includes(name),
});

/** Parses an XML response body into plain objects (attributes as string properties, elements as arrays). */
export function parseXml(body: string): Record<string, unknown> {
  return xml.parse(body) as Record<string, unknown>;
}
