/**
 * The lexical rules of a definition's SQL that the service needs without parsing it: where a quoted text (a string,
 * a quoted name, PostgreSQL's dollar quoting) or a comment starts and ends, per engine. Claim placeholders are
 * found outside them (parse-claims), and a query's shape is read from what is left (query-shape). Pure.
 */
import type { EngineName } from '../resource';

/** A quoted text that opens at some index: its opening delimiter, and where it closes (-1: never). */
export interface Quoted {
  readonly open: string;
  readonly close: number;
  /** The index after the quoted text (the query's length when it never closes). */
  readonly end: number;
}

/** The quoted text that starts at `i`, or undefined when none does. */
export function quotedAt(query: string, i: number, engine: EngineName): Quoted | undefined {
  const quote = query[i] as string;
  const dollar = engine === 'postgres' && quote === '$' ? /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(query.slice(i)) : null;
  if (dollar) return closed(query, dollar[0], query.indexOf(dollar[0], i + dollar[0].length));
  if (quote !== "'" && quote !== '"' && !(quote === '`' && engine === 'mysql')) return undefined;
  // MySQL strings, and PostgreSQL's E'...' strings, take backslash escapes
  const backslash =
    quote !== '`' && (engine === 'mysql' || (quote === "'" && /(^|[^A-Za-z0-9_$])[eE]$/.test(query.slice(0, i))));
  return closed(query, quote, closingQuote(query, i, quote, backslash));
}

function closed(query: string, open: string, close: number): Quoted {
  return { open, close, end: close < 0 ? query.length : close + open.length };
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

/** Past a comment that starts at `i`: `-- ...` (MySQL: followed by a space), MySQL's `# ...`, or `/* ... *\/`. */
export function skipComment(query: string, i: number, engine: EngineName): number | undefined {
  const rest = query.slice(i, i + 3);
  const line =
    (rest.startsWith('--') && (engine === 'postgres' || /^--(\s|$)/.test(rest))) ||
    (engine === 'mysql' && rest.startsWith('#'));
  if (line) {
    const end = query.indexOf('\n', i);
    return end < 0 ? query.length : end + 1;
  }
  if (!rest.startsWith('/*')) return undefined;
  const end = query.indexOf('*/', i + 2);
  return end < 0 ? query.length : end + 2;
}

/** A word, a symbol or a whole quoted text of a query, outside comments. */
export interface SqlToken {
  readonly text: string;
  /** Parentheses around it: 0 for the query's own clauses. */
  readonly depth: number;
  readonly quoted: boolean;
}

/** The query's words, symbols and quoted texts, with their depth in parentheses; comments and spaces dropped. */
export function sqlTokens(query: string, engine: EngineName): SqlToken[] {
  const out: SqlToken[] = [];
  let depth = 0;
  let i = 0;
  while (i < query.length) {
    const comment = skipComment(query, i, engine);
    if (comment !== undefined) {
      i = comment;
      continue;
    }
    const quoted = quotedAt(query, i, engine);
    if (quoted) {
      out.push({ text: query.slice(i, quoted.end), depth, quoted: true });
      i = quoted.end;
      continue;
    }
    const c = query[i] as string;
    if (c === ')') depth -= 1;
    const word = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(query.slice(i, i + 128))?.[0];
    if (!/\s/.test(c)) out.push({ text: word ?? c, depth, quoted: false });
    if (c === '(') depth += 1;
    i += word?.length ?? 1;
  }
  return out;
}
