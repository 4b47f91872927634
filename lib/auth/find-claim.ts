/**
 * A claim of a verified token by its name: the claim of exactly that name (`cognito:username`, Auth0's
 * `https://example.com/roles`, or a name holding dots), or, for a dotted name, the path into nested claims
 * (`org.id` is `{"org":{"id":7}}`, Keycloak's `realm_access.roles`). A token that holds both is ambiguous: neither
 * is used, and the request is refused. Pure.
 */
import { ForbiddenError } from '../errors';

export function findClaim(claims: Readonly<Record<string, unknown>>, name: string): unknown {
  const flat = Object.hasOwn(claims, name) ? claims[name] : undefined;
  const nested = name.includes('.') ? pathValue(claims, name.split('.')) : undefined;
  if (flat !== undefined && nested !== undefined) {
    throw new ForbiddenError(
      'claim_ambiguous',
      `The caller's token carries the claim ${name} twice, by that name and nested (${name.split('.').join(' → ')}), so neither is used`,
    );
  }
  return flat ?? nested;
}

function pathValue(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const step of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, step))
      return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}
