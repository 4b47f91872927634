/**
 * Everything API Gateway routes to no other function: 405 (with Allow) on the service's paths for a method
 * they do not serve, 404 elsewhere. Imports nothing of the pipeline, so its bundle stays small.
 */
import { MethodNotAllowedError, NotFoundError } from '../errors';
import { resourceMethods, resourcePath } from '../request/resource-path';
import type { HttpRequest } from './from-event';
import type { HttpResponse } from './to-result';

/** The methods a path of this service answers, or undefined for a path it does not serve. */
export function allowedMethods(path: string): readonly string[] | undefined {
  if (resourcePath(path)) return resourceMethods;
  if (/(?:^|\/)conf\/(definition|metadata|documentation|reload)\/[^/]+$/.test(path)) return ['GET'];
  if (/(?:^|\/)(res|openapi\.json)\/?$/.test(path) || /(?:^|\/)xsd\/[^/]+$/.test(path)) return ['GET'];
  if (/(?:^|\/)health(\/db)?$/.test(path)) return ['GET'];
  return undefined;
}

export async function serveFallback(request: HttpRequest): Promise<HttpResponse> {
  const allowed = allowedMethods(request.path);
  throw allowed
    ? new MethodNotAllowedError(request.method, allowed)
    : new NotFoundError('path_not_found', `No such path: ${request.path}; resources live under /res/{name}`);
}
