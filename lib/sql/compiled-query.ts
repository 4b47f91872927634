/**
 * A compiled statement: SQL text of one database engine and its parameters, in placeholder order. Values are only
 * ever parameters, never spliced into the text. lib/db runs it as a Statement. Types only.
 */
import type { Value } from '../values';

export interface CompiledQuery {
  readonly text: string;
  readonly params: readonly Value[];
  /** An INSERT that returns the row as stored (RETURNING *). */
  readonly returning?: boolean;
}
