/**
 * The rows a write changed, for its change events: an Executor around the write's transaction that reads the rows
 * each UPDATE and DELETE matches before running it (locked, so nothing changes them in between) and each updated
 * row after it; inserts tell it the rows they stored (inserted-rows). Every row of every table of the
 * resource is recorded, children and association rows included. It must not change what a write does: the same
 * statements run, in the same order, on the same transaction.
 */
import type { Executor, QueryResult, Statement } from '../db/database';
import { sqlShapeOf } from '../db/engines/registry';
import { ConflictError } from '../errors';
import type { ColumnValues } from '../plan/plan';
import type { ResourceTable, SqlResource } from '../resource';
import { compileSelectWhere } from '../sql/compile-select';
import type { KeyedValues } from '../sql/compile-update-rows';
import type { CompiledQuery, WriteTarget } from '../sql/compiled-query';
import { keyText, type Row } from '../values';
import { listenToInserts } from './inserted-rows';
import { type StoredRow, selectRowsByKey } from './stored-rows';

export interface RowChange {
  readonly verb: 'insert' | 'update' | 'delete';
  readonly table: ResourceTable;
  /** The row as it was: updates and deletes. */
  readonly before?: StoredRow;
  /** The row as it is now: inserts and updates. */
  readonly after?: StoredRow;
}

export class ChangeLog implements Executor {
  readonly changes: RowChange[] = [];

  constructor(
    private readonly tx: Executor,
    private readonly resource: SqlResource,
  ) {
    listenToInserts(this, (table, rows) => {
      for (const row of rows) this.changes.push({ verb: 'insert', table, after: { ...row } });
    });
  }

  get insertsReturn(): boolean | undefined {
    return this.tx.insertsReturn;
  }

  async run(statement: Statement): Promise<QueryResult> {
    const target = (statement as CompiledQuery).target;
    if (target === undefined) return this.tx.run(statement);
    const table = tableOf(this.resource, target);
    const locked = compileSelectWhere(sqlShapeOf(this.resource.engine), table, '*', target.where, true, target.filters);
    const before = (await this.tx.run(locked)).rows;
    const result = await this.tx.run(statement);
    // the rows were locked: only a row that came to match since (PostgreSQL reads afresh for each statement) adds one
    if (result.rowsAffected !== before.length) {
      throw new ConflictError(
        'changed_while_writing',
        `Other writes changed rows of ${this.resource.name} that this write matches while it ran; nothing was written; send it again`,
      );
    }
    if (target.verb === 'delete') {
      for (const row of before) this.changes.push({ verb: 'delete', table, before: { ...row } });
      return result;
    }
    const columns = keyColumnsOf(table, before[0]);
    const setOf = valuesSetOn(columns, target.set);
    // a key column the update sets has its new value
    const keys = before.map((row) => {
      const values = setOf(row) ?? {};
      return columns.map((c) => (c in values ? (values[c] ?? null) : (row[c] ?? null)));
    });
    const after = await selectRowsByKey(this.tx, this.resource, table, keys, columns);
    before.forEach((row, i) => {
      this.changes.push({ verb: 'update', table, before: { ...row }, after: after[i] ?? { ...row } });
    });
    return result;
  }
}

function tableOf(resource: SqlResource, target: WriteTarget): ResourceTable {
  const { schema, table } = target.table;
  const found = Object.values(resource.tables).find(
    (t) => t === target.table || (t.schema === schema && t.table === table),
  );
  if (!found) throw new Error(`${schema}.${table} is not a table of resource ${resource.name}`);
  return found;
}

/** A row is found again by its primary key; a table without one by all its columns. */
function keyColumnsOf(table: ResourceTable, row: Row | undefined): readonly string[] {
  return table.primaryKey.length > 0 ? table.primaryKey : Object.keys(row ?? {});
}

/** What the update sets on a row: the same values on every row, or each row's own, found by its key. */
function valuesSetOn(columns: readonly string[], set: WriteTarget['set']): (row: Row) => ColumnValues | undefined {
  if (!Array.isArray(set)) return () => set as ColumnValues | undefined;
  const byKey = new Map((set as readonly KeyedValues[]).map((keyed) => [keyText(keyed.key), keyed.values]));
  return (row) => byKey.get(keyText(columns.map((c) => row[c] ?? null)));
}
