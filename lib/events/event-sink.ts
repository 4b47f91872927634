/**
 * The sink the configuration names, if any: a Standard Webhooks endpoint (EVENTS_WEBHOOK_URL with
 * EVENTS_WEBHOOK_SECRET). Without one, events wait in the outbox: nothing is published, and nothing is lost.
 */
import type { EventsConfig } from '../config';
import { type Sink, webhookSink } from './webhook-sink';

export function eventSink(settings: EventsConfig): Sink | undefined {
  if (settings.webhookUrl && settings.webhookSecret) return webhookSink(settings.webhookUrl, settings.webhookSecret);
  return undefined;
}
