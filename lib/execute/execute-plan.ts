/**
 * Runs a plan: a read, or the writes of one request in one transaction: commit when every statement
 * succeeded, roll back on any error. A constraint it breaks is reported in the resource's labels. A plan with the
 * caller's query (claims) reads through it; writes touch only the rows the query shows (shown-rows).
 */

import type { Database, Executor, QueryResult } from '../db/database';
import { ConstraintError } from '../errors';
import type { ReadPlan, WritePlan } from '../plan/plan';
import type { SqlResource } from '../resource';
import { compileSelect } from '../sql/compile-select';
import { sqlDialect } from '../sql/dialect';
import { executeDelete } from './execute-delete';
import { executeInsert, type WriteOutcome } from './execute-insert';
import { executeUpdate } from './execute-update';
import { labelViolation } from './label-violation';

export type { WriteOutcome } from './execute-insert';

export async function executeRead(db: Executor, resource: SqlResource, plan: ReadPlan): Promise<QueryResult['rows']> {
  return (await db.run(compileSelect(sqlDialect(resource.dialect), plan.query ?? resource.query, plan.select))).rows;
}

export async function executeWrite(db: Database, resource: SqlResource, plan: WritePlan): Promise<WriteOutcome> {
  try {
    return await db.transaction(async (tx): Promise<WriteOutcome> => {
      switch (plan.kind) {
        case 'insert':
          return executeInsert(tx, resource, plan.rows, plan.query);
        case 'update':
          return { rowsAffected: await executeUpdate(tx, resource, plan.updates, plan.children, plan.query) };
        case 'delete':
          return { rowsAffected: await executeDelete(tx, resource, plan.target, plan.children, plan.query) };
      }
    });
  } catch (error) {
    throw error instanceof ConstraintError
      ? new ConstraintError(error.violation, labelViolation(resource, error.violation), error.cause)
      : error;
  }
}
