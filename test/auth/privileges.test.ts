/** Table tests of the privileges file reader, roles from claims, and the privilege check. Pure: no IO. */
import { authorize, privilegesHeld, requireRole } from '../../lib/auth/authorize';
import type { Caller, Privilege } from '../../lib/auth/caller';
import { openCaller } from '../../lib/auth/caller';
import { type Privileges, parsePrivileges } from '../../lib/auth/parse-privileges';
import { rolesOf } from '../../lib/auth/roles-of';
import { ServiceError } from '../../lib/errors';
import { serviceErrorOf } from '../support/resources';

function thrown(action: () => unknown): ServiceError {
  try {
    action();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a ServiceError');
}

describe('parsePrivileges', () => {
  const parsed: { text: string; rules: Privileges['rules'] }[] = [
    { text: '', rules: [] },
    { text: '# only a comment\n! another\n\n   \n', rules: [] },
    { text: 'Book.select=reader', rules: [{ resource: 'Book', privilege: 'select', roles: ['reader'] }] },
    {
      text: 'Book.select = reader , writer,\r\n*.*=admin',
      rules: [
        { resource: 'Book', privilege: 'select', roles: ['reader', 'writer'] },
        { resource: '*', privilege: '*', roles: ['admin'] },
      ],
    },
    {
      text: 'bookstore.Author.delete=owner\n  # indented comment\n*.insert=writer',
      rules: [
        { resource: 'bookstore.Author', privilege: 'delete', roles: ['owner'] },
        { resource: '*', privilege: 'insert', roles: ['writer'] },
      ],
    },
    { text: 'Book.update=a=b', rules: [{ resource: 'Book', privilege: 'update', roles: ['a=b'] }] },
    { text: 'Book.*=x', rules: [{ resource: 'Book', privilege: '*', roles: ['x'] }] },
  ];
  it.each(parsed)('reads $text', ({ text, rules }) => {
    expect(parsePrivileges(text, 'p.properties')).toEqual({ location: 'p.properties', rules });
  });

  const malformed: { text: string; message: string }[] = [
    {
      text: 'Book.select reader',
      message: 'Privileges file p.properties, line 1: expected {resource}.{privilege}={role},{role}...',
    },
    {
      text: '# ok\nBook=reader',
      message:
        'Privileges file p.properties, line 2: "Book" names no privilege; expected {resource}.{select|insert|update|delete|*}',
    },
    {
      text: '.select=reader',
      message:
        'Privileges file p.properties, line 1: ".select" names no privilege; expected {resource}.{select|insert|update|delete|*}',
    },
    {
      text: '\n\nBook.read=reader',
      message:
        'Privileges file p.properties, line 3: "Book.read": the privilege must be select, insert, update, delete or *, not "read"',
    },
    { text: 'Book.select=', message: 'Privileges file p.properties, line 1: "Book.select" grants no role' },
    { text: 'Book.select= , ,', message: 'Privileges file p.properties, line 1: "Book.select" grants no role' },
  ];
  it.each(malformed)('refuses $text as a whole file', ({ text, message }) => {
    const error = thrown(() => parsePrivileges(text, 'p.properties'));
    expect([error.status, error.code, error.message]).toEqual([500, 'privileges_invalid', message]);
  });
});

describe('rolesOf', () => {
  const cases: { claims: Record<string, unknown>; claim: string; roles: string[] }[] = [
    { claims: { roles: ['reader', 'writer'] }, claim: 'roles', roles: ['reader', 'writer'] },
    { claims: { roles: 'reader' }, claim: 'roles', roles: ['reader'] },
    { claims: { roles: [] }, claim: 'roles', roles: [] },
    { claims: {}, claim: 'roles', roles: [] },
    { claims: { roles: 7 }, claim: 'roles', roles: [] },
    { claims: { roles: ['a', 3, null, '', 'b'] }, claim: 'roles', roles: ['a', 'b'] },
    { claims: { 'cognito:groups': ['admins', 'staff'] }, claim: 'cognito:groups', roles: ['admins', 'staff'] },
    { claims: { scope: 'read:books  write:books' }, claim: 'scope', roles: ['read:books', 'write:books'] },
    { claims: { scp: ['a'] }, claim: 'scope', roles: [] },
    { claims: { realm_access: { roles: ['kc-admin'] } }, claim: 'realm_access.roles', roles: ['kc-admin'] },
    { claims: { realm_access: ['x'] }, claim: 'realm_access.roles', roles: [] },
    { claims: { realm_access: null }, claim: 'realm_access.roles', roles: [] },
    {
      claims: { 'https://example.com/roles': ['editor'] },
      claim: 'https://example.com/roles',
      roles: ['editor'],
    },
    { claims: { 'a.b': ['whole'] }, claim: 'a.b', roles: ['whole'] },
    // only an ASCII space separates roles: a no-break space, a tab or an ideographic space is part of one
    { claims: { roles: 'reader\u00a0admin' }, claim: 'roles', roles: ['reader\u00a0admin'] },
    { claims: { roles: 'reader\tadmin' }, claim: 'roles', roles: ['reader\tadmin'] },
    { claims: { roles: 'reader\u3000admin writer' }, claim: 'roles', roles: ['reader\u3000admin', 'writer'] },
    { claims: { roles: ['constructor'] }, claim: 'toString', roles: [] },
  ];
  it.each(cases)('$claim of $claims', ({ claims, claim, roles }) => {
    expect(rolesOf(claims, claim)).toEqual(roles);
  });

  it('a roles claim both by its dotted name and nested is refused, not read either way', () => {
    expect(serviceErrorOf(() => rolesOf({ 'a.b': ['whole'], a: { b: ['admin'] } }, 'a.b'))).toMatchObject({
      status: 403,
      code: 'claim_ambiguous',
    });
  });
});

describe('authorize', () => {
  const privileges = parsePrivileges(
    [
      '*.select=reader,writer',
      '*.insert=writer',
      'Book.update=writer',
      'bookstore.Author.delete=curator',
      'Audit.*=auditor',
      '*.*=admin',
    ].join('\n'),
    'test.properties',
  );
  const caller = (...roles: string[]): Caller => ({ signedIn: true, roles, claims: {} });
  const cases: { roles: string[]; resource: string; privilege: Privilege; allowed: boolean }[] = [
    { roles: ['reader'], resource: 'Book', privilege: 'select', allowed: true },
    { roles: ['reader'], resource: 'Book', privilege: 'insert', allowed: false },
    { roles: ['reader'], resource: 'Book', privilege: 'update', allowed: false },
    { roles: ['reader'], resource: 'Book', privilege: 'delete', allowed: false },
    { roles: ['writer'], resource: 'Book', privilege: 'insert', allowed: true },
    { roles: ['writer'], resource: 'Book', privilege: 'update', allowed: true },
    { roles: ['writer'], resource: 'Publisher', privilege: 'update', allowed: false },
    { roles: ['writer'], resource: 'Book', privilege: 'delete', allowed: false },
    { roles: ['curator'], resource: 'bookstore.Author', privilege: 'delete', allowed: true },
    { roles: ['curator'], resource: 'Author', privilege: 'delete', allowed: false },
    { roles: ['curator'], resource: 'bookstore.Author', privilege: 'select', allowed: false },
    { roles: ['auditor'], resource: 'Audit', privilege: 'delete', allowed: true },
    { roles: ['auditor'], resource: 'Book', privilege: 'select', allowed: false },
    { roles: ['admin'], resource: 'Anything.At.All', privilege: 'delete', allowed: true },
    { roles: ['stranger', 'reader'], resource: 'Book', privilege: 'select', allowed: true },
    { roles: [], resource: 'Book', privilege: 'select', allowed: false },
    { roles: ['READER'], resource: 'Book', privilege: 'select', allowed: false },
    { roles: ['reader'], resource: 'book', privilege: 'select', allowed: true },
  ];
  /** Whether authorize lets the call through: true when it returns, false on its 403; any other error fails. */
  const allows = (roles: string[], resource: string, privilege: Privilege): boolean => {
    try {
      authorize(caller(...roles), privileges, resource, privilege);
      return true;
    } catch (error) {
      if (error instanceof ServiceError && error.status === 403 && error.code === 'forbidden') return false;
      throw error;
    }
  };
  it.each(cases)('$roles $privilege $resource: $allowed', ({ roles, resource, privilege, allowed }) => {
    expect(allows(roles, resource, privilege)).toBe(allowed);
    expect(privilegesHeld(caller(...roles), privileges, resource).includes(privilege)).toBe(allowed);
  });

  it('lets anyone do anything without sign-in, and nothing with sign-in but no privileges file', () => {
    expect(privilegesHeld(openCaller, undefined, 'Book')).toEqual(['select', 'insert', 'update', 'delete']);
    expect(privilegesHeld(caller('admin'), undefined, 'Book')).toEqual([]);
    expect(privilegesHeld(caller('writer'), privileges, 'Book')).toEqual(['select', 'insert', 'update']);
  });

  it('names the roles, the privilege and the resource in the 403', () => {
    const denied = thrown(() => authorize(caller('reader'), privileges, 'Publisher', 'delete'));
    expect([denied.status, denied.code, denied.message]).toEqual([
      403,
      'forbidden',
      'Roles reader may not delete Publisher',
    ]);
    expect(thrown(() => authorize(caller('a', 'b'), privileges, 'X', 'insert')).message).toBe(
      'Roles a, b may not insert X',
    );
    expect(thrown(() => authorize(caller(), privileges, 'X', 'select')).message).toBe(
      'A caller without roles may not select X',
    );
    expect(thrown(() => authorize(caller('admin'), undefined, 'X', 'select')).message).toBe(
      'Roles admin may not select X (no privileges file is configured, so nothing is granted: set PRIVILEGES)',
    );
    expect(() => authorize(caller('reader'), privileges, 'Publisher', 'select')).not.toThrow();
  });

  it('gates by role where no resource applies', () => {
    expect(() => requireRole(caller('admin'), 'admin', 'reload the definitions')).not.toThrow();
    expect(() => requireRole(openCaller, 'admin', 'reload the definitions')).not.toThrow();
    expect(thrown(() => requireRole(caller('writer'), 'admin', 'reload the definitions')).message).toBe(
      'Roles writer may not reload the definitions: it needs the role admin',
    );
  });
});
