/**
 * A client's LIKE value → the pattern the database runs, with `\` as its escape character: `%` and `_` are the
 * wildcards; `\%`, `\_` and `\\` are a literal `%`, `_` and `\`; any other backslash, a trailing one included,
 * is a literal backslash. So every value is a valid pattern on both databases: none can end in a bare escape
 * character, which PostgreSQL refuses as a syntax error. A text is also escaped whole, to match only itself. Pure.
 */
const escapable = new Set(['%', '_', '\\']);

export function likePattern(value: string): string {
  let pattern = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charAt(i);
    if (c !== '\\') pattern += c;
    else if (escapable.has(value.charAt(i + 1))) pattern += `\\${value.charAt(++i)}`;
    else pattern += '\\\\';
  }
  return pattern;
}

/** A text as a LIKE pattern that matches exactly it: every `%`, `_` and `\` escaped. */
export function escapeLike(text: string): string {
  return text.replace(/[%_\\]/g, (c) => `\\${c}`);
}
