/**
 * The leading-backslash escape that query strings and form bodies share: `\` before one of `! < > ( \`, or
 * the whole value `\null`, loses that backslash, so a client escapes a value the same way in both. Pure.
 */

/** Characters a leading backslash may escape; `\null` is handled as a whole value. */
const ESCAPABLE = new Set(['!', '<', '>', '(', '\\']);

/** The value without its escaping backslash, or undefined when the value is not escaped. */
export function unescapeLeading(value: string): string | undefined {
  if (value === '\\null' || (value.startsWith('\\') && ESCAPABLE.has(value.charAt(1)))) return value.slice(1);
  return undefined;
}

/** The value as a client writes it so that it is taken literally: the inverse of unescapeLeading. */
export function escapeLeading(value: string): string {
  return value === 'null' || ESCAPABLE.has(value.charAt(0)) ? `\\${value}` : value;
}
