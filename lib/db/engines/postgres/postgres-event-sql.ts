/**
 * PostgreSQL's SQL for a change event written by the INSERT that stores its row (lib/events/insert-events), in one
 * data-modifying WITH statement; each value as the JSON token and the text a change event gives it
 * (lib/serial/format-value's valueJson, and change-events' key texts), from the column as postgres.js reads it: every
 * type as PostgreSQL's text of it (postgres-options), but booleans and bytea, which it reads as a boolean and as bytes
 * (written in base64). Pure.
 */
import type { ValueType } from '../../../resource';
import type { EventSql } from '../../../sql-shape';

/** valueJson's test of a JSON number, without a backslash (read alike whatever standard_conforming_strings says). */
const jsonNumber = `'^-?(0|[1-9][0-9]*)([.][0-9]+)?([eE][+-]?[0-9]+)?$'`;

const base64 = (expr: string) => `translate(encode(${expr}, 'base64'), chr(10), '')`;

export const postgresEventSql: EventSql = {
  json(type: ValueType, expr: string): string {
    switch (type) {
      case 'integer':
        // an integer type's text is always a JSON number
        return `COALESCE(${expr}::text, 'null')`;
      case 'decimal':
      case 'float':
        return `CASE WHEN ${expr} IS NULL THEN 'null' WHEN ${expr}::text ~ ${jsonNumber} THEN ${expr}::text ELSE to_json(${expr}::text)::text END`;
      case 'boolean':
        return `CASE WHEN ${expr} IS NULL THEN 'null' WHEN ${expr} THEN 'true' ELSE 'false' END`;
      case 'binary':
        return `CASE WHEN ${expr} IS NULL THEN 'null' ELSE '"' || ${base64(expr)} || '"' END`;
      default:
        return `COALESCE(to_json(${expr}::text)::text, 'null')`;
    }
  },
  text(type: ValueType, expr: string): string {
    switch (type) {
      case 'boolean':
        return `CASE WHEN ${expr} THEN 'true' WHEN NOT ${expr} THEN 'false' ELSE '' END`;
      case 'binary':
        return `COALESCE(${base64(expr)}, '')`;
      default:
        return `COALESCE(${expr}::text, '')`;
    }
  },
  jsonString: (expr: string) => `to_json(${expr})::text`,
  // an escape string: read alike whatever standard_conforming_strings says
  literal: (text: string) => `E'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`,
  orderingKey: (expr: string, maxCharacters: number) =>
    `CASE WHEN char_length(${expr}) <= ${maxCharacters} THEN ${expr} ELSE 'sha256:' || encode(sha256(convert_to(${expr}, 'UTF8')), 'hex') END`,
  concat: (parts) => parts.join(' || '),
  asText: (expr) => `CAST(${expr} AS text)`,
  // every type is read as PostgreSQL's text of it (or as a boolean, or bytes), which this SQL writes alike
  exact: () => true,
  // a data-modifying WITH: the INSERT's RETURNING is what the outbox's INSERT reads, and what the statement answers
  storedRow: (_table, _given, quoted) => ({ from: 'w', column: (name) => `w.${quoted.column(name)}` }),
  statement: (insert, addEvent) => `WITH w AS (${insert}), e AS (${addEvent}) SELECT * FROM w`,
  // a WITH statement costs PostgreSQL about what the INSERT alone does, prepared or not
  preparedOnly: false,
};
