/**
 * The privileges file `npm run generate` writes beside the definitions: every generated resource with the rules a
 * team usually starts from, all commented out, so that the file grants nothing until someone removes a `#`. A
 * resource over a table without a primary key gets a select rule only. Pure.
 */
import type { GeneratedResource } from './generated-resource';

export const privilegesFile = 'privileges.properties';

export function privilegesStub(resources: readonly GeneratedResource[]): string {
  const rules = resources.flatMap((r) =>
    r.readOnly
      ? [`# ${r.name} is read only (its table has no primary key)`, `#${r.name}.select=reader,writer`]
      : [`#${r.name}.select=reader,writer`, `#${r.name}.*=writer`],
  );
  return [
    "# Who may do what with the generated resources, in restSQL's format:",
    '# {resource|*}.{select|insert|update|delete|*}={role},{role}...',
    '# The service reads this file when sign-in is on and PRIVILEGES names it; a request is then allowed only when',
    "# one of the caller's roles holds the privilege. Every rule below is commented out, so nothing is granted:",
    '# remove the # of the rules you want, and name your own roles.',
    ...rules,
    '',
  ].join('\n');
}
