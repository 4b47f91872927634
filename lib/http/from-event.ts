/**
 * Normalises an API Gateway event, REST (v1) or HTTP API (v2), into an HttpRequest: method, the RAW path and
 * query string (the HTTP API joins repeated keys with commas, so its parsed parameters cannot be used),
 * lower-cased headers and the decoded body. Pure.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda';

export interface HttpRequest {
  readonly method: string;
  /** Percent-encoded, as sent. */
  readonly path: string;
  /** Percent-encoded, without `?`. */
  readonly rawQuery: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** API Gateway's JWT authorizer verified the bearer token (its claims are in the event). */
  readonly verifiedByGateway?: boolean;
}

export type GatewayEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;

function isV2(event: GatewayEvent): event is APIGatewayProxyEventV2 {
  return (event as APIGatewayProxyEventV2).version === '2.0';
}

function lowerCaseHeaders(headers: Record<string, string | undefined> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) out[name.toLowerCase()] = value;
  return out;
}

/** v1 has no raw query string: rebuild one from the (decoded) multi-value parameters, keeping repeats. */
function rawQueryOfV1(event: APIGatewayProxyEvent): string {
  const multi = event.multiValueQueryStringParameters;
  const single = event.queryStringParameters;
  const pairs: string[] = [];
  const entries = multi
    ? Object.entries(multi)
    : Object.entries(single ?? {}).map(([k, v]) => [k, v === undefined ? [] : [v]] as const);
  for (const [name, values] of entries) {
    for (const value of values ?? []) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  }
  return pairs.join('&');
}

export function fromEvent(event: GatewayEvent): HttpRequest {
  const rawBody = event.body ?? undefined;
  const body =
    rawBody !== undefined && event.isBase64Encoded ? Buffer.from(rawBody, 'base64').toString('utf8') : rawBody;
  if (isV2(event)) {
    return {
      method: event.requestContext.http.method.toUpperCase(),
      path: event.rawPath,
      rawQuery: event.rawQueryString ?? '',
      headers: lowerCaseHeaders(event.headers),
      body,
      ...(hasJwtClaims(event) ? { verifiedByGateway: true } : {}),
    };
  }
  return {
    method: event.httpMethod.toUpperCase(),
    path: event.path,
    rawQuery: rawQueryOfV1(event),
    headers: lowerCaseHeaders(event.headers),
    body,
  };
}

function hasJwtClaims(event: APIGatewayProxyEventV2): boolean {
  const context = event.requestContext as { authorizer?: { jwt?: { claims?: unknown } } };
  return typeof context.authorizer?.jwt?.claims === 'object' && context.authorizer.jwt.claims !== null;
}
