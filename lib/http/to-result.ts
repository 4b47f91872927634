/**
 * Builds responses: successes with their exact Content-Type, and the ONE place any error becomes a response:
 * text/plain or problem+json (whose `instance` names the request: `urn:request:<id>`, as in X-Request-Id and the
 * log), never a stack trace, never a secret. Every response built here says `X-Content-Type-Options: nosniff`:
 * text/plain error bodies echo what the client sent, and no browser may read them as HTML or script. Logging the
 * error is lib/observe's work.
 */
import { toServiceError } from '../errors';
import { type HiddenPlaces, maskErrorText } from './mask-error-text';
import { wantsProblemJson } from './negotiate';

export interface HttpResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Browsers take the Content-Type as it is, never guessing HTML or script from the body. */
const noSniff = { 'X-Content-Type-Options': 'nosniff' } as const;

/**
 * On every answer whose body Accept chooses (XML, JSON or HTML; text/plain or problem+json for an error), so that a
 * shared cache never hands one client's representation to another.
 */
export const varyByAccept = { Vary: 'Accept' } as const;

export function toResult(
  statusCode: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): HttpResponse {
  return { statusCode, headers: { 'Content-Type': contentType, ...headers, ...noSniff }, body };
}

/** 304: the version the client holds is current; no body, and the headers its 200 would carry (RFC 9110 15.4.5). */
export function notModified(headers: Record<string, string>): HttpResponse {
  return { statusCode: 304, headers: { ...headers, ...noSniff }, body: '' };
}

const titles: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  428: 'Precondition Required',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** `hidden`: with sign-in on, the places the text must not show (mask-error-text.ts). */
export function errorResult(
  error: unknown,
  accept: string | undefined,
  requestId?: string,
  hidden?: HiddenPlaces,
): HttpResponse {
  const answer = toServiceError(error);
  const { status, code } = answer;
  const message = hidden ? maskErrorText(answer, hidden) : answer.message;
  const headers = { ...answer.headers, ...varyByAccept };
  if (wantsProblemJson(accept)) {
    const problem = {
      type: `urn:relational-resource-service:error:${code}`,
      title: titles[status] ?? 'Error',
      status,
      detail: message,
      code,
      ...(requestId !== undefined ? { instance: `urn:request:${requestId}` } : {}),
    };
    return toResult(status, 'application/problem+json', JSON.stringify(problem), headers);
  }
  return toResult(status, 'text/plain; charset=utf-8', message, headers);
}
