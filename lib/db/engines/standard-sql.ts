/**
 * The SQL shapes that database engines write alike (PostgreSQL writes every one of them): double-quoted names,
 * LIMIT and OFFSET, RETURNING, FOR UPDATE, row values, DEFAULT VALUES. An engine's SQL shape extends it and
 * overrides what its engine writes otherwise, and gives what no two engines share: placeholders, how its driver
 * binds a value, LIKE. Pure.
 */
import type { ResourceTable } from '../../resource';
import type { InsertReadBack, SqlShape } from '../../sql-shape';
import type { Value } from '../../values';

export abstract class StandardSql implements SqlShape {
  readonly insertReturns: boolean = true;
  readonly insertReadBack: InsertReadBack = { kind: 'always', inserts: { returning: true } };
  readonly insertDefaults: string = 'DEFAULT VALUES';
  /** Each engine's own: their column types differ. */
  abstract readonly eventTables: readonly string[];
  /** NULL is above every value in PostgreSQL's order. */
  readonly plainNullsFirst: boolean = false;

  abstract placeholder(position: number): string;
  abstract toParam(value: Value): Value;
  abstract like(target: string, asText: boolean, pattern: string): string;

  /** The driver sends the values apart from the text (the extended protocol's Bind message). */
  sentBytes(statement: { readonly text: string }): number {
    return Buffer.byteLength(statement.text);
  }

  quoteIdentifier(name: string): string {
    return `"${name.replace(/"/g, '""')}"`;
  }

  quoteTable(table: Pick<ResourceTable, 'schema' | 'table'>): string {
    return `${this.quoteIdentifier(table.schema)}.${this.quoteIdentifier(table.table)}`;
  }

  /** A collation that compares texts by their characters lets the placeholder stand as it is. */
  claimValue(placeholder: string, _value: Value): string {
    return placeholder;
  }

  paging(limit?: string, offset?: string): string {
    return `${limit !== undefined ? ` LIMIT ${limit}` : ''}${offset !== undefined ? ` OFFSET ${offset}` : ''}`;
  }

  /** Under READ COMMITTED every statement reads a fresh snapshot, so the query is run as it is. */
  orderTerm(column: string, descending: boolean): string {
    return descending ? `${column} DESC NULLS LAST` : `${column} ASC NULLS FIRST`;
  }

  currentRead(query: string): string {
    return query;
  }

  returning(insert: string): string {
    return `${insert} RETURNING *`;
  }

  lockForUpdate(select: string): string {
    return `${select} FOR UPDATE`;
  }

  keyIn(columns: readonly string[], keys: readonly (readonly string[])[]): string {
    const row = (items: readonly string[]) => (items.length === 1 ? (items[0] as string) : `(${items.join(', ')})`);
    return `${row(columns)} IN (${keys.map(row).join(', ')})`;
  }
}
