/**
 * Binds a caller's claims into a resource's query: each placeholder takes the value of that claim of the caller's
 * token, as a parameter. A claim is matched exactly as its own text: a string is bound as it is and a number as its
 * digits (so the claim 0 is the text `0`, never the number every non-numeric text converts to on MySQL); a boolean
 * only where the query uses the claim as a condition, which takes nothing else (PostgreSQL would read `yes` or `on`
 * as true there, MySQL `1abc` as 1). A `{{claim-prefix:NAME}}` is a LIKE pattern: the claim's text with `%`, `_` and
 * `\` escaped, then `%`. A claim the token lacks, or holds as a value the placeholder cannot use, is a 403
 * claim_missing, so a resource that shows rows per caller never runs without the value it needs. Pure.
 */
import { findClaim } from '../auth/find-claim';
import { ForbiddenError } from '../errors';
import type { ClaimPlaceholder, SqlResource } from '../resource';
import type { Value } from '../values';
import { escapeLike } from './like-pattern';
import type { CallerQuery, Claims } from './plan';

/** The resource's query for this caller; undefined for a query without claims (it runs as written). */
export function planCallerQuery(resource: SqlResource, claims: Claims): CallerQuery | undefined {
  const claimQuery = resource.claimQuery;
  if (!claimQuery) return undefined;
  return {
    parts: claimQuery.parts,
    values: claimQuery.claims.map((placeholder) => claimValue(resource, claims, placeholder)),
  };
}

function claimValue(resource: SqlResource, claims: Claims, { name, use }: ClaimPlaceholder): Value {
  const value = findClaim(claims, name);
  const refuse = (as: string) =>
    new ForbiddenError(
      'claim_missing',
      `Resource ${resource.name} needs the claim ${name} as ${as}, but the caller's token carries ${carried(value)}`,
    );
  if (value === undefined || value === null) {
    throw new ForbiddenError(
      'claim_missing',
      `Resource ${resource.name} needs the claim ${name}, which the caller's token does not carry`,
    );
  }
  const text = textOf(value);
  switch (use) {
    case 'condition':
      if (typeof value !== 'boolean') throw refuse('true or false');
      return value;
    case 'prefix':
      if (text === undefined || text === '') throw refuse('a text that is not empty');
      return `${escapeLike(text)}%`;
    case 'value':
      if (typeof value === 'boolean') return value;
      if (text === undefined) throw refuse('one string, number or boolean');
      return text;
  }
}

/** A string as it is, a finite number as its digits; undefined for anything else. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

function carried(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return value === '' ? 'an empty text' : 'a text';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number that is not finite';
  return `a ${typeof value}`;
}
