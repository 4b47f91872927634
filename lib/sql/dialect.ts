/**
 * What differs between PostgreSQL and MySQL in the SQL we write: identifier quoting, placeholders, LIKE on
 * non-text values, paging. Everything else is shared by the compilers. Pure.
 */
import type { CompiledQuery, Param } from '../db/types';
import type { Dialect, ResourceTable } from '../resource';

export function quoteIdentifier(dialect: Dialect, name: string): string {
  return dialect === 'postgres' ? `"${name.replace(/"/g, '""')}"` : `\`${name.replace(/`/g, '``')}\``;
}

export function quoteTable(dialect: Dialect, table: Pick<ResourceTable, 'schema' | 'table'>): string {
  return `${quoteIdentifier(dialect, table.schema)}.${quoteIdentifier(dialect, table.table)}`;
}

/** Collects parameters while a statement is written; `add` returns the placeholder for the value. */
export class ParamList {
  readonly values: Param[] = [];
  constructor(private readonly dialect: Dialect) {}

  add(value: Param): string {
    this.values.push(value);
    return this.dialect === 'postgres' ? `$${this.values.length}` : '?';
  }

  compile(text: string): CompiledQuery {
    return { text, params: this.values };
  }
}

/** A LIKE pattern with `\` as its escape character (D6: `\%` and `\_` are literal). */
export function likeExpression(dialect: Dialect, target: string, asText: boolean, placeholder: string): string {
  if (dialect === 'postgres') return `${asText ? `CAST(${target} AS text)` : target} LIKE ${placeholder} ESCAPE '\\'`;
  // MySQL's default LIKE escape character is already the backslash, and it compares numbers as text
  return `${target} LIKE ${placeholder}`;
}

export function pagingClause(dialect: Dialect, params: ParamList, limit?: number, offset?: number): string {
  if (limit === undefined && offset === undefined) return '';
  if (dialect === 'postgres') {
    return [
      limit !== undefined ? ` LIMIT ${params.add(limit)}` : '',
      offset !== undefined ? ` OFFSET ${params.add(offset)}` : '',
    ].join('');
  }
  // MySQL has no OFFSET without LIMIT: the largest LIMIT stands for "all"
  const limitText = limit !== undefined ? params.add(limit) : '18446744073709551615';
  return offset !== undefined ? ` LIMIT ${limitText} OFFSET ${params.add(offset)}` : ` LIMIT ${limitText}`;
}

/** `col = $1 AND col2 = $2` for one key, or `(a, b) IN ((..), (..))` / `a IN (..)` for several. */
export function keyCondition(
  dialect: Dialect,
  params: ParamList,
  columns: readonly string[],
  keys: readonly (readonly Param[])[],
): string {
  const cols = columns.map((c) => quoteIdentifier(dialect, c));
  if (keys.length === 1) {
    const key = keys[0] as readonly Param[];
    return cols.map((c, i) => `${c} = ${params.add(key[i] ?? null)}`).join(' AND ');
  }
  const tuple = (key: readonly Param[]) => {
    const items = columns.map((_, i) => params.add(key[i] ?? null));
    return cols.length === 1 ? (items[0] as string) : `(${items.join(', ')})`;
  };
  const left = cols.length === 1 ? (cols[0] as string) : `(${cols.join(', ')})`;
  return `${left} IN (${keys.map(tuple).join(', ')})`;
}

/**
 * `((a = $1 AND b IS NULL) OR (...))`: rows equal to one of `rows` in every column, NULL matching NULL. Finds rows
 * by value when there is no key to find them by (D18).
 */
export function valuesCondition(
  dialect: Dialect,
  params: ParamList,
  columns: readonly string[],
  rows: readonly (readonly Param[])[],
): string {
  const cols = columns.map((c) => quoteIdentifier(dialect, c));
  const one = (row: readonly Param[]) =>
    cols
      .map((c, i) => {
        const value = row[i] ?? null;
        return value === null ? `${c} IS NULL` : `${c} = ${params.add(value)}`;
      })
      .join(' AND ');
  return rows.length === 1 ? one(rows[0] as readonly Param[]) : `(${rows.map((r) => `(${one(r)})`).join(' OR ')})`;
}
