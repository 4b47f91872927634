/**
 * On Lambda, the request's log line carries the invocation's context (function name, memory, ARN, request id) and
 * the X-Ray trace id, so a line can be joined to its trace. (Without a context, as in the server mode, a line
 * carries none of them: request-log.test.ts checks its exact fields.) A file of its own: the context stays on the
 * process's logger, as it does on Lambda.
 */
import { handler as readHandler } from '../../handlers/read';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { type Captured, captureOutput, useObserveEnv } from './capture-output';

const target = targets().find((t) => t.name === 'pglite');
if (!target) throw new Error('PGlite is always a target');
useFixture(target);

let output: Captured;
useObserveEnv({ LOG_LEVEL: 'INFO', POWERTOOLS_METRICS_DISABLED: 'true' });
beforeEach(() => {
  output = captureOutput();
});
afterEach(() => output.restore());

describe('on Lambda', () => {
  const lambda = {
    functionName: 'rrs-dev-read',
    functionVersion: '7',
    memoryLimitInMB: '512',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:rrs-dev-read',
    awsRequestId: '0f0e0d0c-0b0a-4909-8807-060504030201',
  };
  const trace = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';

  it("carries the function's context and the X-Ray trace id, so a line joins its trace", async () => {
    process.env._X_AMZN_TRACE_ID = trace;
    try {
      const event = {
        version: '2.0',
        rawPath: '/res/Item/2',
        rawQueryString: '',
        headers: {},
        requestContext: { http: { method: 'GET' } },
      };
      const reply = await readHandler(event as never, lambda as never);
      expect(reply.statusCode).toBe(200);
      const [line] = output.logLines() as Record<string, unknown>[];
      expect(line).toMatchObject({
        request_id: lambda.awsRequestId,
        function_name: 'rrs-dev-read',
        function_memory_size: '512',
        function_arn: lambda.invokedFunctionArn,
        function_request_id: lambda.awsRequestId,
        xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793',
        route: '/res/{resName}/{resId+}',
      });
    } finally {
      delete process.env._X_AMZN_TRACE_ID;
    }
  });
});
