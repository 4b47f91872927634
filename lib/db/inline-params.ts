/**
 * Renders a compiled statement with its values in place, for error messages only (D20: `message :: SQL`).
 * Never used to build SQL that runs. Pure.
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

export function inlineParams(dialect: Dialect, query: CompiledQuery): string {
  if (dialect === 'postgres')
    return query.text.replace(/\$(\d+)/g, (_, n: string) => literal(query.params[Number(n) - 1]));
  let i = 0;
  return query.text.replace(/\?/g, () => literal(query.params[i++]));
}
