/**
 * The drain of a long-running process (the server mode, `npm start`): every EVENTS_DRAIN_INTERVAL_MS, and at once
 * after a write of this process committed events, it drains the outbox of every database that has resources with
 * events. One drain runs at a time in the process (a nudge while it runs makes it go round once more), and the
 * databases' leases keep drains of other processes from publishing the same outbox at once. A failure (a database
 * down, an outbox not set up) is reported and tried again later, after a wait that doubles up to a minute (so a
 * lasting one is not a log line a second); it never stops the process.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../config';
import { onCommittedEvents } from './announce';
import { type DrainResult, drainOutbox } from './drain';
import { eventDatabases } from './event-databases';
import type { Sink } from './sink';

/** What one drain of one database did, or why it failed. */
export type DrainReport =
  | { readonly database: string; readonly result: DrainResult }
  | { readonly database: string; readonly error: unknown };

export interface DrainLoop {
  /** Drains now (and once more if it was draining already); resolves when that drain is done. */
  drainNow(): Promise<void>;
  /** No more drains; resolves once the one running is done. */
  stop(): Promise<void>;
}

/**
 * Drains every database with events once; `holder` names this process's drains in the leases. Resolves to whether
 * every database could be drained.
 */
export async function drainEventDatabases(
  settings: Config,
  sink: Sink,
  holder: string,
  report: (report: DrainReport) => void,
  budgetMs?: number,
): Promise<boolean> {
  let drained = true;
  for (const database of await eventDatabases(settings)) {
    try {
      const db = await database.open();
      const result = await drainOutbox(db, sink, { holder, maxAttempts: settings.events.maxAttempts, budgetMs });
      report({ database: database.name, result });
    } catch (error) {
      drained = false;
      report({ database: database.name, error });
    }
  }
  return drained;
}

/** After drains that failed (a database down, an outbox not set up), the next waits longer: up to a minute. */
const longestWaitMs = 60_000;

export function startDrainLoop(settings: Config, sink: Sink, report: (report: DrainReport) => void): DrainLoop {
  const holder = randomUUID();
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;
  const schedule = () => {
    const wait = Math.min(longestWaitMs, settings.events.drainIntervalMs * 2 ** failures);
    if (!stopped) timer = setTimeout(() => void drainNow(), wait).unref();
  };
  const drainNow = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    clearTimeout(timer);
    running = (async () => {
      do {
        again = false;
        const drained = await drainEventDatabases(settings, sink, holder, report).catch((error: unknown) => {
          report({ database: '', error });
          return false;
        });
        failures = drained ? 0 : Math.min(failures + 1, 16);
      } while (again && !stopped && failures === 0);
      running = undefined;
      schedule();
    })();
    return running;
  };
  const unsubscribe = onCommittedEvents(() => void drainNow());
  schedule();
  return {
    drainNow,
    async stop() {
      stopped = true;
      unsubscribe();
      clearTimeout(timer);
      await running;
    },
  };
}
