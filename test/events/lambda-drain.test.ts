/**
 * Change events on Lambda, against local endpoints that speak the AWS wire protocols (Secrets Manager, Lambda): a
 * write that announced events invokes the drain function asynchronously (once a second at most per container,
 * and a refused invocation never fails the write); the drain function reads the webhook's secret from Secrets
 * Manager and delivers the outbox, signed; a secret that is no whsec_ secret is a failure that says so.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Context } from 'aws-lambda';
import { handler as drain } from '../../handlers/events-drain';
import { engineNamed } from '../../lib/db/engines/registry';
import { forgetNudges } from '../../lib/events/nudge-drain';
import { forgetDrainSink } from '../../lib/server/events-drain';
import { targets } from '../support/databases';
import { type FakeLambda, startFakeLambda } from '../support/fake-lambda';
import { type FakeSecretsManager, fakeAwsEnv, startFakeSecretsManager } from '../support/fake-secrets-manager';
import { useFixture } from '../support/fixture';
import { invoke, testDefinitions, useService } from '../support/service';
import { type Receiver, startReceiver, testSecret } from '../support/webhook-receiver';

const secretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/webhook-AbCdEf';
const badArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/not-whsec-AbCdEf';
const drainName = 'rrs-test-eventsDrain';

/** A Lambda context with the time left that the drain budgets by. */
const context = (requestId: string) =>
  ({ awsRequestId: requestId, getRemainingTimeInMillis: () => 60_000 }) as unknown as Context;

const [pglite] = targets();

describe('change events on Lambda', () => {
  const fx = useFixture(pglite as NonNullable<typeof pglite>);
  let secrets: FakeSecretsManager;
  let lambda: FakeLambda;
  let receiver: Receiver;
  let dir: string;
  const saved = { ...process.env };

  const post = (name: string) =>
    invoke({
      method: 'POST',
      path: '/res/Item',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `name=${name}`,
    });

  beforeAll(async () => {
    for (const statement of engineNamed('postgres').sql.eventTables) await fx.db.exec(statement);
    secrets = await startFakeSecretsManager();
    secrets.set(secretArn, { secretString: testSecret });
    secrets.set(badArn, { secretString: 'hunter2' });
    lambda = await startFakeLambda();
    receiver = await startReceiver(() => 204);
    dir = mkdtempSync(path.join(os.tmpdir(), 'rrs-lambda-events-'));
    const item = readFileSync(path.join(testDefinitions, 'Item.xml'), 'utf8');
    writeFileSync(path.join(dir, 'Item.xml'), item.replace('</query>', '</query><events on="insert"/>'));
    Object.assign(process.env, fakeAwsEnv(secrets.endpoint), { AWS_ENDPOINT_URL_LAMBDA: lambda.endpoint });
    await useService({
      DATABASE_URL: fx.db.url,
      DEFINITIONS_DIR: dir,
      AWS_LAMBDA_FUNCTION_NAME: 'rrs-test-insert',
      EVENTS_DRAIN_FUNCTION: drainName,
      EVENTS_WEBHOOK_URL: receiver.url,
      EVENTS_WEBHOOK_SECRET_ARN: secretArn,
    });
  });
  beforeEach(async () => {
    forgetNudges();
    lambda.invocations.length = 0;
    lambda.answer(202);
    await fx.db.exec('DELETE FROM rrs_events');
  });
  afterAll(async () => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    await useService({});
    forgetNudges();
    await secrets?.stop();
    await lambda?.stop();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a write that announced events invokes the drain function asynchronously, at most once a second', async () => {
    expect((await post('nudged-1')).status).toBe(200);
    expect((await post('nudged-2')).status).toBe(200);
    expect(lambda.invocations).toEqual([
      { functionName: drainName, invocationType: 'Event', payload: '{"nudge":true}' },
    ]);
  });

  it('a refused invocation does not fail the write: the schedule drains its events', async () => {
    // the role may not invoke the drain: refused at once, not tried again
    lambda.answer(403, 'AccessDeniedException');
    expect((await post('refused')).status).toBe(200);
    expect(lambda.invocations).toHaveLength(1);
    expect(await fx.db.exec('SELECT count(*)::int AS n FROM rrs_events')).toEqual([{ n: 1 }]);
  });

  it('the drain function reads the secret and delivers the outbox, signed', async () => {
    await post('delivered-1');
    await post('delivered-2');
    const reports = await drain({}, context('drain-1'));
    expect(reports).toEqual([
      { database: '', leased: true, published: 2, failed: 0, deadLettered: 0, oldestPendingMs: 0 },
    ]);
    expect(receiver.refused).toEqual([]);
    expect(receiver.receipts.map((r) => (r.event.data as { after: { name: string } }).after.name)).toEqual([
      'delivered-1',
      'delivered-2',
    ]);
    expect(secrets.calls(secretArn)).toBe(1);
    await drain({}, context('drain-2'));
    // read once per container
    expect(secrets.calls(secretArn)).toBe(1);
  });

  it('a secret that is no whsec_ secret is a failure that names it, and is read again next time', async () => {
    await useService({ EVENTS_WEBHOOK_SECRET_ARN: badArn });
    forgetDrainSink();
    const message = `The secret ${badArn} (EVENTS_WEBHOOK_SECRET_ARN) must be a whsec_ secret: whsec_ and at least 12 bytes in base64`;
    await expect(drain({}, context('drain-3'))).rejects.toThrow(message);
    await expect(drain({}, context('drain-4'))).rejects.toThrow(message);
    expect(secrets.calls(badArn)).toBe(2);
    await useService({ EVENTS_WEBHOOK_SECRET_ARN: secretArn });
    forgetDrainSink();
  });
});
