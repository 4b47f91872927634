/**
 * Delivers events to an Amazon SQS queue (SendMessageBatch, ten at a time): each message's body is the CloudEvent,
 * with the event's type as the message attribute `type`. On a FIFO queue (its URL ends in .fifo) the messages of one
 * row share a message group, so the queue keeps them in order, and the event id de-duplicates them. A message the
 * queue refuses is that event's failure. It imports the AWS SDK's SQS client, so only event-sink.ts requires it,
 * when EVENTS_SQS_QUEUE_URL is set; the endpoint may be set by AWS_ENDPOINT_URL_SQS (tests).
 */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { awsBatchLimits, failuresOf, inBatches, messageEntry, type Sink } from './sink';

export function sqsSink(queueUrl: string, region: string): Sink['publish'] {
  const client = new SQSClient({ region, maxAttempts: 3 });
  const fifo = queueUrl.endsWith('.fifo');
  return (events) =>
    inBatches(events, awsBatchLimits, 4, async (batch) => {
      const entries = batch.map((event, i) => ({ ...messageEntry(event, i, fifo), MessageBody: event.event }));
      const answer = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      return failuresOf(batch, answer.Failed, 'SQS');
    });
}
