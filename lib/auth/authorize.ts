/**
 * Privileges: may this caller use this privilege on this resource? A rule grants it when it names the resource
 * (or `*`), the privilege (or `*`), and one of the caller's roles. A service without sign-in checks nothing;
 * with sign-in but no privileges file, nothing is granted. Pure: the file is read by privileges-store.ts.
 */
import { ForbiddenError } from '../errors';
import type { Caller, Privilege } from './caller';
import type { Privileges } from './parse-privileges';

function mayUse(caller: Caller, privileges: Privileges | undefined, resource: string, privilege: Privilege): boolean {
  if (!caller.signedIn) return true;
  return (privileges?.rules ?? []).some(
    (rule) =>
      (rule.resource === '*' || rule.resource === resource) &&
      (rule.privilege === '*' || rule.privilege === privilege) &&
      rule.roles.some((role) => caller.roles.includes(role)),
  );
}

const allPrivileges: readonly Privilege[] = ['select', 'insert', 'update', 'delete'];

/** The privileges the caller holds on the resource, in file order (all four without sign-in). */
export function privilegesHeld(caller: Caller, privileges: Privileges | undefined, resource: string): Privilege[] {
  return allPrivileges.filter((privilege) => mayUse(caller, privileges, resource, privilege));
}

/** Throws the 403 naming the caller's roles, the privilege and the resource, unless mayUse. */
export function authorize(
  caller: Caller,
  privileges: Privileges | undefined,
  resource: string,
  privilege: Privilege,
): void {
  if (mayUse(caller, privileges, resource, privilege)) return;
  throw new ForbiddenError('forbidden', `${rolesText(caller)} may not ${privilege} ${resource}${why(privileges)}`);
}

/** The 403 of a path that needs a role rather than a privilege (/conf/reload needs the admin role). */
export function requireRole(caller: Caller, role: string, what: string): void {
  if (!caller.signedIn || caller.roles.includes(role)) return;
  throw new ForbiddenError('forbidden', `${rolesText(caller)} may not ${what}: it needs the role ${role}`);
}

function rolesText(caller: Caller): string {
  if (caller.roles.length === 0) return 'A caller without roles';
  return `Roles ${caller.roles.join(', ')}`;
}

function why(privileges: Privileges | undefined): string {
  return privileges ? '' : ' (no privileges file is configured, so nothing is granted: set PRIVILEGES)';
}
