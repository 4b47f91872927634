/**
 * Builds a Lambda handler for API Gateway (REST v1 or HTTP API v2 events). A handler never throws: every
 * outcome is an HTTP response (D21).
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { MethodNotAllowedError, NotFoundError } from '../errors';
import { fromEvent, type GatewayEvent, type HttpRequest, resourcePath } from './from-event';
import { resourceMethods, serveResource } from './serve-resource';
import { errorResult, type HttpResponse } from './to-result';

export type Handler = (event: GatewayEvent) => Promise<APIGatewayProxyResult>;

export function createHandler(serve: (request: HttpRequest) => Promise<HttpResponse>): Handler {
  return async (event) => {
    try {
      const response = await serve(fromEvent(event));
      return { statusCode: response.statusCode, headers: { ...response.headers }, body: response.body };
    } catch (error) {
      const response = errorResult(error, undefined);
      return { statusCode: response.statusCode, headers: { ...response.headers }, body: response.body };
    }
  };
}

/** The /res handlers: the same pipeline, routed by API Gateway per method. */
export const resourceHandler = (): Handler => createHandler(serveResource);

/** Everything API Gateway routes nowhere else: 405 (with Allow) on /res paths, 404 elsewhere. */
export async function serveFallback(request: HttpRequest): Promise<HttpResponse> {
  const error = resourcePath(request.path)
    ? new MethodNotAllowedError(request.method, resourceMethods)
    : new NotFoundError('path_not_found', `No such path: ${request.path}; resources live under /res/{name}`);
  return errorResult(error, request.headers.accept);
}
