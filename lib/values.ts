/**
 * The values every stage passes on: what the plan converts a client's text to, what a statement binds as a
 * parameter, and what a driver returns. One union, because they are the same JS values: never a JS Date, and
 * numbers that must keep their digits travel as strings or bigints. Types only.
 */

/** A value of one field. PostgreSQL gives text for every type but boolean and bytea; MySQL numbers for small ints. */
export type Value = string | number | bigint | boolean | Uint8Array | null;

/** One row as a driver returns it: its values by column label. */
export type Row = Readonly<Record<string, Value>>;

/** The two response types of the service (`_output`, Accept). */
export type OutputType = 'application/xml' | 'application/json';

/** What `_output` can name: the two response types, or CSV (which only reads of flat resources answer with). */
export type OutputName = OutputType | 'text/csv';

/** A key (any list of values) as text, to compare keys as sets or find a row by its key. */
export const keyText = (key: readonly unknown[]): string => JSON.stringify(key.map(String));

/** A row to write out: labels in select order; children only for hierarchical resources. */
export interface OutRow {
  readonly values: Readonly<Record<string, Value>>;
  readonly children?: readonly OutRow[];
}
