/**
 * Runs a plan: a read, or the writes of one request in one transaction: commit when every statement succeeded, roll
 * back on any error (a write that is one statement runs alone, atomic by itself: one-statement; not one whose
 * changed rows are announced, which adds its events in the same transaction). A constraint it breaks is reported in
 * the resource's labels. A plan with the caller's query (claims) reads through it; writes touch only the rows the
 * query shows (shown-rows). A read that may return many rows reads them a batch at a time, and stops as soon as it
 * is over its cap or its caller's limit: the database sends no more.
 */

import type { Database, Executor, Row, Statement } from '../db/database';
import { sqlShapeOf } from '../db/engines/registry';
import { ConstraintError, TooLargeError } from '../errors';
import type { Key, ReadPlan, WritePlan } from '../plan/plan';
import type { SqlResource } from '../resource';
import { compileSelect, countLabel } from '../sql/compile-select';
import { ChangeLog, type RowChange } from './change-log';
import { checkVersions, type RowTags } from './check-versions';
import { executeDelete } from './execute-delete';
import { executeInsert, type WriteOutcome } from './execute-insert';
import { executeUpdate } from './execute-update';
import { labelViolation } from './label-violation';
import { isOneStatement, oneStatementOn } from './one-statement';
import { insertsReturnOn } from './stored-rows';

export type { WriteOutcome } from './execute-insert';

/** Adds the events of a write's changed rows, in its transaction (change events). */
export type Announce = (tx: Executor, changes: readonly RowChange[]) => Promise<void>;

/** How a write announces the rows it changed (change events). */
export interface WriteEvents {
  readonly announce: Announce;
  /**
   * For an insert of one row that gives `given` columns: how its INSERT becomes the statement that also adds its
   * event, where the engine and the resource allow one (lib/events/insert-events); undefined otherwise.
   */
  readonly inInsert?: (given: readonly string[]) => ((insert: Statement) => Statement) | undefined;
}

/**
 * Reads of at most this many rows (and flat reads by key) take one round trip; bigger ones are read this many rows
 * at a time, so a read that is over a limit holds at most one batch beyond it.
 */
const READ_BATCH_ROWS = 200;

/** A read's rows, whether rows follow them (when it has a `_limit`), and its total when asked for. */
export interface ReadOutcome {
  readonly rows: Row[];
  readonly more: boolean;
  readonly total?: number;
}

/**
 * `arriving`: sees each batch of a read that is read in batches, as it arrives (before its rows are kept), and
 * throws to stop the read there. A read of one round trip is whole before anything could stop it, so it is not shown.
 * A read with `_limit` asks for one row more, to tell whether a next page exists; that row is neither shown to
 * `arriving` nor returned.
 */
export async function executeRead(
  db: Database,
  resource: SqlResource,
  plan: ReadPlan,
  arriving: (rows: readonly Row[]) => void,
): Promise<ReadOutcome> {
  const page = plan.rowCap === undefined ? plan.select.limit : undefined;
  const statement = selectOf(
    resource,
    page === undefined ? plan : { ...plan, select: { ...plan.select, limit: page + 1 } },
  );
  const rows: Row[] = [];
  // over the cap is told first: a read with too many rows is told so, whatever their size
  const withinCap = (batch: readonly Row[]) => {
    if (plan.rowCap !== undefined && rows.length + batch.length > plan.rowCap) throw tooManyRows(resource, plan.rowCap);
  };
  const pageOf = (batch: readonly Row[]) =>
    page === undefined ? batch : batch.slice(0, Math.max(0, page - rows.length));
  const keep = (batch: readonly Row[]) => {
    for (const row of batch) rows.push(row);
  };
  const more = () => page !== undefined && rows.length > page;
  if (plan.byKey || (page !== undefined && page <= READ_BATCH_ROWS)) {
    const all = (await db.run(statement)).rows;
    withinCap(all);
    keep(all);
  } else {
    await db.readEach(statement, READ_BATCH_ROWS, (batch) => {
      withinCap(batch);
      arriving(pageOf(batch));
      keep(batch);
    });
  }
  const outcome = { rows: more() ? rows.slice(0, page) : rows, more: more() };
  return plan.total ? { ...outcome, total: await totalOf(db, resource, plan, outcome) } : outcome;
}

/**
 * The rows that pass the read's filters. A first page (no `_after`) that is the last one already tells it (unless
 * its offset is past the end); otherwise it is counted, in a statement of its own.
 */
async function totalOf(
  db: Database,
  resource: SqlResource,
  plan: ReadPlan,
  { rows, more }: { rows: readonly Row[]; more: boolean },
): Promise<number> {
  const offset = plan.select.offset ?? 0;
  if (!more && plan.select.after === undefined && (rows.length > 0 || offset === 0)) return offset + rows.length;
  const count = { filters: plan.select.filters, orderBy: [], count: true };
  const [row] = (await db.run(selectOf(resource, { ...plan, select: count }))).rows;
  return Number(row?.[countLabel] ?? 0);
}

/** A read of one row by key inside a write's transaction (the row's version): one round trip. */
export async function executeRowRead(tx: Executor, resource: SqlResource, plan: ReadPlan): Promise<readonly Row[]> {
  return (await tx.run(selectOf(resource, plan))).rows;
}

const selectOf = (resource: SqlResource, plan: ReadPlan) =>
  compileSelect(sqlShapeOf(resource.engine), plan.query ?? resource.query, plan.select);

function tooManyRows(resource: SqlResource, cap: number): TooLargeError {
  return new TooLargeError(
    'too_many_rows',
    `Resource ${resource.name} has more than ${cap} rows for this read, the most one read returns; ask for a page with _limit (at most ${cap}) and _offset, or narrow the read with filters`,
  );
}

/** A write's outcome, with the new ETag of the row a PUT by path key wrote (in the answer's representation). */
export type ConditionalOutcome = WriteOutcome & { readonly etag?: string };

/** How a write learns rows' versions: their tags, and the key of the row whose new tag the answer carries. */
export interface RowVersions {
  readonly tagsOf: RowTags;
  readonly writtenKey?: Key;
}

/**
 * A write of one statement runs as it is (atomic by itself: one round trip); any other in one transaction, and so
 * does one that checks or tells versions: its If-Match is checked first, with the rows locked, and the new version of
 * a row written by path key is read before the commit, so the ETag it answers with is the one this write made.
 */
export async function executeWrite(
  db: Database,
  resource: SqlResource,
  plan: WritePlan,
  versions?: RowVersions,
  events?: WriteEvents,
): Promise<ConditionalOutcome> {
  const announce = events?.announce;
  const write = (tx: Executor): Promise<WriteOutcome> => {
    switch (plan.kind) {
      case 'insert':
        return executeInsert(tx, resource, plan.rows, plan.query);
      case 'update':
        return executeUpdate(tx, resource, plan.updates, plan.children, plan.query).then(affected);
      case 'delete':
        return executeDelete(tx, resource, plan.target, plan.children, plan.query).then(affected);
    }
  };
  const check = plan.versions;
  const writtenKey = versions?.writtenKey;
  const conditional = async (tx: Executor): Promise<ConditionalOutcome> => {
    if (!versions) return write(tx);
    if (check) await checkVersions(tx, resource, check, versions.tagsOf);
    const outcome = await write(tx);
    const [etag] = writtenKey ? await versions.tagsOf(tx, writtenKey, false) : [];
    return etag === undefined ? outcome : { ...outcome, etag };
  };
  // the rows it changed are recorded as it runs, and announced before it commits
  const announced = async (tx: Executor): Promise<ConditionalOutcome> => {
    if (!announce) return conditional(tx);
    const log = new ChangeLog(tx, resource);
    const outcome = await conditional(log);
    await announce(tx, log.changes);
    return outcome;
  };
  try {
    const oneStatement = !check && !writtenKey && isOneStatement(resource, plan, insertsReturnOn(db, resource));
    if (oneStatement && !announce) return await write(oneStatementOn(db));
    // an insert of one row with events: one statement still, where it can add its event itself
    const inInsert = oneStatement && plan.kind === 'insert' ? events?.inInsert?.(givenColumns(plan)) : undefined;
    if (inInsert) return await write(oneStatementOn(addingEvents(db, inInsert)));
    return await db.transaction(announced);
  } catch (error) {
    throw error instanceof ConstraintError
      ? new ConstraintError(error.violation, labelViolation(resource, error.violation), error.cause)
      : error;
  }
}

const affected = (rowsAffected: number): WriteOutcome => ({ rowsAffected });

/** The columns an insert of one row gives. */
const givenColumns = (plan: WritePlan): string[] =>
  plan.kind === 'insert' ? Object.keys(plan.rows[0]?.parent ?? {}) : [];

/** `db` for an insert of one statement, whose INSERT adds its events itself. */
function addingEvents(db: Executor, inInsert: (insert: Statement) => Statement): Executor {
  return { insertsReturn: db.insertsReturn, run: (statement) => db.run(inInsert(statement)) };
}
