/**
 * Metrics as CloudWatch embedded metric format on stdout, from real handler calls on PGlite: the namespace, the
 * dimension sets (service, resource, operation; errors also by code), the values, the cold start once, and an
 * unknown resource never becoming a dimension.
 */
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke } from '../support/service';
import { type Captured, captureOutput, useObserveEnv } from './capture-output';

const target = targets().find((t) => t.name === 'pglite');
if (!target) throw new Error('PGlite is always a target');
useFixture(target);

const observeEnv = {
  LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'false',
  POWERTOOLS_METRICS_NAMESPACE: 'TestNamespace',
  AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
};

let output: Captured;
useObserveEnv(observeEnv);
beforeEach(() => {
  output = captureOutput();
});
afterEach(() => output.restore());

interface Emf {
  readonly namespace: unknown;
  readonly dimensions: unknown;
  readonly metrics: unknown;
  readonly values: Record<string, unknown>;
}

/** An EMF record checked for its shape, in a form easy to compare. */
function emfOf(record: Record<string, unknown>): Emf {
  const aws = record._aws as { Timestamp: unknown; CloudWatchMetrics: Record<string, unknown>[] };
  expect(aws.Timestamp).toEqual(expect.any(Number));
  expect(aws.CloudWatchMetrics).toHaveLength(1);
  const directive = aws.CloudWatchMetrics[0] as Record<string, unknown>;
  const { _aws, ...values } = record;
  return { namespace: directive.Namespace, dimensions: directive.Dimensions, metrics: directive.Metrics, values };
}

const requestMetrics = [
  { Name: 'Requests', Unit: 'Count' },
  { Name: 'Errors', Unit: 'Count' },
  { Name: 'Latency', Unit: 'Milliseconds' },
  { Name: 'DatabaseTime', Unit: 'Milliseconds' },
];

it('a first read: the cold start, then one record by resource and operation', async () => {
  expect((await invoke({ method: 'GET', path: '/res/Item/1' })).status).toBe(200);
  const [cold, request, ...rest] = output.emf().map(emfOf);
  expect(rest).toEqual([]);
  expect(cold).toEqual({
    namespace: 'TestNamespace',
    dimensions: [['service']],
    metrics: [{ Name: 'ColdStart', Unit: 'Count' }],
    values: { service: 'relational-resource-service', ColdStart: 1 },
  });
  expect(request).toEqual({
    namespace: 'TestNamespace',
    dimensions: [['service', 'resource', 'operation']],
    metrics: requestMetrics,
    values: {
      service: 'relational-resource-service',
      resource: 'Item',
      operation: 'R2',
      Requests: 1,
      Errors: 0,
      Latency: expect.any(Number),
      DatabaseTime: expect.any(Number),
    },
  });
  const values = request?.values as { Latency: number; DatabaseTime: number };
  expect(values.DatabaseTime).toBeGreaterThan(0);
  expect(values.DatabaseTime).toBeLessThanOrEqual(values.Latency);
});

it('a failed write: an error in its record, and one more by code; no second cold start', async () => {
  const reply = await invoke({
    method: 'POST',
    path: '/res/Item',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'name=apple',
  });
  expect(reply.status).toBe(409);
  const [request, byCode, ...rest] = output.emf().map(emfOf);
  expect(rest).toEqual([]);
  expect(request?.values).toMatchObject({ resource: 'Item', operation: 'C1', Requests: 1, Errors: 1 });
  expect(byCode).toEqual({
    namespace: 'TestNamespace',
    dimensions: [['service', 'code']],
    metrics: [{ Name: 'Errors', Unit: 'Count' }],
    values: { service: 'relational-resource-service', code: 'unique_violation', Errors: 1 },
  });
});

it('an unknown resource is not a dimension value: its name is the client’s, unbounded', async () => {
  const reply = await invoke({ method: 'GET', path: '/res/NoSuchThing123' });
  expect(reply.status).toBe(404);
  const [request, byCode] = output.emf().map(emfOf);
  expect(request?.values).toMatchObject({ resource: 'none', operation: 'R1', Errors: 1 });
  expect(byCode?.values).toMatchObject({ code: 'resource_not_found' });
  expect(output.text()).not.toContain('NoSuchThing123');
});
