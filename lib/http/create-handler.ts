/**
 * Builds a Lambda handler for API Gateway (REST v1 or HTTP API v2 events) from a function that serves one
 * HttpRequest. A handler never throws: every outcome is an HTTP response (D21).
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { fromEvent, type GatewayEvent, type HttpRequest } from './from-event';
import { errorResult, type HttpResponse } from './to-result';

export type Handler = (event: GatewayEvent) => Promise<APIGatewayProxyResult>;

export function createHandler(serve: (request: HttpRequest) => Promise<HttpResponse>): Handler {
  return async (event) => {
    let response: HttpResponse;
    try {
      response = await serve(fromEvent(event));
    } catch (error) {
      response = errorResult(error, undefined);
    }
    return { statusCode: response.statusCode, headers: { ...response.headers }, body: response.body };
  };
}
