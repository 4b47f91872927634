/**
 * MariaDB's SQL for a change event written by the INSERT that stores its row (lib/events/insert-events): one
 * compound statement (`BEGIN NOT ATOMIC ... END`, which only MariaDB runs; only a server that has INSERT ...
 * RETURNING gets here) that starts a transaction, inserts the row (giving it back), reads it by the key the database
 * generated (LAST_INSERT_ID()) to add its event to the outbox, and commits; a failure rolls it back and is raised as
 * it was. It is sent prepared (DB_PREPARE, the server mode): parsed on every call, it costs MariaDB about twice what
 * the write's transaction does, so without DB_PREPARE an insert takes the transaction. Each value is written as the
 * JSON token and text a change event gives it (valueJson and the key texts) from the column as mysql2 reads it, from
 * a prepared statement's answer as from a query's (test/integration/insert-events compares the two): integers,
 * decimals, dates and times as the server's text, tinyint(1) as a boolean, bytes in base64, texts as they are. A
 * float (which mysql2 reads as a JS number and prints its own way) and any type but these (bit, geometry...) are not
 * written here: such a resource's insert takes a transaction. Pure.
 */
import { escape as escapeValue } from 'sql-escaper';
import type { ValueType } from '../../../resource';
import type { EventSql } from '../../../sql-shape';

const newline = 'CHAR(10 USING ascii)';
const base64 = (expr: string) => `REPLACE(TO_BASE64(${expr}), ${newline}, '')`;

/** The hex digits JSON_QUOTE writes in capitals, where JSON.stringify writes small letters. */
const capitalEscapes = ['000B', '000E', '000F', '001A', '001B', '001C', '001D', '001E', '001F'];

/**
 * JSON_QUOTE, with \u00XX escapes in small letters as JSON.stringify writes them. An escaped backslash (`\\`) is
 * set aside first (as U+0001, which JSON_QUOTE's output never holds as itself), so text that merely reads `\u001F`
 * keeps its capitals.
 */
function jsonQuote(expr: string): string {
  let out = `REPLACE(JSON_QUOTE(${expr}), '\\\\\\\\', CHAR(1 USING ascii))`;
  for (const hex of capitalEscapes) out = `REPLACE(${out}, '\\\\u${hex}', '\\\\u${hex.toLowerCase()}')`;
  return `REPLACE(${out}, CHAR(1 USING ascii), '\\\\\\\\')`;
}

/** Column types whose values mysql2 reads as the server's text of them (mysql-pool-options). */
const textTypes = /^(?:(?:var)?char|(?:tiny|medium|long)?text|enum|set)\b/i;

export const mysqlEventSql: EventSql = {
  json(type: ValueType, expr: string): string {
    switch (type) {
      case 'integer':
      case 'decimal':
        // an integer's and a decimal's text is always a JSON number
        return `COALESCE(CAST(${expr} AS CHAR), 'null')`;
      case 'boolean':
        return `CASE WHEN ${expr} IS NULL THEN 'null' WHEN ${expr} <> 0 THEN 'true' ELSE 'false' END`;
      case 'binary':
        return `CASE WHEN ${expr} IS NULL THEN 'null' ELSE CONCAT('"', ${base64(expr)}, '"') END`;
      default:
        return `COALESCE(${jsonQuote(`CAST(${expr} AS CHAR)`)}, 'null')`;
    }
  },
  text(type: ValueType, expr: string): string {
    switch (type) {
      case 'boolean':
        return `CASE WHEN ${expr} IS NULL THEN '' WHEN ${expr} <> 0 THEN 'true' ELSE 'false' END`;
      case 'binary':
        return `COALESCE(${base64(expr)}, '')`;
      default:
        return `COALESCE(CAST(${expr} AS CHAR), '')`;
    }
  },
  // sql-escaper writes strings as mysql2 does (backslash escapes: the service refuses NO_BACKSLASH_ESCAPES)
  literal: (text: string) => escapeValue(text),
  jsonString: (expr: string) => jsonQuote(expr),
  concat: (parts) => `CONCAT(${parts.join(', ')})`,
  asText: (expr) => `CAST(${expr} AS CHAR)`,
  orderingKey: (expr: string, maxCharacters: number) =>
    `CASE WHEN CHAR_LENGTH(${expr}) <= ${maxCharacters} THEN ${expr} ELSE CONCAT('sha256:', SHA2(${expr}, 256)) END`,
  exact(type, dbType) {
    if (type === 'float') return false;
    if (type === 'string') return dbType !== undefined && textTypes.test(dbType);
    if (type === 'binary') return dbType !== undefined && /binary|blob/i.test(dbType);
    return true;
  },
  storedRow(table, given, quoted) {
    // the row is found by the key the database generated for it: one AUTO_INCREMENT column the insert does not give
    const [key, more] = table.primaryKey;
    if (key === undefined || more !== undefined || !table.generatedColumns.includes(key) || given.includes(key)) {
      return undefined;
    }
    return {
      from: `${quoted.table} AS t WHERE t.${quoted.column(key)} = LAST_INSERT_ID()`,
      column: (name) => `t.${quoted.column(name)}`,
    };
  },
  statement: (insert, addEvent) =>
    'BEGIN NOT ATOMIC DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END; ' +
    `START TRANSACTION; ${insert}; ${addEvent}; COMMIT; END`,
  preparedOnly: true,
};
