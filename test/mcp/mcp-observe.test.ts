/**
 * A tool call's request to /mcp is observed like any request: one log line naming the tool, the resource and the
 * /res operation it ran (and a tool error's code), and metrics counted under the tool's name. PGlite, the test
 * definitions, JSON-RPC sent as a client sends it.
 */

import { type Captured, captureOutput, useObserveEnv } from '../observe/capture-output';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke } from '../support/service';

const target = targets().find((t) => t.name === 'pglite');
if (!target) throw new Error('PGlite is always a target');
useFixture(target);

useObserveEnv({
  LOG_LEVEL: 'INFO',
  POWERTOOLS_METRICS_DISABLED: 'false',
  POWERTOOLS_METRICS_NAMESPACE: 'TestNamespace',
  AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
});
let output: Captured;
beforeEach(() => {
  output = captureOutput();
});
afterEach(() => output.restore());

const toolCall = (name: string, args: Record<string, unknown>) =>
  invoke({
    method: 'POST',
    path: '/mcp',
    headers: {
      host: 'localhost:3000',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }),
  });

it('logs a tool call with its tool, resource and operation, and counts it under the tool', async () => {
  const reply = await toolCall('read_Item', { where: { id: 1 } });
  expect(reply.status).toBe(200);
  expect(JSON.parse(reply.body).result.isError).toBeUndefined();
  const [line] = output.logLines();
  expect(line).toMatchObject({
    route: '/mcp',
    method: 'POST',
    status: 200,
    tool: 'read_Item',
    resource: 'Item',
    rows: 1,
  });
  expect(line?.operation).toMatch(/^R/);
  const request = output.emf().find((record) => 'Requests' in record);
  expect(request).toMatchObject({ resource: 'Item', operation: 'read_Item', Requests: 1, Errors: 0 });
});

it("logs a tool error's code, while the request itself succeeded", async () => {
  const reply = await toolCall('insert_Item', { rows: [{ name: 'x', qty: 'many' }] });
  expect(reply.status).toBe(200);
  expect(JSON.parse(reply.body).result.isError).toBe(true);
  expect(output.logLines()[0]).toMatchObject({ status: 200, tool: 'insert_Item', tool_error: 'bad_argument' });
});
