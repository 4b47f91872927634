/**
 * The outbox's statements: adding a write's events in its transaction, and what a drain asks of it (a lease, the
 * pending events in order, marking each published, failed or dead, the backlog, a replay). The tables are each
 * engine's (its SQL shape's eventTables); every statement here is plain SQL that both engines read alike, values
 * always parameters. Pure, but for writeOutbox and readBacklog.
 */
import type { Executor, Statement } from '../db/database';
import { drainsTable, outboxTable } from '../event-tables';
import { fittedStatements } from '../execute/statement-size';
import { ParamList } from '../sql/param-list';
import type { SqlShape } from '../sql-shape';
import type { Value } from '../values';
import type { OutboxEvent } from './change-events';

/** The lease a drain holds while it publishes (one row of the drains' table). */
const leaseName = 'drain';

/**
 * Adds the events to the outbox: a multi-row INSERT (more than one when they are many), the last of them the
 * transaction's last statement, sent with its COMMIT where the engine can (Executor.runWithCommit).
 */
export async function writeOutbox(tx: Executor, shape: SqlShape, events: readonly OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  const batches = await fittedStatements(shape, events, (run) => insertEvents(shape, run));
  const last = batches.pop();
  for (const batch of batches) await tx.run(batch.statement);
  // the transaction's last statement: with its COMMIT, in one round trip, where the engine can
  if (last && tx.runWithCommit) tx.runWithCommit(last.statement);
  else if (last) await tx.run(last.statement);
}

function insertEvents(shape: SqlShape, events: readonly OutboxEvent[]): Statement {
  const params = new ParamList(shape);
  const rows = events.map(
    (e) =>
      `(${[e.id, e.orderingKey, e.event, e.createdAt, e.createdAt].map((v) => params.add(v as Value)).join(', ')})`,
  );
  return params.compile(
    `INSERT INTO ${outboxTable} (id, ordering_key, event, created_at, next_attempt_at) VALUES ${rows.join(', ')}`,
  );
}

/** Takes the lease for `holder` until `until` (ms), if no other drain holds it now; rowsAffected 1 when taken. */
export function takeLease(shape: SqlShape, holder: string, now: number, until: number): Statement {
  const params = new ParamList(shape);
  const h = params.add(holder);
  const u = params.add(until);
  const name = params.add(leaseName);
  const n = params.add(now);
  const h2 = params.add(holder);
  return params.compile(
    `UPDATE ${drainsTable} SET holder = ${h}, until_ms = ${u} WHERE name = ${name} AND (until_ms < ${n} OR holder = ${h2})`,
  );
}

export function releaseLease(shape: SqlShape, holder: string): Statement {
  const params = new ParamList(shape);
  return params.compile(
    `UPDATE ${drainsTable} SET until_ms = 0 WHERE name = ${params.add(leaseName)} AND holder = ${params.add(holder)}`,
  );
}

/** An event waiting to be published, as the outbox holds it. */
export interface PendingEvent {
  readonly seq: string;
  readonly id: string;
  readonly orderingKey: string;
  readonly event: string;
  readonly createdAt: number;
  readonly attempts: number;
  readonly nextAttemptAt: number;
}

/** The oldest `limit` pending events, in the order they were written. */
export function selectPending(shape: SqlShape, limit: number): Statement {
  const params = new ParamList(shape);
  const text = `SELECT seq, id, ordering_key, event, created_at, attempts, next_attempt_at FROM ${outboxTable} WHERE state = ${params.add('pending')} ORDER BY seq LIMIT ${Math.trunc(limit)}`;
  return params.compile(text);
}

export function pendingOf(row: Readonly<Record<string, Value>>): PendingEvent {
  return {
    seq: String(row.seq),
    id: String(row.id),
    orderingKey: String(row.ordering_key),
    event: String(row.event),
    createdAt: Number(row.created_at),
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
  };
}

/** Published events leave the outbox. */
export function deletePublished(shape: SqlShape, seqs: readonly string[]): Statement {
  const params = new ParamList(shape);
  return params.compile(`DELETE FROM ${outboxTable} WHERE seq IN (${seqs.map((s) => params.add(s)).join(', ')})`);
}

/** A failed delivery: tried again at `nextAttemptAt`, or dead-lettered (state `dead`). */
export function markFailed(
  shape: SqlShape,
  event: PendingEvent,
  error: string,
  dead: boolean,
  nextAttemptAt: number,
): Statement {
  const params = new ParamList(shape);
  const set = [
    `state = ${params.add(dead ? 'dead' : 'pending')}`,
    `attempts = ${params.add(event.attempts + 1)}`,
    `next_attempt_at = ${params.add(nextAttemptAt)}`,
    `last_error = ${params.add(error.slice(0, 1000))}`,
  ];
  return params.compile(`UPDATE ${outboxTable} SET ${set.join(', ')} WHERE seq = ${params.add(event.seq)}`);
}

/** Per state: how many events, and when the oldest was written. */
export function selectBacklog(shape: SqlShape): Statement {
  return new ParamList(shape).compile(
    `SELECT state, COUNT(*) AS events, MIN(created_at) AS oldest FROM ${outboxTable} GROUP BY state`,
  );
}

/** An outbox's pending and dead-lettered events, each with the age of its oldest (absent when there is none). */
export interface OutboxBacklog {
  readonly pending: number;
  readonly deadLettered: number;
  readonly oldestPendingMs?: number;
  readonly oldestDeadMs?: number;
}

export async function readBacklog(db: Executor, shape: SqlShape, now: number): Promise<OutboxBacklog> {
  const rows = (await db.run(selectBacklog(shape))).rows;
  const of = (state: string) => rows.find((row) => row.state === state);
  const age = (state: string) => {
    const oldest = of(state)?.oldest;
    return oldest === null || oldest === undefined ? {} : { ms: Math.max(0, now - Number(oldest)) };
  };
  const pendingAge = age('pending').ms;
  const deadAge = age('dead').ms;
  return {
    pending: Number(of('pending')?.events ?? 0),
    deadLettered: Number(of('dead')?.events ?? 0),
    ...(pendingAge === undefined ? {} : { oldestPendingMs: pendingAge }),
    ...(deadAge === undefined ? {} : { oldestDeadMs: deadAge }),
  };
}

/** A failure to reach the outbox, with what to do when its tables are missing. */
export function withSetupHint(message: string): string {
  return /rrs_event/i.test(message)
    ? `${message}; create its tables with npm run events:setup -- <database URL>`
    : message;
}

/** Dead-lettered events (all, or the one of `id`) are pending again, from their first attempt. */
export function replayDead(shape: SqlShape, now: number, id?: string): Statement {
  // placeholders are added in the order they stand: MySQL's are positional
  const params = new ParamList(shape);
  const set = `state = ${params.add('pending')}, attempts = 0, next_attempt_at = ${params.add(now)}, last_error = NULL`;
  const dead = `state = ${params.add('dead')}`;
  const which = id === undefined ? '' : ` AND id = ${params.add(id)}`;
  return params.compile(`UPDATE ${outboxTable} SET ${set} WHERE ${dead}${which}`);
}
