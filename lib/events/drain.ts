/**
 * The drain: publishes a database's outbox to a sink, at least once and in order per row. One drain at a time holds
 * the database's lease; it takes the oldest pending events and publishes them in rounds: in each, the first pending
 * event of every row that is due, several at a time (different rows), then marks the round in the outbox (published
 * events are deleted; a failed one is tried again later, after a back-off that doubles, and dead-lettered after the
 * last attempt). A later event of a row waits while an earlier one of it is pending. A drain that dies after
 * publishing and before marking publishes those events again next time: consumers de-duplicate by the event id.
 */
import type { Database } from '../db/database';
import { sqlShapeOf } from '../db/engines/registry';
import type { SqlShape } from '../sql-shape';
import {
  deletePublished,
  markFailed,
  type PendingEvent,
  pendingOf,
  releaseLease,
  selectPending,
  takeLease,
} from './outbox';
import type { Sink } from './sink';

export interface DrainOptions {
  /** Who holds the lease: one id per process. */
  readonly holder: string;
  readonly maxAttempts: number;
  /** Events read per round trip. */
  readonly batch?: number;
  /** How long a lease lasts unless renewed: a drain that died frees the outbox after this. */
  readonly leaseMs?: number;
  /** The drain stops starting rounds after this long (a Lambda drain must end within its timeout). */
  readonly budgetMs?: number;
  readonly now?: () => number;
}

export interface DrainResult {
  /** False when another drain held the lease: this one did nothing. */
  readonly leased: boolean;
  readonly published: number;
  readonly failed: number;
  readonly deadLettered: number;
  /** Age of the oldest event still pending after the drain, in ms (0: none). */
  readonly oldestPendingMs: number;
}

const firstRetryMs = 1000;
const longestRetryMs = 5 * 60_000;

/** The wait before attempt `attempts + 1`: 1 s, doubling to 5 min, with up to a fifth more at random. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(longestRetryMs, firstRetryMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (1 + random() / 5));
}

export async function drainOutbox(db: Database, sink: Sink, options: DrainOptions): Promise<DrainResult> {
  const shape = sqlShapeOf(db.engine);
  const now = options.now ?? Date.now;
  const leaseMs = options.leaseMs ?? 30_000;
  const lease = () => db.run(takeLease(shape, options.holder, now(), now() + leaseMs));
  const result = { leased: (await lease()).rowsAffected === 1, published: 0, failed: 0, deadLettered: 0 };
  if (!result.leased) return { ...result, oldestPendingMs: 0 };
  try {
    const started = now();
    const budget = options.budgetMs ?? Number.POSITIVE_INFINITY;
    for (;;) {
      const pending = (await db.run(selectPending(shape, options.batch ?? 200))).rows.map(pendingOf);
      const round = dueRound(pending, now());
      if (round.length === 0) break;
      const outcomes = await sink.publish(round);
      const marked = await markRound(db, shape, round, outcomes, options.maxAttempts, now);
      result.published += marked.published;
      result.failed += marked.failed;
      result.deadLettered += marked.deadLettered;
      if (now() - started > budget) break;
      await lease();
    }
    const [oldest] = (await db.run(selectPending(shape, 1))).rows.map(pendingOf);
    return { ...result, oldestPendingMs: oldest ? Math.max(0, now() - oldest.createdAt) : 0 };
  } finally {
    await db.run(releaseLease(shape, options.holder));
  }
}

/** Marks a round in the outbox: the delivered events deleted in one statement, each failed one tried again later. */
async function markRound(
  db: Database,
  shape: SqlShape,
  round: readonly PendingEvent[],
  failures: readonly (string | undefined)[],
  maxAttempts: number,
  now: () => number,
): Promise<{ published: number; failed: number; deadLettered: number }> {
  const published = round.filter((_, i) => failures[i] === undefined).map((e) => e.seq);
  if (published.length > 0) await db.run(deletePublished(shape, published));
  let failed = 0;
  let deadLettered = 0;
  for (const [i, event] of round.entries()) {
    const error = failures[i];
    if (error === undefined) continue;
    const dead = event.attempts + 1 >= maxAttempts;
    await db.run(markFailed(shape, event, error, dead, now() + retryDelayMs(event.attempts + 1)));
    if (dead) deadLettered++;
    else failed++;
  }
  return { published: published.length, failed, deadLettered };
}

/** The first pending event of each row, in outbox order, when it is due (a row whose first is not yet due waits). */
export function dueRound(pending: readonly PendingEvent[], now: number): PendingEvent[] {
  const seen = new Set<string>();
  const round: PendingEvent[] = [];
  for (const event of pending) {
    if (seen.has(event.orderingKey)) continue;
    seen.add(event.orderingKey);
    if (event.nextAttemptAt <= now) round.push(event);
  }
  return round;
}
