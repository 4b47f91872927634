/**
 * Which table a statement writes, read from its text: the INSERT, UPDATE and DELETE statements that lib/sql compiles
 * all begin with the verb and the quoted, schema-qualified table. A constraint error of MySQL names a key or a
 * column but not always their table, and one of PostgreSQL names the referencing table of a foreign key whichever
 * side was written; the statement's table says whose columns they are. Pure.
 */

export interface WrittenTable {
  readonly verb: 'insert' | 'update' | 'delete';
  /** The schema (the database, on MySQL) when the statement names it. */
  readonly schema?: string;
  readonly table: string;
}

/** A quoted identifier of either engine: "name" (PostgreSQL) or `name` (MySQL), the quote doubled inside. */
const identifier = '("(?:[^"]|"")*"|`(?:[^`]|``)*`)';
const statementStart = new RegExp(
  `^\\s*(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+${identifier}(?:\\.${identifier})?`,
  'i',
);

/** The table a write statement writes, or undefined for any other statement (a SELECT, COMMIT, ...). */
export function writtenTable(text: string): WrittenTable | undefined {
  const match = statementStart.exec(text);
  if (!match) return undefined;
  const [, verbText = '', first = '', second] = match;
  const verb = verbText.toLowerCase().startsWith('insert')
    ? 'insert'
    : verbText.toLowerCase().startsWith('update')
      ? 'update'
      : 'delete';
  return second === undefined
    ? { verb, table: unquote(first) }
    : { verb, schema: unquote(first), table: unquote(second) };
}

function unquote(quoted: string): string {
  const quote = quoted.charAt(0);
  return quoted.slice(1, -1).replaceAll(quote + quote, quote);
}
