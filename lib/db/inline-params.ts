/**
 * Renders a compiled statement with its values in place, for error messages only (`message :: SQL`).
 * Never used to build SQL that runs. Placeholders inside quoted text ('...', "...", `...`) are left alone.
 * Pure.
 */
import type { Value } from '../values';
import type { Statement } from './database';

function literal(value: Value | undefined): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Uint8Array) return `X'${Buffer.from(value).toString('hex')}'`;
  return `'${value.replace(/'/g, "''")}'`;
}

/** Quoted runs (a doubled quote stays inside) or one placeholder. */
const tokens = /('(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`)|(\$\d+|\?)/g;

/** `numbered`: `$1`, `$2`... name their parameter (PostgreSQL); `positional`: each `?` takes the next (MySQL). */
export type PlaceholderStyle = 'numbered' | 'positional';

export function inlineParams(query: Statement, style: PlaceholderStyle): string {
  let next = 0;
  const numbered = style === 'numbered';
  return query.text.replace(tokens, (match, quoted: string | undefined, placeholder: string | undefined) => {
    if (quoted !== undefined || placeholder === undefined) return match;
    if (numbered) return placeholder.startsWith('$') ? literal(query.params[Number(placeholder.slice(1)) - 1]) : match;
    return placeholder === '?' ? literal(query.params[next++]) : match;
  });
}
