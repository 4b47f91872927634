/**
 * Reads a node:http request (its head and its whole body) into the HttpRequest the handlers serve, as the Lambda
 * path reads it from API Gateway's event (fromEvent of the event toEvent builds, which the tests hold it to): the
 * method upper-cased, the raw path and raw query string as sent (repeated keys intact), lower-cased headers (repeats
 * joined by commas; cookies, which API Gateway moves out of the headers, left out), the body as UTF-8 text, absent
 * when empty. Pure.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { HttpRequest } from '../http/from-event';

export interface RequestHead {
  readonly method: string;
  /** The request target as sent: path and query string. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly httpVersion: string;
  readonly remoteAddress?: string;
}

/** The headers as API Gateway passes them: repeats joined by commas, without the cookies. */
export function headersOf(raw: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in raw) {
    const value = raw[name];
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

/** The raw path and the raw query string (without its `?`) of a request target. */
export function splitTarget(url: string): { readonly rawPath: string; readonly rawQuery: string } {
  const mark = url.indexOf('?');
  return mark < 0 ? { rawPath: url, rawQuery: '' } : { rawPath: url.slice(0, mark), rawQuery: url.slice(mark + 1) };
}

export function toHttpRequest(head: RequestHead, body: Buffer): HttpRequest {
  const { rawPath, rawQuery } = splitTarget(head.url);
  return {
    method: head.method.toUpperCase(),
    path: rawPath,
    rawQuery,
    headers: headersOf(head.headers),
    body: body.length > 0 ? body.toString('utf8') : undefined,
  };
}
