/**
 * Which writes are one statement, and run them without an explicit transaction: one statement is atomic by itself
 * on PostgreSQL and MySQL, so BEGIN and COMMIT would only add two round trips. A write is one statement when it
 * touches one table that the resource's query shows whole, reads nothing back in another statement, and checks no
 * caller's rows: an insert of one row where the engine gives the stored row back in the same statement
 * (RETURNING), an update or delete by one key (or a few hundred: one statement's worth), or by a filter that
 * becomes the statement's WHERE. Anything else runs in a transaction (execute-plan). Pure but for the executor.
 */
import type { Executor } from '../db/database';
import type { Target, WritePlan } from '../plan/plan';
import type { SqlResource } from '../resource';
import { keysPerStatement } from './statement-size';

/** Rows found by keys the resource shows whole (no check), or by a filter the statement's WHERE can say alone. */
function oneStatementTarget(resource: SqlResource, target: Target): boolean {
  if (target.kind === 'filter') return target.match.by === 'where';
  return resource.showsEveryRow === true && target.keys.length <= keysPerStatement;
}

/** `insertsReturn`: an INSERT gives the row back in the same statement where it runs (RETURNING). */
export function isOneStatement(resource: SqlResource, plan: WritePlan, insertsReturn: boolean): boolean {
  if (plan.query !== undefined || Object.keys(resource.tables).length !== 1 || resource.kind !== 'flat') return false;
  switch (plan.kind) {
    case 'insert': {
      const [row, more] = plan.rows;
      return (
        row !== undefined &&
        more === undefined &&
        row.children === undefined &&
        row.extensions.length === 0 &&
        Object.keys(row.parent).length > 0 &&
        insertsReturn
      );
    }
    case 'update': {
      const [update, more] = plan.updates;
      return (
        update !== undefined &&
        more === undefined &&
        plan.children.length === 0 &&
        update.extensions.length === 0 &&
        oneStatementTarget(resource, update.target)
      );
    }
    case 'delete':
      return plan.children.length === 0 && oneStatementTarget(resource, plan.target);
  }
}

/**
 * `db` for a write that isOneStatement says is one statement: a second statement would run outside any transaction,
 * after the first had committed, so it is refused as the fault in this module that it would be.
 */
export function oneStatementOn(db: Executor): Executor {
  let ran = false;
  return {
    insertsReturn: db.insertsReturn,
    run(statement) {
      if (ran) return Promise.reject(new Error('a write planned as one statement ran a second one: not atomic'));
      ran = true;
      return db.run(statement);
    },
  };
}
