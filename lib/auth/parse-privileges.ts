/**
 * Reads a privileges file in restSQL's format: one rule a line, `{resource|*}.{select|insert|update|delete|*}=
 * {role},{role}...`, `#` or `!` comment lines, blank lines. Resource names may hold dots (`bookstore.Author`):
 * the privilege is the last segment. A line that is not a rule fails the whole file, naming the file and the line:
 * a malformed file never grants anything. Pure.
 */
import { ServiceError } from '../errors';
import type { Privilege } from './caller';

export interface PrivilegeRule {
  /** A resource name, or `*` for every resource. */
  readonly resource: string;
  readonly privilege: Privilege | '*';
  readonly roles: readonly string[];
}

export interface Privileges {
  /** The file path or s3:// location it was read from. */
  readonly location: string;
  readonly rules: readonly PrivilegeRule[];
}

const privileges: ReadonlySet<string> = new Set(['select', 'insert', 'update', 'delete', '*']);

/** 500: the privileges file is missing, unreadable or malformed; every request answers it until it is fixed. */
export class PrivilegesError extends ServiceError {
  constructor(message: string, cause?: unknown) {
    super(500, 'privileges_invalid', message, { cause });
  }
}

export function parsePrivileges(text: string, location: string): Privileges {
  const rules: PrivilegeRule[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) return;
    const problem = (what: string) => new PrivilegesError(`Privileges file ${location}, line ${index + 1}: ${what}`);
    rules.push(parseRule(line, problem));
  });
  return { location, rules };
}

function parseRule(line: string, problem: (what: string) => PrivilegesError): PrivilegeRule {
  const equals = line.indexOf('=');
  if (equals < 0) throw problem('expected {resource}.{privilege}={role},{role}...');
  const key = line.slice(0, equals).trim();
  const dot = key.lastIndexOf('.');
  const resource = key.slice(0, dot);
  const privilege = key.slice(dot + 1);
  if (dot <= 0) throw problem(`"${key}" names no privilege; expected {resource}.{select|insert|update|delete|*}`);
  if (!privileges.has(privilege))
    throw problem(`"${key}": the privilege must be select, insert, update, delete or *, not "${privilege}"`);
  const roles = line
    .slice(equals + 1)
    .split(',')
    .map((role) => role.trim())
    .filter((role) => role !== '');
  if (roles.length === 0) throw problem(`"${key}" grants no role`);
  return { resource, privilege: privilege as Privilege | '*', roles };
}
