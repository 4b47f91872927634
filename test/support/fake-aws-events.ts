/**
 * A fake of the AWS services change events go to, on 127.0.0.1, speaking the SDK clients' own wire protocols:
 * EventBridge PutEvents (JSON 1.1, X-Amz-Target AWSEvents.PutEvents), SQS SendMessageBatch (JSON 1.0, X-Amz-Target
 * AmazonSQS.SendMessageBatch, with the MD5 of each body the client checks) and SNS PublishBatch (the query protocol:
 * a form body, an XML answer). It records every call's entries, and refuses the entries the test says to. The
 * service's real SDK clients reach it through AWS_ENDPOINT_URL_EVENTBRIDGE, _SQS and _SNS, with the fake
 * credentials of fakeAwsEnv.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestText } from '../../scripts/request-text';

export type AwsService = 'eventbridge' | 'sqs' | 'sns';

/** One entry of a call, as the service received it. */
export interface AwsEntry {
  readonly service: AwsService;
  /** The bus, queue URL or topic ARN. */
  readonly target: string;
  /** The CloudEvent: EventBridge's Detail, the message body. */
  readonly body: string;
  /** EventBridge's Source and DetailType; the messages' `type` attribute. */
  readonly source?: string;
  readonly type?: string;
  readonly groupId?: string;
  readonly deduplicationId?: string;
}

export interface FakeAwsEvents {
  readonly endpoint: string;
  /** The calls received, each with its entries. */
  readonly calls: AwsEntry[][];
  /** Entries whose body this picks are refused from now on (none by default). */
  refuse(pick: (body: string) => boolean): void;
  stop(): Promise<void>;
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startFakeAwsEvents(): Promise<FakeAwsEvents> {
  const calls: AwsEntry[][] = [];
  let refused: (body: string) => boolean = () => false;
  const server = createServer((request, response) => {
    void requestText(request).then((text) => {
      const target = String(request.headers['x-amz-target'] ?? '');
      if (target === 'AWSEvents.PutEvents') {
        const input = JSON.parse(text) as { Entries: Record<string, string>[] };
        calls.push(
          input.Entries.map((e) => ({
            service: 'eventbridge',
            target: String(e.EventBusName),
            body: String(e.Detail),
            source: e.Source,
            type: e.DetailType,
          })),
        );
        const entries = input.Entries.map((e, i) =>
          refused(String(e.Detail))
            ? { ErrorCode: 'InternalFailure', ErrorMessage: 'refused by the fake' }
            : { EventId: `e-${i}` },
        );
        const failed = entries.filter((e) => 'ErrorCode' in e).length;
        response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
        response.end(JSON.stringify({ FailedEntryCount: failed, Entries: entries }));
        return;
      }
      if (target === 'AmazonSQS.SendMessageBatch') {
        const input = JSON.parse(text) as { QueueUrl: string; Entries: Record<string, unknown>[] };
        const attribute = (e: Record<string, unknown>) =>
          (e.MessageAttributes as { type?: { StringValue?: string } } | undefined)?.type?.StringValue;
        calls.push(
          input.Entries.map((e) => ({
            service: 'sqs',
            target: input.QueueUrl,
            body: String(e.MessageBody),
            type: attribute(e),
            groupId: e.MessageGroupId as string | undefined,
            deduplicationId: e.MessageDeduplicationId as string | undefined,
          })),
        );
        const failed = input.Entries.filter((e) => refused(String(e.MessageBody)));
        const successful = input.Entries.filter((e) => !refused(String(e.MessageBody))).map((e) => ({
          Id: e.Id,
          MessageId: `m-${String(e.Id)}`,
          MD5OfMessageBody: createHash('md5').update(String(e.MessageBody)).digest('hex'),
        }));
        response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        response.end(
          JSON.stringify({
            Successful: successful,
            Failed: failed.map((e) => ({
              Id: e.Id,
              SenderFault: false,
              Code: 'InternalError',
              Message: 'refused by the fake',
            })),
          }),
        );
        return;
      }
      const form = new URLSearchParams(text);
      if (form.get('Action') === 'PublishBatch') {
        const entries: AwsEntry[] = [];
        const ids: string[] = [];
        for (let n = 1; form.has(`PublishBatchRequestEntries.member.${n}.Id`); n++) {
          const at = (name: string) => form.get(`PublishBatchRequestEntries.member.${n}.${name}`) ?? undefined;
          ids.push(at('Id') as string);
          entries.push({
            service: 'sns',
            target: String(form.get('TopicArn')),
            body: at('Message') as string,
            type: at('MessageAttributes.entry.1.Value.StringValue'),
            groupId: at('MessageGroupId'),
            deduplicationId: at('MessageDeduplicationId'),
          });
        }
        calls.push(entries);
        const member = (inner: string) => `<member>${inner}</member>`;
        const successful = ids
          .filter((_, i) => !refused(entries[i]?.body ?? ''))
          .map((id) => member(`<Id>${xml(id)}</Id><MessageId>m-${xml(id)}</MessageId>`));
        const failed = ids
          .filter((_, i) => refused(entries[i]?.body ?? ''))
          .map((id) =>
            member(
              `<Id>${xml(id)}</Id><Code>InternalError</Code><Message>refused by the fake</Message><SenderFault>false</SenderFault>`,
            ),
          );
        response.writeHead(200, { 'content-type': 'text/xml' });
        response.end(
          `<PublishBatchResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishBatchResult><Successful>${successful.join('')}</Successful><Failed>${failed.join('')}</Failed></PublishBatchResult><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></PublishBatchResponse>`,
        );
        return;
      }
      response.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"not a call the fake knows"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    refuse: (pick) => {
      refused = pick;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export { fakeAwsEnv } from './fake-secrets-manager';
