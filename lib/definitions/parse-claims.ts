/**
 * Finds the claim placeholders (`{{claim:NAME}}`) of a definition's query and splits the query at them, so that a
 * caller's claim values can be bound as parameters in their place. A placeholder stands for one whole value, so one
 * inside quotes (a string or a quoted name) is a DefinitionError; one inside a comment is left alone. A query
 * without `{{` is not touched. Pure: no IO.
 */
import { DefinitionError } from '../errors';
import type { ClaimQuery, Dialect } from '../resource';

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
  const quote = query[i] as string;
  const dollar = dialect === 'postgres' && quote === '$' ? /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(query.slice(i)) : null;
  if (dollar) return closeQuoted(file, query, i, dollar[0], query.indexOf(dollar[0], i + dollar[0].length));
  if (quote !== "'" && quote !== '"' && !(quote === '`' && dialect === 'mysql')) return undefined;
  // MySQL strings, and PostgreSQL's E'...' strings, take backslash escapes
  const backslash =
    quote !== '`' && (dialect === 'mysql' || (quote === "'" && /(^|[^A-Za-z0-9_$])[eE]$/.test(query.slice(0, i))));
  return closeQuoted(file, query, i, quote, closingQuote(query, i, quote, backslash));
}

/** Where the quote opened at `i` closes (-1: never): a doubled quote, or one after a backslash, does not. */
function closingQuote(query: string, i: number, quote: string, backslash: boolean): number {
  let j = i + 1;
  while (j < query.length) {
    const c = query[j];
    if (backslash && c === '\\') j += 2;
    else if (c === quote && query[j + 1] === quote) j += 2;
    else if (c === quote) return j;
    else j += 1;
  }
  return -1;
}

/** The index after a quoted text that opened at `i` with `open` and closes at `close` (-1: never). */
function closeQuoted(file: string, query: string, i: number, open: string, close: number): number {
  const end = close < 0 ? query.length : close + (open.length > 1 ? open.length : 1);
  const inner = query.slice(i + open.length, close < 0 ? query.length : close);
  const found = /\{\{claim:[^}]*\}\}/.exec(inner);
  if (found) {
    throw new DefinitionError(
      file,
      `the claim placeholder ${found[0]} stands inside quotes (${query.slice(i, end)}); write it without quotes, as in owner = ${found[0]}: the claim's value is bound as one whole value, never put into the text`,
    );
  }
  return end;
}

/** Past a comment that starts at `i`: `-- ...` (MySQL: followed by a space), MySQL's `# ...`, or `/* ... *\/`. */
function skipComment(query: string, i: number, dialect: Dialect): number | undefined {
  const rest = query.slice(i, i + 3);
  const line =
    (rest.startsWith('--') && (dialect === 'postgres' || /^--(\s|$)/.test(rest))) ||
    (dialect === 'mysql' && rest.startsWith('#'));
  if (line) {
    const end = query.indexOf('\n', i);
    return end < 0 ? query.length : end + 1;
  }
  if (!rest.startsWith('/*')) return undefined;
  const end = query.indexOf('*/', i + 2);
  return end < 0 ? query.length : end + 2;
}

function malformed(file: string, query: string, i: number): DefinitionError {
  const text = /^\{\{[^}]*\}{0,2}/.exec(query.slice(i))?.[0] ?? '{{';
  return new DefinitionError(
    file,
    `the query has ${text}, which is not a claim placeholder: write {{claim:NAME}}, NAME made of letters, digits, _, -, : and . (a dot between two names)`,
  );
}
