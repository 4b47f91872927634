/**
 * Builds a Lambda handler for API Gateway (REST v1 or HTTP API v2 events) from a function that serves one
 * HttpRequest for one caller and throws typed errors. Sign-in comes first: nothing is served to a caller whose
 * token is refused. This is where every error becomes a response (errorResult, honouring the request's Accept
 * for problem+json, and with sign-in on masking where the service runs: lib/http/mask-error-text.ts): a handler
 * never throws, every outcome is an HTTP response. A HEAD is served as the GET it asks about, answered with the
 * GET's status and headers, the length of the GET's body as Content-Length, and no body (its routes are the GET's,
 * lib/routes.ts). Every request is observed here
 * (lib/observe: one log line, metrics, traced database calls) and every response carries its X-Request-Id. The
 * server mode enters after the event (serveHttp), with the request it read itself: the rest is the same path.
 */
import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import { authenticate } from '../auth/authenticate';
import { type Caller, openCaller } from '../auth/caller';
import { config, signInAsked } from '../config';
import { observeRequest } from '../observe/observe-request';
import { requestIdOf } from '../observe/request-id';
import { fromEvent, type GatewayEvent, type HttpRequest } from './from-event';
import { type HiddenPlaces, hiddenPlacesOf } from './mask-error-text';
import { errorResult, type HttpResponse } from './to-result';

/** `context`: Lambda's, which the log lines then carry (the server mode and the tests call without one). */
export type LambdaHandler = (
  event: GatewayEvent,
  context?: Pick<Context, 'awsRequestId'> & Partial<Context>,
) => Promise<APIGatewayProxyResult>;

/**
 * A function's handler: Lambda's entry, and `serveHttp`, the same service for a request already read (the server
 * mode's: no API Gateway event is built for it and read back), under the request id given.
 */
export type Handler = LambdaHandler & {
  readonly serveHttp: (request: HttpRequest, requestId: string) => Promise<HttpResponse>;
};

export interface HandlerOptions {
  /**
   * False for paths anyone may call even with sign-in on (the health checks): the caller is not asked for a token.
   * A function of the request when the function serves both kinds of path.
   */
  readonly signIn?: boolean | ((request: HttpRequest) => boolean);
  /**
   * Where a client learns how to get a token (the MCP endpoint's protected-resource metadata, RFC 9728): a 401's
   * WWW-Authenticate then names it as `resource_metadata`.
   */
  readonly challengeWith?: (request: HttpRequest) => string;
}

/**
 * With sign-in on, the places an error body must not show; none without. With a configuration that does not read,
 * what can be masked without it still is: absolute paths, and the addresses in a connection failure.
 */
function hiddenPlaces(): HiddenPlaces | undefined {
  if (!signInAsked()) return undefined;
  try {
    return hiddenPlacesOf(config());
  } catch {
    return { hosts: [] };
  }
}

export function createHandler(
  serve: (request: HttpRequest, caller: Caller) => Promise<HttpResponse>,
  options: HandlerOptions = {},
): Handler {
  const signIn = options.signIn ?? true;
  /** `read`: the request, read from its event on Lambda (an event that cannot be read is answered as an error). */
  const answer = async (read: () => HttpRequest, requestId: string, context?: Partial<Context>) => {
    let head = false;
    const response = await observeRequest(requestId, context, async () => {
      let request: HttpRequest | undefined;
      try {
        request = read();
        head = request.method === 'HEAD';
        const found = callerOf(request, signIn);
        // with sign-in off the caller is there at once: no await, which would cost a promise every request
        const caller = found instanceof Promise ? await found : found;
        const result = await serve(head ? { ...request, method: 'GET' } : request, caller);
        return { status: result.statusCode, method: request?.method, path: request?.path, result };
      } catch (error) {
        const result = refusal(error, request, requestId, options);
        return { status: result.statusCode, method: request?.method, path: request?.path, error, result };
      }
    });
    const headers = { ...response.headers, 'X-Request-Id': requestId };
    if (!head || response.statusCode === 304) return { statusCode: response.statusCode, headers, body: response.body };
    const length = String(Buffer.byteLength(response.body));
    return { statusCode: response.statusCode, headers: { ...headers, 'Content-Length': length }, body: '' };
  };
  const lambda: LambdaHandler = (event, context) =>
    answer(() => fromEvent(event), requestIdOf(event, context), context);
  return Object.assign(lambda, {
    serveHttp: (request: HttpRequest, requestId: string) => answer(() => request, requestId),
  });
}

/** The error's response; a 401 names where tokens come from, when the handler says. */
function refusal(
  error: unknown,
  request: HttpRequest | undefined,
  requestId: string,
  options: HandlerOptions,
): HttpResponse {
  const result = errorResult(error, request?.headers.accept, requestId, hiddenPlaces());
  return request && options.challengeWith ? withMetadata(result, options.challengeWith(request)) : result;
}

/** The signed-in caller, when the path asks for a token; the open caller otherwise. */
function callerOf(request: HttpRequest, signIn: NonNullable<HandlerOptions['signIn']>): Caller | Promise<Caller> {
  const asks = typeof signIn === 'function' ? signIn(request) : signIn;
  if (!asks) return openCaller;
  return authenticate(
    { authorization: request.headers.authorization, verifiedByGateway: request.verifiedByGateway },
    config(),
  );
}

/** A 401's challenge with the URL of the metadata that says where tokens come from. */
function withMetadata(result: HttpResponse, metadataUrl: string): HttpResponse {
  const challenge = result.statusCode === 401 ? result.headers['WWW-Authenticate'] : undefined;
  if (challenge === undefined) return result;
  return {
    ...result,
    headers: { ...result.headers, 'WWW-Authenticate': `${challenge}, resource_metadata="${metadataUrl}"` },
  };
}
