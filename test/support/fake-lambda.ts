/**
 * A fake AWS Lambda invoke endpoint on 127.0.0.1: it speaks the SDK's REST protocol for Invoke
 * (POST /2015-03-31/functions/{name}/invocations, the invocation type in X-Amz-Invocation-Type), records each call,
 * and answers 202 (an asynchronous invocation accepted), or the status the test set. The service's real SDK client
 * reaches it through AWS_ENDPOINT_URL_LAMBDA, with the fake credentials of fakeAwsEnv.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestText } from '../../scripts/request-text';

export interface Invocation {
  readonly functionName: string;
  readonly invocationType: string;
  readonly payload: string;
}

export interface FakeLambda {
  readonly endpoint: string;
  readonly invocations: Invocation[];
  /** What an invocation is answered from now on: 202 (the default), or an error status with its type. */
  answer(status: number, errorType?: string): void;
  stop(): Promise<void>;
}

export async function startFakeLambda(): Promise<FakeLambda> {
  const invocations: Invocation[] = [];
  let status = 202;
  let errorType = 'ServiceException';
  const server = createServer((request, response) => {
    void requestText(request).then((payload) => {
      const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(request.url ?? '');
      if (request.method !== 'POST' || !match) {
        response.writeHead(404).end();
        return;
      }
      const functionName = decodeURIComponent(match[1] as string);
      invocations.push({ functionName, invocationType: String(request.headers['x-amz-invocation-type']), payload });
      if (status === 202) response.writeHead(202).end();
      else
        response
          .writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': errorType })
          .end(JSON.stringify({ message: 'the fake says no' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    invocations,
    answer: (next, type = 'ServiceException') => {
      status = next;
      errorType = type;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
