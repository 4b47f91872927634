/**
 * Delivers an event to an HTTP webhook, signed the Standard Webhooks way (the `standardwebhooks` library): the body
 * is the CloudEvent in JSON (structured mode, `application/cloudevents+json`), with `webhook-id` (the event's id,
 * the same on every retry), `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 over id, timestamp and body).
 * A 2xx answer delivers it; anything else, or no answer within the timeout, is a failure the drain retries.
 */
import { Webhook } from 'standardwebhooks';
import type { PendingEvent } from './outbox';

/** Where a drain delivers events: resolves once one is delivered, rejects with what went wrong. */
export interface Sink {
  /** For the drain's log line: the kind of sink and where, without a secret. */
  readonly description: string;
  publish(event: PendingEvent): Promise<void>;
}

const timeoutMs = 10_000;

export function webhookSink(url: string, secret: string, now: () => Date = () => new Date()): Sink {
  const signer = new Webhook(secret);
  return {
    description: `webhook ${new URL(url).origin}${new URL(url).pathname}`,
    async publish(event) {
      const sent = now();
      const headers = {
        'content-type': 'application/cloudevents+json',
        'webhook-id': event.id,
        'webhook-timestamp': String(Math.floor(sent.getTime() / 1000)),
        'webhook-signature': signer.sign(event.id, sent, event.event),
      };
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: event.event,
        signal: AbortSignal.timeout(timeoutMs),
      });
      // the body is not needed, but must be read for the connection to be reused
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) throw new Error(`the webhook answered ${response.status}`);
    },
  };
}
