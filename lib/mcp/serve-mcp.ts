/**
 * `POST /mcp`: MCP's streamable HTTP transport, stateless (no session: any container or process answers any
 * request), each answer one JSON message, never a stream left open (Lambda answers once). GET and DELETE, which
 * only sessions and server-sent streams need, are a 405. `GET /.well-known/oauth-protected-resource` is the RFC 9728
 * metadata that an MCP client reads, after a 401 pointing to it, to learn which issuer's tokens the endpoint takes.
 * A service without sign-in answers only requests whose Host (and Origin, when sent) is this machine or
 * MCP_ALLOWED_HOSTS, so that a web page cannot reach it through DNS rebinding.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Caller } from '../auth/caller';
import { config } from '../config';
import { ForbiddenError, MethodNotAllowedError, NotFoundError } from '../errors';
import type { HttpRequest } from '../http/from-event';
import type { HttpResponse } from '../http/to-result';
import { pathOf } from '../routes';
import { mcpServerFor, toolResourcesOf } from './mcp-server';

const mcpPath = pathOf('/mcp');
/** RFC 9728's well-known place, at the root and suffixed by the endpoint's path (MCP clients try both). */
const metadataPaths = [
  pathOf('/.well-known/oauth-protected-resource'),
  pathOf('/.well-known/oauth-protected-resource/mcp'),
];
const metadataMatch = (path: string) => metadataPaths.map((m) => m.match(path)).find((match) => match !== undefined);

export async function serveMcp(request: HttpRequest, caller: Caller): Promise<HttpResponse> {
  const metadata = metadataMatch(request.path);
  if (metadata) return protectedResourceMetadata(request, metadata.prefix);
  if (!mcpPath.match(request.path))
    throw new NotFoundError('path_not_found', `No such path: ${request.path}; see /mcp`);
  if (!caller.signedIn) checkLocalHost(request.headers);
  if (request.method !== 'POST')
    // this endpoint keeps no session and opens no event stream: each message is POSTed
    throw new MethodNotAllowedError(request.method, ['POST']);
  const server = mcpServerFor(caller, await toolResourcesOf(caller));
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const answer = await transport.handleRequest(webRequestOf(request));
    return { statusCode: answer.status, headers: Object.fromEntries(answer.headers), body: await answer.text() };
  } finally {
    await server.close();
  }
}

function webRequestOf(request: HttpRequest): Request {
  const host = request.headers.host ?? 'localhost';
  const query = request.rawQuery ? `?${request.rawQuery}` : '';
  return new Request(`http://${host}${request.path}${query}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
}

/** The public base URL of the service as this request reached it: scheme, host and any stage prefix. */
function baseUrlOf(request: HttpRequest, prefix: string): string {
  const host = request.headers.host ?? 'localhost';
  const scheme = request.headers['x-forwarded-proto']?.split(',')[0]?.trim() || (isLocal(host) ? 'http' : 'https');
  return `${scheme}://${host}${prefix}`;
}

/** Only the metadata is open to anyone: it is how a client learns where to get a token. */
export const mcpAsksToken = (request: HttpRequest): boolean => !metadataMatch(request.path);

/** Where this endpoint's protected-resource metadata is, for the 401's WWW-Authenticate (RFC 9728, section 5.1). */
export function protectedResourceUrl(request: HttpRequest): string {
  const prefix = mcpPath.match(request.path)?.prefix ?? '';
  return `${baseUrlOf(request, prefix)}/.well-known/oauth-protected-resource`;
}

/** RFC 9728: the resource (this endpoint) and the authorization server whose tokens it takes. */
function protectedResourceMetadata(request: HttpRequest, prefix: string): HttpResponse {
  const settings = config();
  if (!settings.authIssuer)
    throw new NotFoundError('path_not_found', 'This service runs without sign-in: /mcp takes requests without a token');
  const body = {
    resource: `${baseUrlOf(request, prefix)}/mcp`,
    authorization_servers: [settings.authIssuer],
    bearer_methods_supported: ['header'],
    resource_name: 'Relational Resource Service',
  };
  return {
    statusCode: 200,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=300' },
    body: JSON.stringify(body),
  };
}

const localHosts = ['localhost', '127.0.0.1', '[::1]'];

/** The host name of a Host header or an origin's authority, without the port. */
function hostName(authority: string): string {
  const host = authority.toLowerCase();
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '');
}

function isLocal(authority: string): boolean {
  return localHosts.includes(hostName(authority));
}

function checkLocalHost(headers: Readonly<Record<string, string>>): void {
  const allowed = config().mcpAllowedHosts.map((h) => h.toLowerCase());
  const ok = (authority: string) => isLocal(authority) || allowed.includes(hostName(authority));
  const host = headers.host ?? '';
  if (!ok(host))
    throw new ForbiddenError(
      'forbidden',
      `Host ${host || '(none)'} is not this machine: without sign-in, /mcp answers only localhost or MCP_ALLOWED_HOSTS`,
    );
  const origin = headers.origin;
  if (origin !== undefined && origin !== 'null' && !ok(authorityOf(origin)))
    throw new ForbiddenError(
      'forbidden',
      `Origin ${origin} is not this machine: without sign-in, /mcp answers only localhost or MCP_ALLOWED_HOSTS`,
    );
}

function authorityOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
}
