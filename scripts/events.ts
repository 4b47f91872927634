/**
 * Change events' tables and backlog, for an operator (docs/events.md):
 *   npm run events:setup -- URL            creates the outbox and the drains' lease in the database at URL (safe to
 *                                          run again)
 *   npm run events:status -- URL           the outbox's backlog: pending and dead-lettered events, and the oldest
 *   npm run events:replay -- URL [EVENT_ID] makes dead-lettered events (all, or the one) pending again
 * URL is a database URL as DATABASE_URL takes it; its password is never printed.
 */
import type { Database } from '../lib/db/database';
import { engineOfUrl } from '../lib/db/engines/registry';
import { maskUrl } from '../lib/db/mask-url';
import { readBacklog, replayDead } from '../lib/events/outbox';

const usage = 'usage: events.ts setup|status|replay <database URL> [event id, for replay]';

async function open(url: string): Promise<Database> {
  const connect = await engineOfUrl(url).driver();
  if (!connect) throw new Error(`no driver for ${maskUrl(url)}`);
  return connect(url, { connectTimeoutMs: 5000, statementTimeoutMs: 60_000, poolSize: 1, idleTimeoutS: 10 });
}

async function setup(db: Database, url: string): Promise<void> {
  for (const statement of engineOfUrl(url).sql.eventTables) await db.run({ text: statement, params: [] });
  console.log(`The change events' tables (rrs_events, rrs_event_drains) are ready in ${maskUrl(url)}`);
}

async function status(db: Database, url: string): Promise<void> {
  const backlog = await readBacklog(db, engineOfUrl(url).sql, Date.now());
  const line = (state: string, count: number, ms: number | undefined) =>
    console.log(`${state.padEnd(7)} ${count}${count > 0 && ms !== undefined ? `, oldest ${ageText(ms)} old` : ''}`);
  line('pending', backlog.pending, backlog.oldestPendingMs);
  line('dead', backlog.deadLettered, backlog.oldestDeadMs);
}

async function replay(db: Database, url: string, id: string | undefined): Promise<void> {
  const result = await db.run(replayDead(engineOfUrl(url).sql, Date.now(), id));
  const which = id === undefined ? 'dead-lettered events' : `dead-lettered event ${id}`;
  console.log(`${result.rowsAffected} ${which} pending again: the next drain publishes them`);
  if (id !== undefined && result.rowsAffected === 0) process.exitCode = 1;
}

function ageText(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

async function main(argv: readonly string[]): Promise<void> {
  const [command, url, id] = argv;
  if (!url || !['setup', 'status', 'replay'].includes(command ?? '')) {
    console.error(usage);
    process.exitCode = 2;
    return;
  }
  const db = await open(url);
  try {
    if (command === 'setup') await setup(db, url);
    else if (command === 'status') await status(db, url);
    else await replay(db, url, id);
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
