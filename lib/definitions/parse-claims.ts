/**
 * Finds the claim placeholders of a definition's query and splits the query at them, so that a caller's claim values
 * can be bound as parameters in their place: `{{claim:NAME}}` (the claim's value) and `{{claim-prefix:NAME}}` (a
 * LIKE pattern matching the texts that start with it). A placeholder stands for one whole value, so one inside
 * quotes (a string or a quoted name) is a DefinitionError; one inside a comment is left alone. A `{{claim:NAME}}`
 * that is a whole condition by itself (between WHERE, AND, OR, NOT, ON or parentheses, or compared with TRUE or
 * FALSE) is used as a boolean, which only a boolean claim may be. A query without `{{` is not touched. Pure: no IO.
 */
import { DefinitionError } from '../errors';
import type { ClaimPlaceholder, ClaimQuery, EngineName } from '../resource';
import { quotedAt, type SqlToken, skipComment, sqlTokens } from './sql-lexer';

/** `{{claim:NAME}}` or `{{claim-prefix:NAME}}`: NAME of letters, digits, `_`, `-`, `:` and `.`, no empty part. */
const placeholder = /^\{\{claim(-prefix)?:([A-Za-z0-9_:-]+(?:\.[A-Za-z0-9_:-]+)*)\}\}/;

/** The query split at its claim placeholders; undefined when it has none. */
export function parseClaims(file: string, query: string, engine: EngineName): ClaimQuery | undefined {
  if (!query.includes('{{')) return undefined;
  const parts: string[] = [];
  const claims: ClaimPlaceholder[] = [];
  let start = 0;
  let i = 0;
  while (i < query.length) {
    const skipped = skipQuoted(file, query, i, engine) ?? skipComment(query, i, engine);
    if (skipped !== undefined) {
      i = skipped;
      continue;
    }
    if (query.startsWith('{{', i)) {
      const match = placeholder.exec(query.slice(i));
      if (!match) throw malformed(file, query, i);
      parts.push(query.slice(start, i));
      const end = i + match[0].length;
      claims.push(placeholderAt(query, i, end, match, engine));
      i = end;
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

/** The placeholder `match` found between `start` and `end`, and how it is used. */
function placeholderAt(
  query: string,
  start: number,
  end: number,
  match: RegExpExecArray,
  engine: EngineName,
): ClaimPlaceholder {
  const name = match[2] as string;
  if (match[1]) return { name, use: 'prefix' };
  return { name, use: isCondition(query.slice(0, start), query.slice(end), engine) ? 'condition' : 'value' };
}

const word = (token: SqlToken | undefined) => (token && !token.quoted ? token.text.toLowerCase() : undefined);

/** Words after which a condition may begin. */
const opensCondition = new Set(['where', 'and', 'or', 'not', 'on', 'having', 'when']);
/** Words before which a condition may end. */
const closesCondition = new Set([
  'and',
  'or',
  'then',
  'group',
  'order',
  'union',
  'intersect',
  'except',
  'limit',
  'window',
]);
const booleans = new Set(['true', 'false', 'unknown']);

/** Whether the placeholder between `before` and `after` stands as a condition, or is compared with TRUE or FALSE. */
function isCondition(before: string, after: string, engine: EngineName): boolean {
  const left = sqlTokens(before, engine);
  const right = sqlTokens(after, engine);
  return (opens(left) && closes(right)) || comparedWithBoolean(left, right);
}

function opens(left: readonly SqlToken[]): boolean {
  const previous = left[left.length - 1];
  if (previous === undefined) return true;
  if (previous.text === '(' && !previous.quoted) return opens(left.slice(0, -1));
  const w = word(previous);
  return w !== undefined && opensCondition.has(w) && !(w === 'and' && inBetween(left.slice(0, -1)));
}

function closes(right: readonly SqlToken[]): boolean {
  const next = right[0];
  if (next === undefined || (next.text === ')' && !next.quoted)) return true;
  return closesCondition.has(word(next) ?? '');
}

/** `x BETWEEN a AND` : the AND ends at a BETWEEN of the same expression, not at a condition. */
function inBetween(left: readonly SqlToken[]): boolean {
  const depth = left[left.length - 1]?.depth ?? 0;
  for (let i = left.length - 1; i >= 0; i -= 1) {
    const token = left[i] as SqlToken;
    if (token.depth < depth) return false;
    if (token.depth > depth) continue;
    const w = word(token);
    if (w === 'between') return true;
    if (w !== undefined && opensCondition.has(w)) return false;
  }
  return false;
}

/** `{{claim:x}} = true`, `false <> {{claim:x}}`, `{{claim:x}} is not true`: the claim is compared as a boolean. */
function comparedWithBoolean(left: readonly SqlToken[], right: readonly SqlToken[]): boolean {
  const operator = (token: SqlToken | undefined) =>
    token !== undefined && !token.quoted && ['=', '<', '>', '!', 'is', 'not'].includes(token.text.toLowerCase());
  const after = right.findIndex((token) => !operator(token));
  if (after > 0 && booleans.has(word(right[after]) ?? '')) return true;
  let before = left.length - 1;
  while (before >= 0 && operator(left[before])) before -= 1;
  return before < left.length - 1 && booleans.has(word(left[before]) ?? '');
}

/** Past a quoted string or name that starts at `i`; a placeholder inside it is an error. */
function skipQuoted(file: string, query: string, i: number, engine: EngineName): number | undefined {
  const quoted = quotedAt(query, i, engine);
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
    `the query has ${text}, which is not a claim placeholder: write {{claim:NAME}} (or {{claim-prefix:NAME}}), NAME made of letters, digits, _, -, : and . (a dot between two names)`,
  );
}
