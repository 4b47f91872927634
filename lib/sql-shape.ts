/**
 * What the SQL compilers (lib/sql) ask of a database engine: the shape of every piece of SQL that is not written
 * the same on every engine, the way kysely's query compilers hold them. Each engine's record holds its own
 * (lib/db/engines/<engine>/); nothing else in the service branches on the database. Types only.
 */
import type { ResourceTable, ValueType } from './resource';
import type { Row, Value } from './values';

/** How a server reads back the rows of one multi-row INSERT. */
export interface ServerInserts {
  /** INSERT ... RETURNING * works. */
  readonly returning: boolean;
  /** Without RETURNING: the step between the generated ids of one INSERT, when they are consecutive. */
  readonly idStep?: number;
}

/**
 * How the rows of a multi-row INSERT are read back: the same on every server of the engine (`always`), or as the
 * server answers `query` (asked once per transaction).
 */
export type InsertReadBack =
  | { readonly kind: 'always'; readonly inserts: ServerInserts }
  | {
      readonly kind: 'ask';
      readonly query: { readonly text: string; readonly params: readonly Value[] };
      read(row: Row | undefined): ServerInserts;
    };

export interface SqlShape {
  quoteIdentifier(name: string): string;
  quoteTable(table: Pick<ResourceTable, 'schema' | 'table'>): string;
  /** The placeholder of the `position`-th parameter (1-based). */
  placeholder(position: number): string;
  /** A plan value as the engine's driver binds it. */
  toParam(value: Value): Value;
  /** A claim's value in the resource's query, compared exactly as its text. */
  claimValue(placeholder: string, value: Value): string;
  /** A LIKE pattern whose `\%` and `\_` are literal; `asText`: the target is compared as text. */
  like(target: string, asText: boolean, pattern: string): string;
  /** LIMIT and OFFSET, each given as a placeholder, or undefined when absent. */
  paging(limit?: string, offset?: string): string;
  /** `column` as an ORDER BY term in its direction, NULL below every value (first ascending, last descending). */
  orderTerm(column: string, descending: boolean): string;
  /**
   * Where a plain ascending ORDER BY term (a key, as the database orders it) puts NULL: first (MySQL) or last
   * (PostgreSQL). The rows after a cursor are found the way the order placed them.
   */
  readonly plainNullsFirst: boolean;
  /** A query that reads its rows as committed now, inside a write's transaction. */
  currentRead(query: string): string;
  /** The INSERT `insert`, giving back the rows it stores. */
  returning(insert: string): string;
  /** The SELECT `select`, locking the rows it reads until the transaction ends. */
  lockForUpdate(select: string): string;
  /**
   * Rows whose `columns` (quoted) equal one of `keys` (the placeholders of each key, in the columns' order): for
   * example `a IN ($1, $2)`, or for several columns a row value, `(a, b) IN (($1, $2), ($3, $4))`.
   */
  keyIn(columns: readonly string[], keys: readonly (readonly string[])[]): string;
  /** The rest of an INSERT that gives no column: every column takes its default. */
  readonly insertDefaults: string;
  /** Every server of the engine gives an INSERT's rows back as stored in the same statement (`returning`). */
  readonly insertReturns: boolean;
  readonly insertReadBack: InsertReadBack;
  /**
   * Where an INSERT can add its rows' change events to the outbox in the same statement (PostgreSQL's WITH ... INSERT):
   * the SQL that writes a stored value as an event gives it. Absent elsewhere: the events follow in the transaction.
   */
  readonly eventSql?: EventSql;
  /** The change events' tables (outbox and drain lease): statements that create them, safe to run again. */
  readonly eventTables: readonly string[];
  /**
   * The bytes of SQL text the engine's driver sends for `statement`: its text, with the values written into it
   * where the driver binds them there, escaped as the driver escapes them. What keeps every statement below RDS
   * Proxy's 16 KB of text (lib/execute/statement-size.ts).
   */
  sentBytes(statement: { readonly text: string; readonly params: readonly Value[] }): number;
}

/**
 * SQL for an INSERT of one row that adds the row's change event itself (lib/events/insert-events): the event's parts,
 * each written from a value `expr` of a column whose type is `type`, and how the statement is put together.
 */
export interface EventSql {
  /** The value's JSON token, as the JSON representation writes it. */
  json(type: ValueType, expr: string): string;
  /** The value's text in a row key (the event's subject and ordering key): empty for NULL. */
  text(type: ValueType, expr: string): string;
  /** `text` as a string literal of this SQL. */
  literal(text: string): string;
  /** The text `expr` as a JSON string. */
  jsonString(expr: string): string;
  /** The ordering key of key text `expr`: itself, or its SHA-256 when longer than `maxCharacters` characters. */
  orderingKey(expr: string, maxCharacters: number): string;
  /** The texts, one after the other. */
  concat(parts: readonly string[]): string;
  /** An expression (a parameter) as text. */
  asText(expr: string): string;
  /** Whether a value of this column is written exactly (as the driver reads it); `dbType` when the query shows it. */
  exact(type: ValueType, dbType?: string): boolean;
  /**
   * Where `addEvent` reads the stored row, for an INSERT into `table` (named `quoted.table` in SQL) that gives
   * `given` columns: the FROM of the read, and each column as it reads there; undefined when this SQL cannot find
   * the row in the same statement.
   */
  storedRow(
    table: ResourceTable,
    given: readonly string[],
    quoted: { readonly table: string; readonly column: (name: string) => string },
  ): { readonly from: string; readonly column: (name: string) => string } | undefined;
  /** The one statement: `insert` (RETURNING the row, as the answer's), and `addEvent` (the outbox's INSERT). */
  statement(insert: string, addEvent: string): string;
  /**
   * True where the one statement is worth it only prepared (DB_PREPARE): parsed on every call, it costs the database
   * more than the write's transaction does.
   */
  readonly preparedOnly: boolean;
}
