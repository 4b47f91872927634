/**
 * A definition's SQL read without parsing it: where a quoted text or a comment starts and ends, by the lexical rules
 * of its engine (the engine record's lexer). Claim placeholders are found outside them (parse-claims), and a query's
 * shape is read from what is left (query-shape). Pure.
 */
import type { Quoted } from '../db/engine';
import { engineNamed } from '../db/engines/registry';
import type { EngineName } from '../resource';

/** The quoted text that starts at `i`, or undefined when none does. */
export function quotedAt(query: string, i: number, engine: EngineName): Quoted | undefined {
  return engineNamed(engine).lexer.quotedAt(query, i);
}

/** Past a comment that starts at `i`, or undefined when none does. */
export function skipComment(query: string, i: number, engine: EngineName): number | undefined {
  return engineNamed(engine).lexer.commentEnd(query, i);
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
