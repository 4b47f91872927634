/**
 * The sink the configuration names, if any: a Standard Webhooks endpoint (EVENTS_WEBHOOK_URL), signed with
 * EVENTS_WEBHOOK_SECRET or, on AWS, with the secret that EVENTS_WEBHOOK_SECRET_ARN names in Secrets Manager (read
 * when the sink is made: a drain function reads it once per container). Without one, events wait in the outbox:
 * nothing is published, and nothing is lost.
 */
import { checkWebhookSecret, type EventsConfig } from '../config';
import { type Sink, webhookDescription, webhookSink } from './webhook-sink';

export async function eventSink(settings: EventsConfig): Promise<Sink | undefined> {
  if (!settings.webhookUrl) return undefined;
  if (settings.webhookSecret) return webhookSink(settings.webhookUrl, settings.webhookSecret);
  const arn = settings.webhookSecretArn as string;
  const variable = 'EVENTS_WEBHOOK_SECRET_ARN';
  // required here, not imported: the Secrets Manager client is loaded only where a secret ARN is configured
  const { fetchSecret } = require('../db/fetch-secret') as typeof import('../db/fetch-secret');
  const secret = (await fetchSecret(arn, { what: 'the webhook secret', variable }))?.trim() ?? '';
  checkWebhookSecret(secret, `The secret ${arn} (${variable})`);
  return webhookSink(settings.webhookUrl, secret);
}

/** What a notice says of where events go, without reading any secret. */
export function sinkDescription(settings: EventsConfig): string | undefined {
  if (!settings.webhookUrl) return undefined;
  return webhookDescription(new URL(settings.webhookUrl));
}
