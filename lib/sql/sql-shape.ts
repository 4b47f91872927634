/**
 * What differs between the SQL of PostgreSQL and of MySQL/MariaDB, as one object per database engine, the way
 * kysely's query compilers do it: SqlShape is written for PostgreSQL, and MysqlSqlShape overrides what MySQL does
 * differently. It owns every shape of SQL that is not the same everywhere (RETURNING, the locking clause, row
 * values, how inserted rows are read back); the compilers ask it, and nothing else in the service branches on the
 * database. Pure.
 */
import type { EngineName, ResourceTable } from '../resource';
import type { Row, Value } from '../values';
import type { CompiledQuery } from './compiled-query';
import { readServerInserts, type ServerInserts, serverInsertsQuery } from './server-inserts';

/**
 * How the rows of a multi-row INSERT are read back: the same on every server of the engine (`always`), or as the
 * server answers `query` (asked once per transaction).
 */
export type InsertReadBack =
  | { readonly kind: 'always'; readonly inserts: ServerInserts }
  | { readonly kind: 'ask'; readonly query: CompiledQuery; read(row: Row | undefined): ServerInserts };

export class SqlShape {
  readonly engine: EngineName = 'postgres';
  /** Every server of the engine gives an INSERT's rows back as stored in the same statement (RETURNING). */
  readonly insertReturns: boolean = true;
  readonly insertReadBack: InsertReadBack = { kind: 'always', inserts: { returning: true } };

  quoteIdentifier(name: string): string {
    return `"${name.replace(/"/g, '""')}"`;
  }

  quoteTable(table: Pick<ResourceTable, 'schema' | 'table'>): string {
    return `${this.quoteIdentifier(table.schema)}.${this.quoteIdentifier(table.table)}`;
  }

  /** The placeholder of the `position`-th parameter (1-based). */
  placeholder(position: number): string {
    return `$${position}`;
  }

  /**
   * A plan value as this database's driver binds it. Integers are bigints in the plan: postgres.js sends their
   * digits as text, which PostgreSQL reads in the column's type.
   */
  toParam(value: Value): Value {
    return typeof value === 'bigint' ? value.toString() : value;
  }

  /**
   * A claim's value in the resource's query: compared exactly as its text. PostgreSQL's default collations compare
   * texts by their characters, so the placeholder stands as it is.
   */
  claimValue(placeholder: string, _value: Value): string {
    return placeholder;
  }

  /** A LIKE pattern with `\` as its escape character, so `\%` and `\_` are literal. */
  like(target: string, asText: boolean, pattern: string): string {
    return `${asText ? `CAST(${target} AS text)` : target} LIKE ${pattern} ESCAPE '\\'`;
  }

  /** LIMIT and OFFSET, each given as a placeholder, or undefined when absent. */
  paging(limit?: string, offset?: string): string {
    return `${limit !== undefined ? ` LIMIT ${limit}` : ''}${offset !== undefined ? ` OFFSET ${offset}` : ''}`;
  }

  /**
   * A query that reads its rows as committed now, inside a write's transaction. PostgreSQL (READ COMMITTED) gives
   * every statement a fresh snapshot, so the query is run as it is.
   */
  currentRead(query: string): string {
    return query;
  }

  /** The INSERT `insert`, giving back the rows it stores. */
  returning(insert: string): string {
    return `${insert} RETURNING *`;
  }

  /** The SELECT `select`, locking the rows it reads until the transaction ends. */
  lockForUpdate(select: string): string {
    return `${select} FOR UPDATE`;
  }

  /**
   * Rows whose `columns` (quoted) equal one of `keys` (the placeholders of each key, in the columns' order):
   * `a IN ($1, $2)`, or for several columns a row value, `(a, b) IN (($1, $2), ($3, $4))`.
   */
  keyIn(columns: readonly string[], keys: readonly (readonly string[])[]): string {
    const row = (items: readonly string[]) => (items.length === 1 ? (items[0] as string) : `(${items.join(', ')})`);
    return `${row(columns)} IN (${keys.map(row).join(', ')})`;
  }

  /** The rest of an INSERT that gives no column: every column takes its default. */
  readonly insertDefaults: string = 'DEFAULT VALUES';

  /**
   * Whether the driver sends the values inside the statement's text, so that they count toward the text size
   * of a multi-row INSERT (RDS Proxy's 16 KB). postgres.js sends them apart from the text (Bind).
   */
  readonly valuesInText: boolean = false;
}

export class MysqlSqlShape extends SqlShape {
  override readonly engine: EngineName = 'mysql';
  /**
   * MySQL has no INSERT ... RETURNING (MariaDB has since 10.5): a single row is read back by its key (or the insert
   * id), and a multi-row INSERT as the server says it can be (server-inserts).
   */
  override readonly insertReturns: boolean = false;
  override readonly insertReadBack: InsertReadBack = {
    kind: 'ask',
    query: serverInsertsQuery,
    read: readServerInserts,
  };
  override readonly insertDefaults: string = '() VALUES ()';
  /** mysql2's `query` binds client-side: the server receives the values written into the text. */
  override readonly valuesInText: boolean = true;

  override quoteIdentifier(name: string): string {
    return `\`${name.replace(/`/g, '``')}\``;
  }

  override placeholder(): string {
    return '?';
  }

  /** mysql2 binds a bigint unquoted with every digit, and booleans as the 1 and 0 of tinyint(1). */
  override toParam(value: Value): Value {
    return typeof value === 'boolean' ? (value ? 1 : 0) : value;
  }

  /**
   * InnoDB reads a transaction's first snapshot in a plain SELECT (REPEATABLE READ), and a locking clause outside a
   * derived table does not reach the tables inside it: the query itself takes LOCK IN SHARE MODE (on its own line,
   * after any trailing comment), so it reads the rows as committed now and keeps them until the write commits.
   */
  override currentRead(query: string): string {
    return `${query}\nLOCK IN SHARE MODE`;
  }

  /**
   * MySQL's usual collations fold case, accents and trailing spaces (`_ci`, PAD SPACE), so a claim's text is compared
   * as its bytes: `JÜRGEN B.` is not `Jürgen B.`, and `alice` is not `alice `.
   */
  override claimValue(placeholder: string, value: Value): string {
    return typeof value === 'string' ? `CAST(${placeholder} AS BINARY)` : placeholder;
  }

  /** MySQL's LIKE escape character is already the backslash, and it compares numbers as text. */
  override like(target: string, _asText: boolean, pattern: string): string {
    return `${target} LIKE ${pattern}`;
  }

  /** MySQL has no OFFSET without LIMIT: the largest LIMIT stands for "all". */
  override paging(limit?: string, offset?: string): string {
    if (limit === undefined && offset === undefined) return '';
    const count = limit ?? '18446744073709551615';
    return offset !== undefined ? ` LIMIT ${count} OFFSET ${offset}` : ` LIMIT ${count}`;
  }
}

const shapes: Readonly<Record<EngineName, SqlShape>> = { postgres: new SqlShape(), mysql: new MysqlSqlShape() };

/** The SQL shape of a database engine. */
export function sqlShapeOf(engine: EngineName): SqlShape {
  return shapes[engine];
}
