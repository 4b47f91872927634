/**
 * The webhook sink against receivers of the test's own: a 2xx delivers, with a Standard Webhooks signature that a
 * consumer's library accepts and a body that is the event as the outbox holds it; any other status, a receiver
 * that does not answer in time, and one that is not there are failures that say what happened.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PendingEvent } from '../../lib/events/outbox';
import { webhookSink } from '../../lib/events/webhook-sink';
import { freePort } from '../support/local-process';
import { startReceiver, testSecret } from '../support/webhook-receiver';

const event: PendingEvent = {
  seq: '1',
  id: '0b6f3c5e-8a51-4f0e-9a61-2a0f7f4d2b11',
  orderingKey: '["T","t","1"]',
  event: JSON.stringify({
    specversion: '1.0',
    id: '0b6f3c5e-8a51-4f0e-9a61-2a0f7f4d2b11',
    subject: '1',
    type: 'T.inserted',
  }),
  createdAt: 0,
  attempts: 0,
  nextAttemptAt: 0,
};

it.each([
  [204, 'delivered'],
  [200, 'delivered'],
  [299, 'delivered'],
  [301, 'the webhook answered 301'],
  [404, 'the webhook answered 404'],
  [500, 'the webhook answered 500'],
])('an answer %i: %s', async (status, outcome) => {
  const receiver = await startReceiver(() => status);
  try {
    const [failure] = await webhookSink(receiver.url, testSecret).publish([event]);
    expect(failure ?? 'delivered').toBe(outcome);
    expect(receiver.refused).toEqual([]);
    expect(receiver.receipts.map((r) => r.event)).toEqual([JSON.parse(event.event)]);
  } finally {
    await receiver.close();
  }
});

it('a receiver that does not answer in time is a failure that says so', async () => {
  const silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    expect(await webhookSink(url, testSecret, 200).publish([event])).toEqual(['no answer within 0.2 s']);
  } finally {
    silent.closeAllConnections();
    silent.close();
  }
});

it('a receiver that is not there is a failure', async () => {
  const url = `http://127.0.0.1:${await freePort()}/`;
  expect(await webhookSink(url, testSecret).publish([event])).toEqual([expect.stringMatching(/ECONNREFUSED/)]);
});

it('delivers a round several at once, and tells each failure in its place', async () => {
  const events = ['1', '2', '3', '4', '5'].map((n) => ({
    ...event,
    id: `00000000-0000-4000-8000-00000000000${n}`,
    event: JSON.stringify({ ...JSON.parse(event.event), id: `00000000-0000-4000-8000-00000000000${n}`, subject: n }),
  }));
  const receiver = await startReceiver((id) => (id.endsWith('3') ? 503 : 204));
  try {
    const outcomes = await webhookSink(receiver.url, testSecret).publish(events);
    expect(outcomes).toEqual([undefined, undefined, 'the webhook answered 503', undefined, undefined]);
    expect(receiver.receipts.map((r) => r.row).sort()).toEqual(['1', '2', '3', '4', '5']);
  } finally {
    await receiver.close();
  }
});
