/**
 * The serialization stage's nouns: values as the database drivers return them, rows to write out, and the names
 * a request body uses. Types only: no code, no IO.
 */

/**
 * A column value as a driver returns it. PostgreSQL gives text for every type except boolean (boolean) and bytea
 * (Buffer); MySQL gives numbers for small ints and floats, strings for bigints, decimals and dates, booleans for
 * tinyint(1), Buffers for binary. A JS Date never occurs (D9).
 */
export type DbValue = string | number | bigint | boolean | Uint8Array | null;

/** A row to write out: labels in select order; children only for hierarchical resources. */
export interface OutRow {
  readonly values: Readonly<Record<string, DbValue>>;
  readonly children?: readonly OutRow[];
}

/** The element and property names a request body must use (D2, D13). */
export interface BodyNames {
  readonly rowName: string;
  readonly collectionName: string;
  readonly childRowName?: string;
  readonly childCollectionName?: string;
  /** The Parent's and Child's table names, which XML row elements may use instead of the row names (D13). */
  readonly rowTable?: string;
  readonly childTable?: string;
}
