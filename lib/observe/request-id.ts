/**
 * The id of a request: the Lambda invocation's (the platform's START, END and REPORT log lines show it too), else
 * API Gateway's (requestContext.requestId, when the event comes without a Lambda context), else a new one. Never
 * taken from a header the client set. serverless-offline gives every event the same placeholder id, so its
 * invocation id comes first.
 */
import { randomUUID } from 'node:crypto';

interface WithRequestId {
  readonly requestContext?: { readonly requestId?: unknown };
}

export function requestIdOf(event: unknown, lambda?: { readonly awsRequestId?: string }): string {
  if (lambda?.awsRequestId) return lambda.awsRequestId;
  const id = (event as WithRequestId | null)?.requestContext?.requestId;
  return typeof id === 'string' && id !== '' ? id : randomUUID();
}
