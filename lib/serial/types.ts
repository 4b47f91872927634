/**
 * The serialization stage's nouns: values as the database drivers return them, rows to write out, and the names
 * a request body uses. Types only: no code, no IO.
 */

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
