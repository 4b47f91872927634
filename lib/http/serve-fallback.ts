/**
 * Everything API Gateway routes to no other function: 405 (with Allow) on /res paths, 404 elsewhere. Imports
 * nothing of the pipeline, so its bundle stays small.
 */
import { MethodNotAllowedError, NotFoundError } from '../errors';
import { type HttpRequest, resourcePath } from './from-event';
import { errorResult, type HttpResponse } from './to-result';

export const resourceMethods = ['GET', 'POST', 'PUT', 'DELETE'] as const;

export async function serveFallback(request: HttpRequest): Promise<HttpResponse> {
  const error = resourcePath(request.path)
    ? new MethodNotAllowedError(request.method, resourceMethods)
    : new NotFoundError('path_not_found', `No such path: ${request.path}; resources live under /res/{name}`);
  return errorResult(error, request.headers.accept);
}
