/**
 * The server mode's node:http server: each request is read into the HttpRequest the handlers serve, as Lambda reads
 * API Gateway's event (to-http-request.ts), routed as serverless.yml routes it (the route table, lib/routes.ts) to
 * the very handler Lambda runs, past its event (serveHttp), and its result written back. Connections are kept alive and many requests run at once (the database pools bound the
 * queries: DB_POOL_SIZE, 5 per database outside Lambda).
 *
 * What one client can hold is bounded before anything of its body is read, as API Gateway bounds it on Lambda:
 * - sign-in first: on a route that needs a token, the token of the headers is checked before the body is read;
 *   a refused request is answered at once and its connection closed, so its body is never kept;
 * - a request's head must arrive within `headersTimeoutMs` and the whole request within `requestTimeoutMs`
 *   (Node answers 408 and closes);
 * - at most `maxConnections` connections are served: a request on a connection beyond is a 503 with Retry-After
 *   and its connection closed, and beyond twice as many Node closes new connections at once;
 * - request bodies held at once (read, or running in their handler) stay within `bodyBytesInFlight`: a body that
 *   does not fit is a 503 with Retry-After, unread, and its bytes are given back when its request is answered.
 * `stop()` stops accepting, lets the requests in flight finish, and closes the connections; closing the database
 * pools is the caller's.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { OverloadedError, TooLargeError } from '../errors';
import type { Handler } from '../http/create-handler';
import { errorResult, type HttpResponse } from '../http/to-result';
import { observeRequest } from '../observe/observe-request';
import { type FunctionName, routeRowOf } from '../routes';
import { createByteBudget, holdFor, type RequestBytes } from './byte-budget';
import { limitConnections } from './connection-limit';
import { readBody } from './read-body';
import { toHttpRequest } from './to-http-request';

/** Longer than the usual load balancers' idle timeout (60 s), so the server never closes a connection they reuse. */
const KEEP_ALIVE_MS = 65_000;
/** How often Node looks for requests past their timeouts: a slow client is cut at most this late. */
const TIMEOUT_CHECK_MS = 1_000;
/** What a 503 asks the client to wait, in seconds: the limits free up as requests finish. */
const RETRY_AFTER_S = 1;
/**
 * How long the connection of a refused request is drained after its answer, at most: a client still sending its
 * body reads the answer before the connection goes (closed at once, its unread bytes would make the kernel reset
 * the connection, and the client lose the answer), and nothing of what it sends is kept.
 */
const LINGER_MS = 2_000;

export interface ServerLimits {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly maxConnections: number;
  readonly bodyBytesInFlight: number;
}

export interface ServiceServerOptions {
  readonly maxBodyBytes: number;
  readonly limits: ServerLimits;
  readonly functions: Readonly<Record<FunctionName, Handler>>;
  /**
   * Checks the token of a request's Authorization header as the handlers will (throwing their 401), for the
   * routes that need one; resolves at once without sign-in.
   */
  readonly checkToken: (authorization: string | undefined) => Promise<void>;
}

export interface ServiceServer {
  readonly server: Server;
  /** Requests read or running now. */
  inFlight(): number;
  /** Stops accepting, waits for the requests in flight (at most `graceMs`, then cuts the connections). */
  stop(graceMs: number): Promise<void>;
}

/**
 * The body is written as the string it is (no copy into a Buffer). The answer to a HEAD keeps the Content-Length
 * its handler gave it, the GET's, and has no body (Node sends none); so has a 304.
 */
function writeResult(response: ServerResponse, result: HttpResponse, close: boolean): void {
  const headers: Record<string, string> = { ...result.headers };
  // a 304 has no body, and a Content-Length there would have to be the 200's: it goes without
  if (result.statusCode !== 304 && (response.req.method !== 'HEAD' || headers['Content-Length'] === undefined))
    headers['Content-Length'] = String(Buffer.byteLength(result.body));
  if (close) headers.Connection = 'close';
  response.writeHead(result.statusCode, headers);
  response.end(result.body);
}

/** What a request answered before its handler ran (nothing of its body read): the connection then closes. */
class Refusal {
  constructor(readonly error: unknown) {}
}

const tooManyConnections = () =>
  new OverloadedError('Too many connections are open at once; try again in a moment', RETRY_AFTER_S);
const tooManyBytes = () =>
  new OverloadedError('Too many request bodies are being received at once; try again in a moment', RETRY_AFTER_S);
const tooLarge = (limit: number) =>
  new TooLargeError('body_too_large', `The request body is larger than ${limit} bytes; send fewer rows per request`);

/** The request's answer; a Refusal when it was refused before its body was read. */
async function answer(
  request: IncomingMessage,
  options: ServiceServerOptions,
  take: (bytes: number) => boolean,
  continueIfAsked: () => void,
): Promise<HttpResponse | Refusal> {
  const method = request.method ?? 'GET';
  const url = request.url ?? '/';
  const row = routeRowOf(method, url.split('?')[0] ?? '/');
  const route = row.function;
  if (row.signIn) {
    try {
      await options.checkToken(request.headers.authorization);
    } catch (error) {
      return new Refusal(error);
    }
  }
  const read = await readBody(request, options.maxBodyBytes, take, continueIfAsked);
  if (read.kind === 'too-large') return new Refusal(tooLarge(options.maxBodyBytes));
  if (read.kind === 'busy') return new Refusal(tooManyBytes());
  const head = { method, url, headers: request.headers, httpVersion: request.httpVersion };
  return options.functions[route].serveHttp(toHttpRequest(head, read.body), randomUUID());
}

/** A refusal as the handlers answer errors (with its request id), logged and counted like any request. */
function refusalResult(request: IncomingMessage, refusal: Refusal): Promise<HttpResponse> {
  const requestId = randomUUID();
  return observeRequest(requestId, undefined, async () => {
    const result = errorResult(refusal.error, request.headers.accept, requestId);
    const path = (request.url ?? '/').split('?')[0];
    return {
      status: result.statusCode,
      method: request.method,
      path,
      error: refusal.error,
      result: { ...result, headers: { ...result.headers, 'X-Request-Id': requestId } },
    };
  });
}

/**
 * Closes the connection the way a refused request's must be closed: Node closes it once the answer is written
 * (`Connection: close`) by calling destroySoon, replaced here by a half close that reads and drops what the client
 * still sends until it closes too, or LINGER_MS has passed.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    const cut = setTimeout(() => socket.destroy(), LINGER_MS);
    cut.unref();
    socket.once('end', () => {
      clearTimeout(cut);
      socket.destroy();
    });
    socket.once('close', () => clearTimeout(cut));
    socket.resume();
  };
}

/**
 * Answers one request: refused at once on a connection beyond the limit, else through the pipeline (answer); a
 * refused request's connection is closed after its answer, and so is every connection once the server stops.
 */
function respond(
  request: IncomingMessage,
  response: ServerResponse,
  options: ServiceServerOptions,
  held: RequestBytes,
  how: { readonly overflowed: boolean; readonly expectsContinue: boolean; readonly stopping: () => boolean },
): void {
  const continueIfAsked = () => {
    if (how.expectsContinue) response.writeContinue();
  };
  const answered = how.overflowed
    ? Promise.resolve(new Refusal(tooManyConnections()))
    : answer(request, options, (bytes) => held.take(bytes), continueIfAsked);
  answered
    .then(async (result) => {
      // a refused request's body is left unread: closing the connection is the only way not to read it
      if (!(result instanceof Refusal)) return { result };
      lingerOnClose(request.socket);
      return { result: await refusalResult(request, result), close: true };
    })
    .catch((error: unknown) => ({ result: errorResult(error, request.headers.accept) }))
    .then(({ result, close }: { result: HttpResponse; close?: boolean }) =>
      writeResult(response, result, how.stopping() || close === true),
    )
    .catch(() => response.destroy());
}

/**
 * The server, its request handler and its stop: one closure, longer than most, because the handler, `inFlight` and
 * `stop` share the server, the byte budget, the count of requests in flight and whether it is stopping.
 */
export function createServiceServer(options: ServiceServerOptions): ServiceServer {
  const { limits } = options;
  const budget = createByteBudget(limits.bodyBytesInFlight);
  let inFlight = 0;
  let stopping = false;
  const serve = (request: IncomingMessage, response: ServerResponse, expectsContinue = false) => {
    inFlight++;
    const held = holdFor(budget);
    response.once('close', () => {
      inFlight--;
      held.release();
      if (stopping) server.closeIdleConnections();
    });
    const overflowed = overflow.has(request.socket);
    respond(request, response, options, held, { overflowed, expectsContinue, stopping: () => stopping });
  };
  const server = createServer(
    {
      keepAlive: true,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    },
    serve,
  );
  const overflow = limitConnections(server, limits.maxConnections);
  // Expect: 100-continue: the client sends its body only once told to, after its token and size were checked
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => serve(request, response, true));
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  return {
    server,
    inFlight: () => inFlight,
    async stop(graceMs) {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      cut.unref();
      await closed;
      clearTimeout(cut);
    },
  };
}
