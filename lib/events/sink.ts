/**
 * Where a drain delivers events: a sink takes a round of events (each of another row, so their order among
 * themselves does not matter) and tells, for each, whether it was delivered. The ways a sink sends a round: each
 * event by itself, several at once (a webhook), or in batches of a few (the AWS sinks' batch APIs).
 */
import { createHash } from 'node:crypto';
import type { PendingEvent } from './outbox';

/** Each event's failure, in the order given: undefined where it was delivered. */
export type Outcomes = (string | undefined)[];

export interface Sink {
  /** For the drain's log line: the kind of sink and where, without a secret. */
  readonly description: string;
  publish(events: readonly PendingEvent[]): Promise<Outcomes>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** `deliver` each event, at most `parallel` at once; a rejection is that event's failure. */
export async function eachAtOnce(
  events: readonly PendingEvent[],
  parallel: number,
  deliver: (event: PendingEvent) => Promise<void>,
): Promise<Outcomes> {
  const outcomes: Outcomes = new Array(events.length).fill(undefined);
  let next = 0;
  const worker = async () => {
    while (next < events.length) {
      const i = next++;
      await deliver(events[i] as PendingEvent).catch((error: unknown) => {
        outcomes[i] = messageOf(error);
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, events.length) }, worker));
  return outcomes;
}

/**
 * The batches of PutEvents, SendMessageBatch and PublishBatch: ten entries and 256 KB a call; the entries' other
 * fields are counted with a margin.
 */
export const awsBatchLimits: BatchLimits = { entries: 10, bytes: 200 * 1024 };

/** How big a batch may be: at most `entries` events, of at most `bytes` of event text together. */
export interface BatchLimits {
  readonly entries: number;
  readonly bytes: number;
}

/**
 * The events in batches within `limits` (an event bigger than `bytes` goes alone, for the service to refuse),
 * `parallel` batches at once; `send` tells each event's failure in its batch, and a rejection fails the whole batch.
 */
export async function inBatches(
  events: readonly PendingEvent[],
  limits: BatchLimits,
  parallel: number,
  send: (batch: readonly PendingEvent[]) => Promise<Outcomes>,
): Promise<Outcomes> {
  const batches: PendingEvent[][] = [];
  let bytes = 0;
  for (const event of events) {
    const size = Buffer.byteLength(event.event);
    const last = batches[batches.length - 1];
    if (!last || last.length >= limits.entries || bytes + size > limits.bytes) {
      batches.push([event]);
      bytes = size;
    } else {
      last.push(event);
      bytes += size;
    }
  }
  const outcomes: Outcomes[] = new Array(batches.length);
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const i = next++;
      const batch = batches[i] as PendingEvent[];
      outcomes[i] = await send(batch).catch((error: unknown) => batch.map(() => messageOf(error)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, batches.length) }, worker));
  return outcomes.flat();
}

/**
 * The entry of an event in a queue's or topic's batch (SQS, SNS), less its text: its id in the batch, the event's
 * type as the message attribute `type`, and on a FIFO queue or topic its row's message group and its id to
 * de-duplicate by.
 */
export function messageEntry(event: PendingEvent, i: number, fifo: boolean) {
  const type = (JSON.parse(event.event) as { type: string }).type;
  return {
    Id: String(i),
    MessageAttributes: { type: { DataType: 'String', StringValue: type } },
    ...(fifo ? { MessageGroupId: messageGroupOf(event), MessageDeduplicationId: event.id } : {}),
  };
}

/** Each event's failure, from the failed entries a batch's answer lists by their ids. */
export function failuresOf(
  batch: readonly PendingEvent[],
  failed: readonly { Id?: string; Code?: string; Message?: string }[] | undefined,
  service: string,
): Outcomes {
  const byId = new Map((failed ?? []).map((f) => [f.Id, `${service} refused it: ${f.Code}: ${f.Message ?? ''}`]));
  return batch.map((_, i) => byId.get(String(i)));
}

/** A FIFO queue's or topic's message group of an event: its row, hashed to the 128 characters a group id may have. */
export function messageGroupOf(event: PendingEvent): string {
  return createHash('sha256').update(event.orderingKey).digest('hex');
}
