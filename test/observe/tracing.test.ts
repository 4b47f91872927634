/**
 * Tracing, through the real handlers on PGlite: with POWERTOOLS_TRACE_ENABLED=true, each database call is a
 * subsegment of the request's segment (here one the test opens with the X-Ray SDK, as Lambda's facade would be):
 * named by engine and verb, the statements of a write's transaction inside the transaction's, the SQL with its
 * placeholders and never a value. Without it, the Powertools Tracer (and with it the X-Ray SDK) is never loaded.
 */
import { forgetObservers } from '../../lib/observe/observers';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke } from '../support/service';

const target = targets().find((t) => t.name === 'pglite');
if (!target) throw new Error('PGlite is always a target');
useFixture(target);

const sentinel = 'Zq7sentinel';
let tracerLoads = 0;
jest.mock('@aws-lambda-powertools/tracer', () => {
  tracerLoads += 1;
  return jest.requireActual('@aws-lambda-powertools/tracer');
});

interface Traced {
  readonly name: string;
  readonly annotations?: Record<string, unknown>;
  readonly sql?: Record<string, unknown>;
  readonly subsegments?: Traced[];
  readonly fault?: boolean;
  readonly error?: boolean;
  readonly in_progress?: boolean;
}

const tree = (segment: Traced): unknown => ({
  name: segment.name,
  ...(segment.subsegments ? { subsegments: segment.subsegments.map(tree) } : {}),
});

afterAll(() => {
  for (const key of ['POWERTOOLS_TRACE_ENABLED', 'AWS_EXECUTION_ENV', 'AWS_XRAY_CONTEXT_MISSING'])
    delete process.env[key];
  forgetObservers();
});

it('without tracing, the tracer is never loaded', async () => {
  forgetObservers();
  expect((await invoke({ method: 'GET', path: '/res/Item/1' })).status).toBe(200);
  expect(tracerLoads).toBe(0);
});

describe('with POWERTOOLS_TRACE_ENABLED=true', () => {
  // biome-ignore lint/suspicious/noExplicitAny: the X-Ray SDK's types describe its segments loosely
  let xray: any;
  beforeAll(() => {
    process.env.POWERTOOLS_TRACE_ENABLED = 'true';
    process.env.AWS_EXECUTION_ENV = 'AWS_Lambda_nodejs20.x'; // the Tracer traces only in Lambda
    process.env.AWS_XRAY_CONTEXT_MISSING = 'IGNORE_ERROR';
    forgetObservers();
    xray = jest.requireActual('aws-xray-sdk-core');
  });

  /** Runs the call inside a segment of the test's, closed but never sent (no daemon), and returns it. */
  async function traced(call: Parameters<typeof invoke>[0]): Promise<{ status: number; segment: Traced }> {
    const segment = new xray.Segment('request');
    segment.notTraced = true;
    const reply = await xray.getNamespace().runPromise(async () => {
      xray.setSegment(segment);
      return invoke(call);
    });
    return { status: reply.status, segment: JSON.parse(JSON.stringify(segment.toJSON?.() ?? segment)) };
  }

  it('loads the tracer and traces a read: one subsegment per statement, with its SQL and no value', async () => {
    const { status, segment } = await traced({ method: 'GET', path: '/res/Item', query: `name=${sentinel}` });
    expect(status).toBe(200);
    expect(tracerLoads).toBe(1);
    const calls = segment.subsegments ?? [];
    expect(calls.map((s) => s.name)).toContain('postgres SELECT');
    const read = calls.filter((s) => s.name === 'postgres SELECT').at(-1) as Traced;
    expect(read.annotations).toEqual({ dialect: 'postgres', call: 'statement' });
    expect(read.sql).toEqual({ database_type: 'postgres', sanitized_query: expect.stringMatching(/= \$1/) });
    expect(read.in_progress).toBeUndefined();
    expect(JSON.stringify(segment)).not.toContain(sentinel);
  });

  it("nests a write's statements in its transaction, and marks a failed one without its message", async () => {
    const ok = await traced({
      method: 'PUT',
      path: '/res/Item/2',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `note=${sentinel}`,
    });
    expect(ok.status).toBe(200);
    const transaction = (ok.segment.subsegments ?? []).find((s) => s.name === 'postgres transaction');
    expect(tree(transaction as Traced)).toMatchObject({
      name: 'postgres transaction',
      subsegments: expect.arrayContaining([{ name: 'postgres UPDATE' }]),
    });
    expect(JSON.stringify(ok.segment)).not.toContain(sentinel);

    const conflict = await traced({
      method: 'POST',
      path: '/res/Item',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `name=apple&note=${sentinel}`,
    });
    expect(conflict.status).toBe(409);
    const failed = conflict.segment.subsegments?.find((s) => s.name === 'postgres transaction');
    const insert = failed?.subsegments?.find((s) => s.name === 'postgres INSERT');
    expect(insert).toMatchObject({ error: true, annotations: { error_code: 'unique_violation' } });
    expect(JSON.stringify(conflict.segment)).not.toMatch(/apple|Zq7sentinel|duplicate key/);
  });
});
