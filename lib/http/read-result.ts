/**
 * The answer to a successful read: its body with a strong ETag of its bytes, or a 304 with no body when the client's
 * If-None-Match already names that version (weak comparison, RFC 9110 13.1.2), with the same ETag, Cache-Control
 * and Vary. Pure.
 */
import { matchesWeakly } from '../entity-tags';
import type { ReadRequest } from '../request/resource-request';
import { entityTag } from '../serial/entity-tag';
import { type HttpResponse, notModified, toResult } from './to-result';

export function readResult(
  request: Pick<ReadRequest, 'ifNoneMatch'>,
  contentType: string,
  body: string,
  headers: Record<string, string>,
): HttpResponse {
  const tagged = { ...headers, ETag: entityTag(body) };
  if (request.ifNoneMatch && matchesWeakly(request.ifNoneMatch, tagged.ETag)) return notModified(tagged);
  return toResult(200, contentType, body, tagged);
}
