/**
 * Renders a compiled statement with its values in place, for error messages only (D20: `message :: SQL`).
 * Never used to build SQL that runs. Placeholders inside quoted text ('...', "...", `...`) are left alone.
 * Pure.
 */
import type { Dialect } from '../resource';
import type { CompiledQuery, Param } from './types';

function literal(value: Param | undefined): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Uint8Array) return `X'${Buffer.from(value).toString('hex')}'`;
  return `'${value.replace(/'/g, "''")}'`;
}

/** Quoted runs (a doubled quote stays inside) or one placeholder. */
const tokens = /('(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`)|(\$\d+|\?)/g;

export function inlineParams(dialect: Dialect, query: CompiledQuery): string {
  let next = 0;
  return query.text.replace(tokens, (match, quoted: string | undefined, placeholder: string | undefined) => {
    if (quoted !== undefined || placeholder === undefined) return match;
    if (dialect === 'postgres')
      return placeholder.startsWith('$') ? literal(query.params[Number(placeholder.slice(1)) - 1]) : match;
    return placeholder === '?' ? literal(query.params[next++]) : match;
  });
}
