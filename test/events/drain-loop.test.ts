/**
 * The drain loop of a long-running process, on PGlite: a drain that cannot reach its outbox (its tables missing)
 * is reported, and tried again after a wait that doubles (not every interval); once the tables are there, the
 * next drain delivers and the loop is back to its interval.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readConfig } from '../../lib/config';
import { engineNamed, sqlShapeOf } from '../../lib/db/engines/registry';
import { closeDatabases } from '../../lib/db/select-database';
import { type DrainReport, startDrainLoop } from '../../lib/events/drain-loop';
import { writeOutbox } from '../../lib/events/outbox';
import { webhookSink } from '../../lib/events/webhook-sink';
import { connectTo } from '../support/connect';
import { type TestDatabase, targets } from '../support/databases';
import { testDefinitions } from '../support/service';
import { type Receiver, startReceiver, testSecret } from '../support/webhook-receiver';

const [pglite] = targets();
let db: TestDatabase;
let dir: string;
let receiver: Receiver;

beforeAll(async () => {
  db = await (pglite as NonNullable<typeof pglite>).create();
  dir = mkdtempSync(path.join(os.tmpdir(), 'rrs-drain-loop-'));
  const item = readFileSync(path.join(testDefinitions, 'Item.xml'), 'utf8');
  writeFileSync(path.join(dir, 'Item.xml'), item.replace('</query>', '</query><events on="insert"/>'));
  receiver = await startReceiver(() => 204);
});
afterAll(async () => {
  await closeDatabases();
  await receiver?.close();
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

it('backs off while the outbox cannot be read, and delivers once it can', async () => {
  const settings = readConfig({ DATABASE_URL: db.url, DEFINITIONS_DIR: dir, EVENTS_DRAIN_INTERVAL_MS: '20' });
  const reports: { at: number; report: DrainReport }[] = [];
  const started = Date.now();
  const loop = startDrainLoop(settings, webhookSink(receiver.url, testSecret), (report) =>
    reports.push({ at: Date.now() - started, report }),
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const failed = reports.filter(({ report }) => 'error' in report);
    // every 20 ms would be some 70 drains; doubling from 20 ms makes about 6
    expect(failed.length).toBeGreaterThanOrEqual(3);
    expect(failed.length).toBeLessThanOrEqual(8);
    expect(failed[0]?.report).toMatchObject({
      error: { message: expect.stringMatching(/"rrs_event_drains" does not exist/) },
    });
    for (const statement of engineNamed('postgres').sql.eventTables) await db.exec(statement);
    const client = await connectTo(db.url, {
      connectTimeoutMs: 5000,
      statementTimeoutMs: 5000,
      poolSize: 1,
      idleTimeoutS: 5,
    });
    const event = JSON.stringify({ specversion: '1.0', id: 'e-1', source: 's', type: 'Item.inserted', subject: '1' });
    await client.transaction((tx) =>
      writeOutbox(tx, sqlShapeOf('postgres'), [{ id: 'e-1', orderingKey: 'k', event, createdAt: Date.now() }]),
    );
    await client.close();
    await loop.drainNow();
    expect(receiver.delivered()).toEqual(['e-1']);
    expect(reports.at(-1)?.report).toMatchObject({ database: '', result: { leased: true, published: 1 } });
  } finally {
    await loop.stop();
  }
});
