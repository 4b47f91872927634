/**
 * Delivers events to an Amazon SNS topic (PublishBatch, ten at a time): each message is the CloudEvent, with the
 * event's type as the message attribute `type` (for subscription filter policies). On a FIFO topic (its ARN ends in
 * .fifo) the messages of one row share a message group and the event id de-duplicates them. A message the topic
 * refuses is that event's failure. It imports the AWS SDK's SNS client, so only event-sink.ts requires it, when
 * EVENTS_SNS_TOPIC_ARN is set; the endpoint may be set by AWS_ENDPOINT_URL_SNS (tests).
 */
import { PublishBatchCommand, SNSClient } from '@aws-sdk/client-sns';
import { awsBatchLimits, failuresOf, inBatches, messageEntry, type Sink } from './sink';

export function snsSink(topicArn: string, region: string): Sink['publish'] {
  const client = new SNSClient({ region, maxAttempts: 3 });
  const fifo = topicArn.endsWith('.fifo');
  return (events) =>
    inBatches(events, awsBatchLimits, 4, async (batch) => {
      const entries = batch.map((event, i) => ({ ...messageEntry(event, i, fifo), Message: event.event }));
      const request = { TopicArn: topicArn, PublishBatchRequestEntries: entries };
      const answer = await client.send(new PublishBatchCommand(request));
      return failuresOf(batch, answer.Failed, 'SNS');
    });
}
