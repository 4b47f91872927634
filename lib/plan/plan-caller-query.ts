/**
 * Binds a caller's claims into a resource's query: each `{{claim:NAME}}` placeholder takes the value of that claim
 * of the caller's token, as a parameter. A claim the token lacks (or that is null, a list or an object) is a 403
 * claim_missing, so a resource that shows rows per caller never runs without the value it needs. Pure.
 */
import { ForbiddenError } from '../errors';
import type { SqlResource } from '../resource';
import type { Value } from '../values';
import type { CallerQuery, Claims } from './plan';

/** The resource's query for this caller; undefined for a query without claims (it runs as written). */
export function planCallerQuery(resource: SqlResource, claims: Claims): CallerQuery | undefined {
  const claimQuery = resource.claimQuery;
  if (!claimQuery) return undefined;
  return { parts: claimQuery.parts, values: claimQuery.claims.map((name) => claimValue(resource, claims, name)) };
}

/**
 * A claim by its name: the claim of exactly that name (`cognito:username`, or a name holding dots), else, for a
 * dotted name, the path into nested claims (`org.id` is `{"org":{"id":7}}`).
 */
export function findClaim(claims: Claims, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name];
  let value: unknown = claims;
  for (const step of name.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, step))
      return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

function claimValue(resource: SqlResource, claims: Claims, name: string): Value {
  const value = findClaim(claims, name);
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (value === undefined || value === null) {
    throw new ForbiddenError(
      'claim_missing',
      `Resource ${resource.name} needs the claim ${name}, which the caller's token does not carry`,
    );
  }
  throw new ForbiddenError(
    'claim_missing',
    `Resource ${resource.name} needs the claim ${name} as one string, number or boolean, but the caller's token carries ${Array.isArray(value) ? 'a list' : 'an object'}`,
  );
}
