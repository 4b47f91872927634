/**
 * The sink the configuration names, if any (docs/events.md#sinks): a Standard Webhooks endpoint (EVENTS_WEBHOOK_URL,
 * signed with EVENTS_WEBHOOK_SECRET or, on AWS, with the secret EVENTS_WEBHOOK_SECRET_ARN names in Secrets Manager),
 * an EventBridge bus (EVENTS_EVENTBRIDGE_BUS), an SQS queue (EVENTS_SQS_QUEUE_URL) or an SNS topic
 * (EVENTS_SNS_TOPIC_ARN). Each AWS sink's SDK client is required only when it is the one configured, and a secret is
 * read when the sink is made (a drain function makes it once per container). Without a sink, events wait in the
 * outbox: nothing is published, and nothing is lost.
 */
import { checkWebhookSecret, type EventsConfig } from '../config';
import type { Sink } from './sink';
import { webhookDescription, webhookSink } from './webhook-sink';

/** What a notice and the drain's log line say of where events go, without reading any secret or loading an SDK. */
export function sinkDescription(settings: EventsConfig): string | undefined {
  if (settings.webhookUrl) return webhookDescription(new URL(settings.webhookUrl));
  if (settings.eventBridgeBus) return `EventBridge bus ${settings.eventBridgeBus}`;
  if (settings.sqsQueueUrl) return `SQS queue ${settings.sqsQueueUrl}`;
  if (settings.snsTopicArn) return `SNS topic ${settings.snsTopicArn}`;
  return undefined;
}

export async function eventSink(settings: EventsConfig, region: string): Promise<Sink | undefined> {
  const description = sinkDescription(settings);
  if (description === undefined) return undefined;
  // each required here, not imported: an SDK client is loaded only where its sink is configured
  if (settings.eventBridgeBus) {
    const { eventBridgeSink } = require('./eventbridge-sink') as typeof import('./eventbridge-sink');
    return { description, publish: eventBridgeSink(settings.eventBridgeBus, region) };
  }
  if (settings.sqsQueueUrl) {
    const { sqsSink } = require('./sqs-sink') as typeof import('./sqs-sink');
    return { description, publish: sqsSink(settings.sqsQueueUrl, region) };
  }
  if (settings.snsTopicArn) {
    const { snsSink } = require('./sns-sink') as typeof import('./sns-sink');
    return { description, publish: snsSink(settings.snsTopicArn, region) };
  }
  return webhookSink(settings.webhookUrl as string, await webhookSecret(settings));
}

async function webhookSecret(settings: EventsConfig): Promise<string> {
  if (settings.webhookSecret) return settings.webhookSecret;
  const arn = settings.webhookSecretArn as string;
  const variable = 'EVENTS_WEBHOOK_SECRET_ARN';
  const { fetchSecret } = require('../db/fetch-secret') as typeof import('../db/fetch-secret');
  const secret = (await fetchSecret(arn, { what: 'the webhook secret', variable }))?.trim() ?? '';
  checkWebhookSecret(secret, `The secret ${arn} (${variable})`);
  return secret;
}
