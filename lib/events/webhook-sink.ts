/**
 * Delivers an event to an HTTP webhook, signed the Standard Webhooks way (the `standardwebhooks` library): the body
 * is the CloudEvent in JSON (structured mode, `application/cloudevents+json`), with `webhook-id` (the event's id,
 * the same on every retry), `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 over id, timestamp and body).
 * A 2xx answer delivers it; anything else, or no answer within the timeout, is a failure the drain retries. Several
 * deliveries go at once, on connections kept alive.
 */
import { Webhook } from 'standardwebhooks';
import type { PendingEvent } from './outbox';
import { postText } from './post-text';
import { eachAtOnce, type Sink } from './sink';

/** Deliveries in flight at once (each of another row). */
const parallel = 8;

/** How a drain's log line names a webhook: its origin and path (a query string may carry a token). */
export function webhookDescription(url: URL): string {
  return `webhook ${url.origin}${url.pathname}`;
}

/** `timeoutMs`: how long a delivery waits for its answer (10 s). */
export function webhookSink(url: string, secret: string, timeoutMs = 10_000, now: () => Date = () => new Date()): Sink {
  const signer = new Webhook(secret);
  const target = new URL(url);
  return {
    description: webhookDescription(target),
    publish: (events) => eachAtOnce(events, parallel, deliver),
  };
  async function deliver(event: PendingEvent): Promise<void> {
    const sent = now();
    const headers = {
      'content-type': 'application/cloudevents+json',
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(sent.getTime() / 1000)),
      'webhook-signature': signer.sign(event.id, sent, event.event),
    };
    const status = await postText(target, headers, event.event, timeoutMs);
    if (status < 200 || status > 299) throw new Error(`the webhook answered ${status}`);
  }
}
