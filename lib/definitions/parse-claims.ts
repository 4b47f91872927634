/**
 * Finds the claim placeholders (`{{claim:NAME}}`) of a definition's query and splits the query at them, so that a
 * caller's claim values can be bound as parameters in their place. A placeholder stands for one whole value, so one
 * inside quotes (a string or a quoted name) is a DefinitionError; one inside a comment is left alone. A query
 * without `{{` is not touched. Pure: no IO.
 */
import { DefinitionError } from '../errors';
import type { ClaimQuery, Dialect } from '../resource';
import { quotedAt, skipComment } from './sql-lexer';

/** `{{claim:NAME}}`: NAME of letters, digits, `_`, `-`, `:` and `.`, with no empty dot-separated part. */
const placeholder = /^\{\{claim:([A-Za-z0-9_:-]+(?:\.[A-Za-z0-9_:-]+)*)\}\}/;

/** The query split at its claim placeholders; undefined when it has none. */
export function parseClaims(file: string, query: string, dialect: Dialect): ClaimQuery | undefined {
  if (!query.includes('{{')) return undefined;
  const parts: string[] = [];
  const claims: string[] = [];
  let start = 0;
  let i = 0;
  while (i < query.length) {
    const skipped = skipQuoted(file, query, i, dialect) ?? skipComment(query, i, dialect);
    if (skipped !== undefined) {
      i = skipped;
      continue;
    }
    if (query.startsWith('{{', i)) {
      const match = placeholder.exec(query.slice(i));
      if (!match) throw malformed(file, query, i);
      parts.push(query.slice(start, i));
      claims.push(match[1] as string);
      i += match[0].length;
      start = i;
      continue;
    }
    i += 1;
  }
  if (claims.length === 0) return undefined;
  parts.push(query.slice(start));
  return { parts, claims };
}

/** The query the catalog probe runs: NULL in place of every claim, so it needs no caller and returns no row. */
export function probeQuery(claimQuery: ClaimQuery): string {
  return claimQuery.parts.join('NULL');
}

/** Past a quoted string or name that starts at `i`; a placeholder inside it is an error. */
function skipQuoted(file: string, query: string, i: number, dialect: Dialect): number | undefined {
  const quoted = quotedAt(query, i, dialect);
  if (!quoted) return undefined;
  const inner = query.slice(i + quoted.open.length, quoted.close < 0 ? query.length : quoted.close);
  const found = /\{\{claim:[^}]*\}\}/.exec(inner);
  if (found) {
    throw new DefinitionError(
      file,
      `the claim placeholder ${found[0]} stands inside quotes (${query.slice(i, quoted.end)}); write it without quotes, as in owner = ${found[0]}: the claim's value is bound as one whole value, never put into the text`,
    );
  }
  return quoted.end;
}

function malformed(file: string, query: string, i: number): DefinitionError {
  const text = /^\{\{[^}]*\}{0,2}/.exec(query.slice(i))?.[0] ?? '{{';
  return new DefinitionError(
    file,
    `the query has ${text}, which is not a claim placeholder: write {{claim:NAME}}, NAME made of letters, digits, _, -, : and . (a dot between two names)`,
  );
}
