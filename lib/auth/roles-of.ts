/**
 * The caller's roles, read from the claim AUTH_ROLES_CLAIM names (by its whole name, or as a dotted path into nested
 * objects: find-claim). Pure. An array gives its strings; a string is split at ASCII spaces (U+0020), as OAuth's
 * `scope`: no other character separates roles, so `reader\u00a0admin` is one role, not `admin`.
 */
import { findClaim } from './find-claim';

export function rolesOf(claims: Readonly<Record<string, unknown>>, claim: string): string[] {
  const value = findClaim(claims, claim);
  if (typeof value === 'string') return value.split(' ').filter((role) => role !== '');
  if (Array.isArray(value)) return value.filter((role): role is string => typeof role === 'string' && role !== '');
  return [];
}
