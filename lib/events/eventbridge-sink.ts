/**
 * Delivers events to an Amazon EventBridge bus (PutEvents, ten at a time): each entry's Source is the event's
 * source, its DetailType the event's type (`Book.updated`), its Detail the whole CloudEvent, so that rules match on
 * either. An entry the bus refuses is that event's failure. It imports the AWS SDK's EventBridge client, so only
 * event-sink.ts requires it, when EVENTS_EVENTBRIDGE_BUS is set; the endpoint may be set by
 * AWS_ENDPOINT_URL_EVENTBRIDGE (tests).
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { awsBatchLimits, inBatches, type Sink } from './sink';

export function eventBridgeSink(bus: string, region: string): Sink['publish'] {
  const client = new EventBridgeClient({ region, maxAttempts: 3 });
  return (events) =>
    inBatches(events, awsBatchLimits, 4, async (batch) => {
      const entries = batch.map((event) => {
        const { source, type } = JSON.parse(event.event) as { source: string; type: string };
        return { EventBusName: bus, Source: source, DetailType: type, Detail: event.event };
      });
      const answer = await client.send(new PutEventsCommand({ Entries: entries }));
      return batch.map((_, i) => {
        const entry = answer.Entries?.[i];
        return entry?.ErrorCode ? `EventBridge refused it: ${entry.ErrorCode}: ${entry.ErrorMessage ?? ''}` : undefined;
      });
    });
}
