/**
 * The backlog of every database with change events, for GET /health/events and an operator: per database, its
 * pending and dead-lettered events and the age of the oldest pending one; a database whose outbox cannot be read
 * says why (the tables missing: run npm run events:setup). Named by the definitions' database name only: no host, no
 * password.
 */
import type { Config } from '../config';
import { sqlShapeOf } from '../db/engines/registry';
import { eventDatabases } from './event-databases';
import { readBacklog, withSetupHint } from './outbox';

export type Backlog =
  | {
      readonly database: string;
      readonly status: 'ok';
      readonly pending: number;
      readonly deadLettered: number;
      /** Seconds since the oldest pending event was written; 0 when none is pending. */
      readonly oldestPendingS: number;
    }
  | { readonly database: string; readonly status: 'failed'; readonly error: string };

export async function outboxBacklogs(settings: Config, now = Date.now()): Promise<Backlog[]> {
  const databases = await eventDatabases(settings);
  return Promise.all(
    databases.map(async ({ name, open }): Promise<Backlog> => {
      const database = name === '' ? 'DATABASE_URL' : name;
      try {
        const db = await open();
        const backlog = await readBacklog(db, sqlShapeOf(db.engine), now);
        const { pending, deadLettered, oldestPendingMs = 0 } = backlog;
        return { database, status: 'ok', pending, deadLettered, oldestPendingS: Math.round(oldestPendingMs / 1000) };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { database, status: 'failed', error: withSetupHint(message) };
      }
    }),
  );
}
