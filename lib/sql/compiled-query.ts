/**
 * A compiled statement: SQL text of one database engine and its parameters, in placeholder order. Values are only
 * ever parameters, never spliced into the text. lib/db runs it as a Statement. Types only.
 */
import type { ColumnValues } from '../plan/plan';
import type { ResourceTable } from '../resource';
import type { Value } from '../values';
import type { KeyedValues } from './compile-update-rows';
import type { ColumnFilter, Match } from './match';

/**
 * The rows an UPDATE or DELETE writes, as data: its table, the rows it matches and what it sets. A write whose rows
 * are announced (change events) reads the same rows before and after it.
 */
export interface WriteTarget {
  readonly verb: 'update' | 'delete';
  readonly table: Pick<ResourceTable, 'schema' | 'table'>;
  readonly where: readonly Match[];
  readonly filters: readonly ColumnFilter[];
  /** An UPDATE's values: the same for every row, or each row's own by its key. */
  readonly set?: ColumnValues | readonly KeyedValues[];
}

export interface CompiledQuery {
  readonly text: string;
  readonly params: readonly Value[];
  /** An INSERT that returns the row as stored (RETURNING *). */
  readonly returning?: boolean;
  /** Set on every UPDATE and DELETE compiled here. */
  readonly target?: WriteTarget;
}
