/**
 * The caller's roles, read from the claim AUTH_ROLES_CLAIM names. Pure. The claim is looked up by its whole
 * name first (`cognito:groups`, Auth0's `https://example.com/roles`), then as a dotted path into nested objects
 * (Keycloak's `realm_access.roles`). An array gives its strings; a string is split at spaces, as OAuth's `scope`.
 */

export function rolesOf(claims: Readonly<Record<string, unknown>>, claim: string): string[] {
  const value = claim in claims ? claims[claim] : pathValue(claims, claim.split('.'));
  if (typeof value === 'string') return value.split(/\s+/).filter((role) => role !== '');
  if (Array.isArray(value)) return value.filter((role): role is string => typeof role === 'string' && role !== '');
  return [];
}

function pathValue(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const step of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}
