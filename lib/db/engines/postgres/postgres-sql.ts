/**
 * PostgreSQL's SQL shape: the standard shapes (standard-sql.ts), with numbered placeholders and postgres.js's
 * binding. Its default collations compare texts by their characters, and READ COMMITTED gives every statement a
 * fresh snapshot, as the standard shapes assume. Pure.
 */

import type { EventSql } from '../../../sql-shape';
import type { Value } from '../../../values';
import { StandardSql } from '../standard-sql';
import { postgresEventSql } from './postgres-event-sql';
import { postgresEventTables } from './postgres-event-tables';

export class PostgresSql extends StandardSql {
  override readonly eventTables: readonly string[] = postgresEventTables;
  readonly eventSql: EventSql = postgresEventSql;

  placeholder(position: number): string {
    return `$${position}`;
  }

  /**
   * Integers are bigints in the plan: postgres.js sends their digits as text, which PostgreSQL reads in the
   * column's type. postgres.js sends every value apart from the text (Bind).
   */
  toParam(value: Value): Value {
    return typeof value === 'bigint' ? value.toString() : value;
  }

  /** `\` is named as the escape character; a number is compared as text. */
  like(target: string, asText: boolean, pattern: string): string {
    return `${asText ? `CAST(${target} AS text)` : target} LIKE ${pattern} ESCAPE '\\'`;
  }
}
