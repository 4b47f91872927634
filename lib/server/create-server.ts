/**
 * The server mode's node:http server: each request is read (within MAX_BODY_BYTES), turned into the HTTP API v2
 * event API Gateway would send (to-event.ts), routed as serverless.yml routes it (route-request.ts) to the very
 * handler Lambda runs, and its result written back. Connections are kept alive and many requests run at once
 * (the database pools bound the queries: DB_POOL_SIZE, 5 per database outside Lambda). `stop()` stops accepting,
 * lets the requests in flight finish, and closes the connections; closing the database pools is the caller's.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { TooLargeError } from '../errors';
import type { Handler } from '../http/create-handler';
import { errorResult } from '../http/to-result';
import { readBody } from './read-body';
import { type FunctionName, routeRequest } from './route-request';
import { toEvent } from './to-event';

/** Longer than the usual load balancers' idle timeout (60 s), so the server never closes a connection they reuse. */
const KEEP_ALIVE_MS = 65_000;

export interface ServiceServerOptions {
  readonly maxBodyBytes: number;
  readonly functions: Readonly<Record<FunctionName, Handler>>;
}

export interface ServiceServer {
  readonly server: Server;
  /** Requests read or running now. */
  inFlight(): number;
  /** Stops accepting, waits for the requests in flight (at most `graceMs`, then cuts the connections). */
  stop(graceMs: number): Promise<void>;
}

/** A text body is written as the string it is (no copy into a Buffer), a base64 one as its bytes. */
function writeResult(response: ServerResponse, result: APIGatewayProxyResult, close: boolean): void {
  const body = result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? '');
  const headers: Record<string, string | string[]> = {};
  for (const name in result.headers) headers[name] = String(result.headers[name]);
  for (const name in result.multiValueHeaders) headers[name] = (result.multiValueHeaders[name] ?? []).map(String);
  headers['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  if (close) headers.Connection = 'close';
  response.writeHead(result.statusCode, headers);
  response.end(body);
}

/** The handlers' own 413 (body_too_large), answered before the body is read; the connection then closes. */
function tooLarge(request: IncomingMessage, limit: number): APIGatewayProxyResult {
  const requestId = randomUUID();
  const error = new TooLargeError(
    'body_too_large',
    `The request body is larger than ${limit} bytes; send fewer rows per request`,
  );
  const result = errorResult(error, request.headers.accept, requestId);
  return { ...result, headers: { ...result.headers, 'X-Request-Id': requestId } };
}

async function answer(request: IncomingMessage, options: ServiceServerOptions): Promise<APIGatewayProxyResult> {
  const read = await readBody(request, options.maxBodyBytes);
  if (read.kind === 'too-large') return tooLarge(request, options.maxBodyBytes);
  const event = toEvent(
    {
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: request.headers,
      httpVersion: request.httpVersion,
      remoteAddress: request.socket.remoteAddress,
    },
    read.body,
  );
  return options.functions[routeRequest(event.requestContext.http.method, event.rawPath)](event);
}

export function createServiceServer(options: ServiceServerOptions): ServiceServer {
  let inFlight = 0;
  let stopping = false;
  const serve = (request: IncomingMessage, response: ServerResponse) => {
    inFlight++;
    response.once('close', () => {
      inFlight--;
      if (stopping) server.closeIdleConnections();
    });
    answer(request, options)
      .catch((error: unknown) => errorResult(error, request.headers.accept))
      // a body over the limit is left unread: closing the connection is the only way not to read it
      .then((result) => writeResult(response, result, stopping || result.statusCode === 413))
      .catch(() => response.destroy());
  };
  const server = createServer({ keepAlive: true }, serve);
  // Expect: 100-continue: a body over the limit is refused before the client sends it
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (!(Number(request.headers['content-length']) > options.maxBodyBytes)) response.writeContinue();
    serve(request, response);
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
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
