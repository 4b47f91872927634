/**
 * The type of a request body, from its Content-Type: XML, JSON, a form or CSV (which the request stage takes on
 * POST only); anything else is a 415. Pure.
 */
import { NegotiationError } from '../errors';
import type { BodyType } from './resource-request';

export function requestBodyType(contentType: string | undefined): BodyType {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type === 'text/csv') return 'csv';
  throw new NegotiationError(
    415,
    'unsupported_media_type',
    `Content-Type "${contentType ?? ''}" is not supported for request bodies; use application/xml or application/json or application/x-www-form-urlencoded`,
  );
}
