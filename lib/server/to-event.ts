/**
 * Turns a node:http request (its head and its whole body) into the API Gateway HTTP API (payload 2.0) event
 * API Gateway would send for it: the raw path and raw query string as sent (repeated keys intact), lower-cased
 * headers (repeats joined by commas, cookies apart), a text body as is and any other body in base64, and a
 * requestContext with the method and a fresh request id. The server mode hands its handlers the request directly
 * (to-http-request.ts); this is what that request stands for on Lambda, and its tests hold the two to the same
 * HttpRequest. Pure apart from the id and the clock.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { headersOf, type RequestHead, splitTarget } from './to-http-request';

/** Bodies API Gateway passes as text; everything else (images, octet streams, unknown types) it base64-encodes. */
const TEXT_TYPES = /^(text\/|application\/([\w.+-]*\+)?(json|xml|x-www-form-urlencoded|javascript)\b)/i;

function isText(contentType: string | undefined): boolean {
  return contentType === undefined || contentType === '' || TEXT_TYPES.test(contentType.trim());
}

function cookiesOf(raw: IncomingHttpHeaders): string[] | undefined {
  const cookie = raw.cookie;
  return cookie ? cookie.split(/;\s*/).filter(Boolean) : undefined;
}

export function toEvent(head: RequestHead, body: Buffer): APIGatewayProxyEventV2 {
  const { rawPath, rawQuery: rawQueryString } = splitTarget(head.url);
  const method = head.method.toUpperCase();
  const headers = headersOf(head.headers);
  const text = isText(headers['content-type']);
  const now = new Date();
  const cookies = cookiesOf(head.headers);
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    ...(cookies ? { cookies } : {}),
    headers,
    ...(body.length > 0 ? { body: text ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !text,
    requestContext: {
      accountId: 'server',
      apiId: 'server',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0] ?? 'localhost',
      http: {
        method,
        path: rawPath,
        protocol: `HTTP/${head.httpVersion}`,
        sourceIp: head.remoteAddress ?? '',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
  };
}
