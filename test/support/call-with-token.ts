/**
 * A request to the real handlers as a signed-in caller: a token from the test issuer for the given claims.
 */
import type { TestAuth } from './auth';
import { invoke } from './service';

/**
 * A request to the real handlers with a token for `claims` (as a writer), JSON out; a string body is sent as a
 * form, anything else as JSON. `url` is the path with its query string.
 */
export async function callWithToken(
  auth: TestAuth,
  claims: Record<string, unknown>,
  method: string,
  url: string,
  body?: unknown,
) {
  const token = await auth.token({ roles: ['writer'], ...claims });
  const [where, query] = url.split('?');
  const form = typeof body === 'string';
  const reply = await invoke({
    method,
    path: where as string,
    query: query ?? '',
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      ...(body === undefined
        ? {}
        : { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' }),
    },
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
  });
  return { status: reply.status, body: reply.body, json: () => JSON.parse(reply.body) as Record<string, unknown> };
}
