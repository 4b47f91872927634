/**
 * What engines' claim lexers share: a quoted text that closes at its quote (not at a doubled one, nor, where the
 * engine takes backslash escapes, at one after a backslash), a line comment, a block comment. Pure.
 */
import type { Quoted } from '../engine';

/** The quoted text opened by `open` at some index and closed at `close` (-1: never). */
export function closedAt(query: string, open: string, close: number): Quoted {
  return { open, close, end: close < 0 ? query.length : close + open.length };
}

/** The text quoted by `quote` at `i`; `backslash`: a quote after a backslash does not close it. */
export function quotedText(query: string, i: number, quote: string, backslash: boolean): Quoted {
  let j = i + 1;
  while (j < query.length) {
    const c = query[j];
    if (backslash && c === '\\') j += 2;
    else if (c === quote && query[j + 1] === quote) j += 2;
    else if (c === quote) return closedAt(query, quote, j);
    else j += 1;
  }
  return closedAt(query, quote, -1);
}

/** Past the line comment that starts at `i`: its line, with the line's end. */
export function lineCommentEnd(query: string, i: number): number {
  const end = query.indexOf('\n', i);
  return end < 0 ? query.length : end + 1;
}

/** Past a `/* ... *\/` comment that starts at `i`, or undefined when none does. */
export function blockCommentEnd(query: string, i: number): number | undefined {
  if (!query.startsWith('/*', i)) return undefined;
  const end = query.indexOf('*/', i + 2);
  return end < 0 ? query.length : end + 2;
}
