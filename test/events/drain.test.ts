/**
 * The drain on every database, against a webhook receiver of the test's own that checks every signature the
 * Standard Webhooks way: every event arrives, in order per row, when the receiver fails the first attempts; an event
 * that keeps failing is dead-lettered, stops blocking its row, and is delivered once replayed; one drain at a time
 * holds a database's outbox; a drain whose connection drops after delivering and before marking loses nothing, and
 * the next one delivers again only what was not marked.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../lib/db/database';
import { engineNamed, sqlShapeOf } from '../../lib/db/engines/registry';
import type { OutboxEvent } from '../../lib/events/change-events';
import { type DrainOptions, drainOutbox } from '../../lib/events/drain';
import { replayDead, selectBacklog, takeLease, writeOutbox } from '../../lib/events/outbox';
import type { Sink } from '../../lib/events/sink';
import { webhookSink } from '../../lib/events/webhook-sink';
import { connectTo } from '../support/connect';
import { type TestDatabase, targets } from '../support/databases';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { type Receiver, testSecret as secret, startReceiver } from '../support/webhook-receiver';

/** Events of rows `a`, `b`, `c`, written in this order, each with the row as its subject. */
function eventsOf(rows: readonly string[], time: number): OutboxEvent[] {
  return rows.map((row) => {
    const id = randomUUID();
    const event = JSON.stringify({ specversion: '1.0', id, source: 'test', type: 'T.updated', subject: row });
    return { id, orderingKey: JSON.stringify(['T', 't', row]), event, createdAt: time };
  });
}

describe.each(targets())('the drain on $name', (target) => {
  let db: TestDatabase;
  let client: Database;
  let clock: number;
  const receivers: Receiver[] = [];
  /** A receiver whose refusals (a bad signature, not a CloudEvent) fail the test. */
  const receiverOf = async (answer: (id: string, attempt: number) => number) => {
    const started = await startReceiver(answer);
    receivers.push(started);
    return started;
  };
  const options = (more: Partial<DrainOptions> = {}): DrainOptions => ({
    holder: 'test-drain',
    maxAttempts: 4,
    now: () => clock,
    ...more,
  });
  const shape = sqlShapeOf(target.engine);
  const write = async (events: readonly OutboxEvent[]) => {
    await client.transaction((tx) => writeOutbox(tx, shape, events));
  };
  const backlog = async () =>
    Object.fromEntries((await client.run(selectBacklog(shape))).rows.map((r) => [r.state, Number(r.events)]));
  /** Drains until nothing is left to try, the clock moved past every back-off between drains. */
  const drainAll = async (sink: Sink, more: Partial<DrainOptions> = {}) => {
    for (let i = 0; i < 20; i++) {
      await drainOutbox(client, sink, options(more));
      if (!(await backlog()).pending) return;
      clock += 10 * 60_000;
    }
    throw new Error('the outbox never emptied');
  };

  beforeAll(async () => {
    db = await target.create();
    for (const statement of engineNamed(target.engine).sql.eventTables) await db.exec(statement);
    client = await connectTo(db.url, {
      connectTimeoutMs: 5000,
      statementTimeoutMs: 10_000,
      poolSize: 2,
      idleTimeoutS: 5,
    });
  });
  beforeEach(async () => {
    clock = Date.now();
    await db.exec('DELETE FROM rrs_events');
    await db.exec('UPDATE rrs_event_drains SET holder = NULL, until_ms = 0');
  });
  afterEach(() => {
    expect(receivers.flatMap((receiver) => receiver.refused)).toEqual([]);
    receivers.length = 0;
  });
  afterAll(async () => {
    await client?.close();
    await db?.drop();
  });

  it('delivers every event, signed, in order per row, when the receiver fails the first attempts', async () => {
    const events = eventsOf(['a', 'b', 'a', 'c', 'b', 'a', 'c'], clock);
    await write(events);
    const [a1, b1, , , b2] = events;
    const receiver = await receiverOf((id, attempt) =>
      (id === a1?.id && attempt <= 2) || (id === b2?.id && attempt === 1) || (id === b1?.id && attempt === 1)
        ? 503
        : 204,
    );
    try {
      await drainAll(webhookSink(receiver.url, secret));
      // each delivered once (every delivery was marked), and each row's in the order written
      expect([...receiver.delivered()].sort()).toEqual(events.map((e) => e.id).sort());
      for (const row of ['a', 'b', 'c']) {
        const written = events.filter((e) => JSON.parse(e.event).subject === row).map((e) => e.id);
        expect(receiver.receipts.filter((r) => r.row === row && r.answered < 300).map((r) => r.id)).toEqual(written);
      }
      expect(receiver.receipts.filter((r) => r.answered === 503)).toHaveLength(4);
      expect(await backlog()).toEqual({});
    } finally {
      await receiver.close();
    }
  });

  it('dead-letters an event after the last attempt; its row goes on; a replay delivers it', async () => {
    const events = eventsOf(['a', 'a', 'b'], clock);
    await write(events);
    const [poison, after] = events;
    let healed = false;
    const receiver = await receiverOf((id) => (id === poison?.id && !healed ? 500 : 200));
    try {
      await drainAll(webhookSink(receiver.url, secret));
      expect(receiver.receipts.filter((r) => r.id === poison?.id).map((r) => r.answered)).toEqual([500, 500, 500, 500]);
      expect(receiver.delivered()).toEqual(expect.arrayContaining([after?.id, events[2]?.id]));
      expect(await backlog()).toEqual({ dead: 1 });
      const [dead] = await db.exec(`SELECT attempts, last_error FROM rrs_events WHERE state = 'dead'`);
      expect(dead).toEqual({ attempts: 4, last_error: 'the webhook answered 500' });
      healed = true;
      expect((await client.run(replayDead(shape, clock, poison?.id))).rowsAffected).toBe(1);
      await drainAll(webhookSink(receiver.url, secret));
      expect(receiver.delivered().filter((id) => id === poison?.id)).toHaveLength(1);
      expect(await backlog()).toEqual({});
    } finally {
      await receiver.close();
    }
  });

  it('one drain at a time: while another holds the lease this one delivers nothing; after it lapses, it does', async () => {
    await write(eventsOf(['a', 'b'], clock));
    await client.run(takeLease(shape, 'another-drain', clock, clock + 30_000));
    const receiver = await receiverOf(() => 200);
    try {
      const sink = webhookSink(receiver.url, secret);
      expect(await drainOutbox(client, sink, options())).toMatchObject({ leased: false, published: 0 });
      expect(receiver.receipts).toEqual([]);
      clock += 31_000;
      expect(await drainOutbox(client, sink, options())).toMatchObject({ leased: true, published: 2 });
      expect(receiver.delivered()).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it('a connection dropped after delivering and before marking loses nothing; only the unmarked come again', async () => {
    const events = eventsOf(['a', 'b', 'a'], clock);
    await write(events);
    const [a1, b1, a2] = events;
    const url = new URL(db.url);
    const proxy: TcpProxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
    const viaProxy = await connectTo(proxy.url(db.url), {
      connectTimeoutMs: 5000,
      statementTimeoutMs: 10_000,
      poolSize: 1,
      idleTimeoutS: 5,
    });
    const receiver = await receiverOf(() => 200);
    const webhook = webhookSink(receiver.url, secret);
    // the second round (a2) is delivered, then the connection drops as the drain marks it
    const breaking: Sink = {
      description: webhook.description,
      publish: async (events) => {
        const outcomes = await webhook.publish(events);
        if (events.some((event) => event.id === a2?.id))
          proxy.drop({ direction: 'toServer', at: /DELETE FROM rrs_events/i, how: 'reset' });
        return outcomes;
      },
    };
    try {
      await expect(drainOutbox(viaProxy, breaking, options())).rejects.toThrow();
      expect(receiver.delivered()).toEqual([a1?.id, b1?.id, a2?.id]);
      clock += 60_000;
      await drainAll(webhook);
      expect(receiver.delivered()).toEqual([a1?.id, b1?.id, a2?.id, a2?.id]);
      expect(await backlog()).toEqual({});
    } finally {
      await viaProxy.close().catch(() => undefined);
      await proxy.close();
      await receiver.close();
    }
  });
});
