/**
 * MySQL's and MariaDB's SQL shape: the standard shapes (standard-sql.ts) but for what MySQL writes otherwise:
 * backquoted names, `?` placeholders bound by mysql2 into the text, no OFFSET without LIMIT, a locking read for a
 * current read, claims compared as bytes, and inserted rows read back as the server can (mysql-server-inserts).
 * Pure.
 */
import { format, type SqlValue } from 'sql-escaper';
import type { EventSql, InsertReadBack } from '../../../sql-shape';
import type { Value } from '../../../values';
import { StandardSql } from '../standard-sql';
import { mysqlEventSql } from './mysql-event-sql';
import { mysqlEventTables } from './mysql-event-tables';
import { readServerInserts, serverInsertsQuery } from './mysql-server-inserts';

export class MysqlSql extends StandardSql {
  override readonly eventTables: readonly string[] = mysqlEventTables;
  readonly eventSql: EventSql = mysqlEventSql;

  /**
   * MySQL has no INSERT ... RETURNING (MariaDB has since 10.5): a single row is read back by its key (or the insert
   * id), and a multi-row INSERT as the server says it can be.
   */
  override readonly insertReturns: boolean = false;
  override readonly insertReadBack: InsertReadBack = {
    kind: 'ask',
    query: serverInsertsQuery,
    read: readServerInserts,
  };
  override readonly insertDefaults: string = '() VALUES ()';
  /** NULL is below every value in MySQL's order. */
  override readonly plainNullsFirst: boolean = true;
  /**
   * mysql2's `query` binds client-side, with sql-escaper's `format` (the library mysql2 itself formats with): the
   * server receives the values written into the text, so the text is measured as that function writes it.
   */
  override sentBytes(statement: { readonly text: string; readonly params: readonly Value[] }): number {
    return Buffer.byteLength(format(statement.text, statement.params as SqlValue[]));
  }

  override quoteIdentifier(name: string): string {
    return `\`${name.replace(/`/g, '``')}\``;
  }

  placeholder(): string {
    return '?';
  }

  /** mysql2 binds a bigint unquoted with every digit, and booleans as the 1 and 0 of tinyint(1). */
  toParam(value: Value): Value {
    return typeof value === 'boolean' ? (value ? 1 : 0) : value;
  }

  /**
   * InnoDB reads a transaction's first snapshot in a plain SELECT (REPEATABLE READ), and a locking clause outside a
   * derived table does not reach the tables inside it: the query itself takes LOCK IN SHARE MODE (on its own line,
   * after any trailing comment), so it reads the rows as committed now and keeps them until the write commits.
   */
  /** MySQL orders NULL below every value already, and has no NULLS FIRST / LAST. */
  override orderTerm(column: string, descending: boolean): string {
    return `${column} ${descending ? 'DESC' : 'ASC'}`;
  }

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
  like(target: string, _asText: boolean, pattern: string): string {
    return `${target} LIKE ${pattern}`;
  }

  /** MySQL has no OFFSET without LIMIT: the largest LIMIT stands for "all". */
  override paging(limit?: string, offset?: string): string {
    if (limit === undefined && offset === undefined) return '';
    const count = limit ?? '18446744073709551615';
    return offset !== undefined ? ` LIMIT ${count} OFFSET ${offset}` : ` LIMIT ${count}`;
  }
}
