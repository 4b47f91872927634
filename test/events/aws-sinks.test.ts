/**
 * The AWS sinks of change events, made from the configuration as the drain makes them, against a local endpoint
 * that speaks EventBridge's, SQS's and SNS's wire protocols and records the calls (no AWS here): a round goes in
 * batches of ten, each entry the CloudEvent with its type (and EventBridge's source); a FIFO queue or topic gets
 * each row's message group and the event id to de-duplicate by; an entry the service refuses is that event's
 * failure, naming the service, and only that one's. Then the drain empties an outbox through one of them.
 */
import { createHash, randomUUID } from 'node:crypto';
import { type EventsConfig, readConfig } from '../../lib/config';
import { engineNamed, sqlShapeOf } from '../../lib/db/engines/registry';
import { drainOutbox } from '../../lib/events/drain';
import { eventSink } from '../../lib/events/event-sink';
import { type PendingEvent, selectBacklog, writeOutbox } from '../../lib/events/outbox';
import { connectTo } from '../support/connect';
import { targets } from '../support/databases';
import { type FakeAwsEvents, fakeAwsEnv, startFakeAwsEvents } from '../support/fake-aws-events';

/** The SDK sends to the queue's own URL (the queue URL is the endpoint), so the queue is the fake's. */
const queueUrl = () => `${aws.endpoint}/123456789012/rrs-events`;
const topicArn = 'arn:aws:sns:eu-west-1:123456789012:rrs-events';

/** `count` events of as many rows, as the outbox holds them. */
function pendingEvents(count: number): PendingEvent[] {
  return Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    const event = JSON.stringify({
      specversion: '1.0',
      id,
      source: 'rrs/res/T',
      type: 'T.inserted',
      subject: String(i),
    });
    return {
      seq: String(i + 1),
      id,
      orderingKey: JSON.stringify(['T', 't', String(i)]),
      event,
      createdAt: 0,
      attempts: 0,
      nextAttemptAt: 0,
    };
  });
}

const sinkOf = async (env: Record<string, string>) => {
  const settings: EventsConfig = readConfig(env).events;
  const sink = await eventSink(settings, 'eu-west-1');
  if (!sink) throw new Error('no sink');
  return sink;
};

let aws: FakeAwsEvents;
const saved = { ...process.env };

beforeAll(async () => {
  aws = await startFakeAwsEvents();
  Object.assign(process.env, fakeAwsEnv(''), {
    AWS_ENDPOINT_URL_EVENTBRIDGE: aws.endpoint,
    AWS_ENDPOINT_URL_SQS: aws.endpoint,
    AWS_ENDPOINT_URL_SNS: aws.endpoint,
  });
});
beforeEach(() => {
  aws.calls.length = 0;
  aws.refuse(() => false);
});
afterAll(async () => {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
  await aws?.stop();
});

describe.each([
  ['EventBridge', 'EVENTS_EVENTBRIDGE_BUS', () => 'rrs-bus', 'eventbridge'],
  ['SQS', 'EVENTS_SQS_QUEUE_URL', queueUrl, 'sqs'],
  ['SQS FIFO', 'EVENTS_SQS_QUEUE_URL', () => `${queueUrl()}.fifo`, 'sqs'],
  ['SNS', 'EVENTS_SNS_TOPIC_ARN', () => topicArn, 'sns'],
  ['SNS FIFO', 'EVENTS_SNS_TOPIC_ARN', () => `${topicArn}.fifo`, 'sns'],
])('%s', (name, variable, targetOf, service) => {
  const fifo = name.endsWith('FIFO');
  const env = () => ({ [variable]: targetOf() });

  it('takes a round in batches of ten, each entry the CloudEvent with its type', async () => {
    const sink = await sinkOf(env());
    const target = targetOf();
    const events = pendingEvents(23);
    expect(await sink.publish(events)).toEqual(events.map(() => undefined));
    // the batches go several at once: in any order
    expect(aws.calls.map((call) => call.length).sort()).toEqual([10, 10, 3]);
    const entries = aws.calls.flat();
    expect(entries.map((e) => e.body).sort()).toEqual(events.map((e) => e.event).sort());
    for (const entry of entries) {
      expect(entry).toMatchObject({ service, target, type: 'T.inserted' });
      if (service === 'eventbridge') expect(entry.source).toBe('rrs/res/T');
      const event = events.find((e) => e.event === entry.body) as PendingEvent;
      expect(entry.groupId).toBe(fifo ? createHash('sha256').update(event.orderingKey).digest('hex') : undefined);
      expect(entry.deduplicationId).toBe(fifo ? event.id : undefined);
    }
  });

  it('tells the failure of each entry refused, and of no other', async () => {
    const sink = await sinkOf(env());
    const events = pendingEvents(12);
    aws.refuse((body) => ['3', '11'].includes(JSON.parse(body).subject));
    const outcomes = await sink.publish(events);
    const failed = outcomes.flatMap((outcome, i) => (outcome === undefined ? [] : [[i, outcome]]));
    const label = { eventbridge: 'EventBridge', sqs: 'SQS', sns: 'SNS' }[service as 'sqs'];
    expect(failed).toEqual([
      [3, expect.stringMatching(new RegExp(`^${label} refused it: \\w+: refused by the fake$`))],
      [11, expect.stringMatching(new RegExp(`^${label} refused it: \\w+: refused by the fake$`))],
    ]);
  });
});

it('only one sink at a time', () => {
  expect(() => readConfig({ EVENTS_SQS_QUEUE_URL: queueUrl(), EVENTS_SNS_TOPIC_ARN: topicArn })).toThrow(
    'Change events go to one sink, and EVENTS_SQS_QUEUE_URL, EVENTS_SNS_TOPIC_ARN are set: keep one',
  );
});

it('the drain empties an outbox through an AWS sink', async () => {
  const [pglite] = targets();
  const db = await (pglite as NonNullable<typeof pglite>).create();
  const client = await connectTo(db.url, {
    connectTimeoutMs: 5000,
    statementTimeoutMs: 10_000,
    poolSize: 1,
    idleTimeoutS: 5,
  });
  try {
    for (const statement of engineNamed('postgres').sql.eventTables) await db.exec(statement);
    const events = pendingEvents(25);
    await client.transaction((tx) =>
      writeOutbox(
        tx,
        sqlShapeOf('postgres'),
        events.map((e) => ({ ...e, createdAt: Date.now() })),
      ),
    );
    const sink = await sinkOf({ EVENTS_SQS_QUEUE_URL: queueUrl() });
    const result = await drainOutbox(client, sink, { holder: 'aws-test', maxAttempts: 3 });
    expect(result).toMatchObject({ leased: true, published: 25, failed: 0 });
    expect(aws.calls.flat()).toHaveLength(25);
    expect((await client.run(selectBacklog(sqlShapeOf('postgres')))).rows).toEqual([]);
  } finally {
    await client.close();
    await db.drop();
  }
});
