/**
 * Where the rows an insert stored are told: a transaction's change log (change-log) listens on the Executor it is,
 * and the inserts (insert-rows, stored-rows) tell whatever listens on the Executor they run on. Without a listener
 * telling does nothing.
 */
import type { Executor } from '../db/database';
import type { ResourceTable } from '../resource';
import type { Row } from '../values';

export type InsertListener = (table: ResourceTable, rows: readonly Row[]) => void;

const listeners = new WeakMap<Executor, InsertListener>();

export function listenToInserts(executor: Executor, listener: InsertListener): void {
  listeners.set(executor, listener);
}

export function noteInserted(executor: Executor, table: ResourceTable, rows: readonly Row[]): void {
  listeners.get(executor)?.(table, rows);
}
