/**
 * Builds a Lambda handler for API Gateway (REST v1 or HTTP API v2 events) from a function that serves one
 * HttpRequest for one caller and throws typed errors. Sign-in comes first: nothing is served to a caller whose
 * token is refused. This is where every error becomes a response (errorResult, honouring the request's Accept
 * for problem+json): a handler never throws, every outcome is an HTTP response.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { authenticate } from '../auth/authenticate';
import type { Caller } from '../auth/caller';
import { config } from '../config';
import { fromEvent, type GatewayEvent, type HttpRequest } from './from-event';
import { errorResult, type HttpResponse } from './to-result';

export type Handler = (event: GatewayEvent) => Promise<APIGatewayProxyResult>;

export function createHandler(serve: (request: HttpRequest, caller: Caller) => Promise<HttpResponse>): Handler {
  return async (event) => {
    let response: HttpResponse;
    let accept: string | undefined;
    try {
      const request = fromEvent(event);
      accept = request.headers.accept;
      const caller = await authenticate(
        { authorization: request.headers.authorization, verifiedByGateway: request.verifiedByGateway },
        config(),
      );
      response = await serve(request, caller);
    } catch (error) {
      response = errorResult(error, accept);
    }
    return { statusCode: response.statusCode, headers: { ...response.headers }, body: response.body };
  };
}
