/**
 * The pure parts of lib/observe, by tables: the operation names, the routes, the settings from the environment,
 * what an error's log entry holds, the name of a database call's X-Ray subsegment;
 * and request-context's database time when calls nest and overlap.
 */

import { BadRequestError, ConstraintError, DatabaseError } from '../../lib/errors';
import { describeError } from '../../lib/observe/describe-error';
import { observeSettings } from '../../lib/observe/observe-settings';
import { operationName } from '../../lib/observe/operation-name';
import { subsegmentName } from '../../lib/observe/trace-database-call';
import { parseRequest } from '../../lib/request/parse-request';
import { newRequestRecord, noteRequest, observeDatabaseCall, withRequestRecord } from '../../lib/request-context';
import { routeName } from '../../lib/routes';

const form = 'application/x-www-form-urlencoded';
const json = 'application/json';

it.each([
  ['R1', 'GET', '/res/Item', 'price=>1', undefined, undefined],
  ['R2', 'GET', '/res/Item/1', '', undefined, undefined],
  ['C1', 'POST', '/res/Item', '', form, 'name=x'],
  ['C2', 'POST', '/res/Item', '', json, '[{"name":"x"}]'],
  ['C3', 'POST', '/res/Team/1', '', json, '[{"name":"x"}]'],
  ['U1', 'PUT', '/res/Item', '', json, '[{"id":1}]'],
  ['U2', 'PUT', '/res/Item', 'name=x', form, 'note=y'],
  ['U3', 'PUT', '/res/Item/1', '', form, 'note=y'],
  ['U4', 'PUT', '/res/Team/1', '', json, '[{"id":1}]'],
  ['D1', 'DELETE', '/res/Item', '', json, '[{"id":1}]'],
  ['D2', 'DELETE', '/res/Item', 'name=x', undefined, undefined],
  ['D3', 'DELETE', '/res/Item/1', '', undefined, undefined],
  ['D4', 'DELETE', '/res/Team/1', '', json, '[{"id":1}]'],
])('%s: %s %s?%s', async (name, method, path, rawQuery, contentType, body) => {
  const request = await parseRequest({ method, path, rawQuery, contentType, body }, { maxBodyBytes: 10_000 });
  expect(operationName(request)).toBe(name);
});

it.each([
  ['/res', '/res'],
  ['/res/', '/res'],
  ['/openapi.json', '/openapi.json'],
  ['/res/Item', '/res/{resName}'],
  ['/res/Item/', '/res/{resName}'],
  ['/res/Item/1', '/res/{resName}/{resId+}'],
  ['/res/Pair/ABC/2', '/res/{resName}/{resId+}'],
  ['/conf/reload/Item', '/conf/{what}/{resName}'],
  ['/xsd/Response.xsd', '/xsd/{file}'],
  ['/health', '/health'],
  ['/health/db', '/health/db'],
  ['/health/other', '*'],
  ['/secret-looking/path', '*'],
  ['/', '*'],
])('the route of %s is %s', (path, route) => {
  expect(routeName(path)).toBe(route);
});

const lambda = { AWS_LAMBDA_FUNCTION_NAME: 'rrs-dev-read' };
it.each([
  [{}, { logLevel: 'INFO', metrics: false, namespace: 'RelationalResourceService', tracing: false }],
  [{ JEST_WORKER_ID: '1' }, { logLevel: 'SILENT' }],
  [{ JEST_WORKER_ID: '1', LOG_LEVEL: 'debug' }, { logLevel: 'DEBUG' }],
  [{ POWERTOOLS_LOG_LEVEL: 'WARN' }, { logLevel: 'WARN' }],
  [{ LOG_LEVEL: 'ERROR', POWERTOOLS_LOG_LEVEL: 'WARN' }, { logLevel: 'ERROR' }],
  [{ LOG_LEVEL: 'loud' }, { logLevel: 'INFO' }],
  [lambda, { metrics: true }],
  [{ ...lambda, IS_OFFLINE: 'true' }, { metrics: false }],
  [{ ...lambda, POWERTOOLS_METRICS_DISABLED: 'true' }, { metrics: false }],
  [{ POWERTOOLS_METRICS_DISABLED: 'false' }, { metrics: true }],
  [{ POWERTOOLS_METRICS_NAMESPACE: ' Shop ' }, { namespace: 'Shop' }],
  [{ POWERTOOLS_TRACE_ENABLED: 'true' }, { tracing: true }],
  [{ POWERTOOLS_TRACE_ENABLED: 'false' }, { tracing: false }],
])('settings from %j', (env, expected) => {
  expect(observeSettings(env)).toMatchObject(expected);
});

describe('an error in the log', () => {
  const driver = Object.assign(new Error('duplicate key value (Key (name)=(secret-value))'), {
    name: 'PostgresError',
    code: '23505',
  });

  it.each([
    ['a 400', new BadRequestError('bad_value', 'Could not convert price value secret-value'), [{ code: 'bad_value' }]],
    [
      'a conflict',
      new ConstraintError({ kind: 'unique', columns: ['name'] }, 'Conflict: secret-value', driver),
      [{ code: 'unique_violation' }, { name: 'PostgresError', code: '23505' }],
    ],
    [
      'a database error',
      new DatabaseError(
        'database_error',
        'x :: secret-value',
        Object.assign(new Error('secret-value'), { code: 'ER_X', errno: 1064 }),
      ),
      [{ code: 'database_error' }, { name: 'Error', code: 'ER_X', errno: 1064 }],
    ],
    ['a thrown string', 'a thrown string secret-value', [{ name: 'string' }]],
  ])('%s: names and codes, never a message', (_label, error, chain) => {
    expect(describeError(error)).toEqual(chain);
    expect(JSON.stringify(describeError(error))).not.toContain('secret-value');
  });

  it('an unexpected error brings its stack frames, without its message', () => {
    const [cause] = describeError(new TypeError('cannot read secret-value'));
    expect(cause?.name).toBe('TypeError');
    expect(cause?.stack).toMatch(/^at /);
    expect(cause?.stack).not.toContain('secret-value');
  });
});

// each call's subsegment name, asked of the module directly: through traceDatabaseCalls the Tracer would have to be
// on, and it then patches node's http module for every later test file in this worker process
it.each([
  [{ engine: 'postgres', kind: 'statement', text: '  select 1' }, 'postgres SELECT'],
  [{ engine: 'mysql', kind: 'statement', text: 'INSERT INTO t VALUES (?)' }, 'mysql INSERT'],
  [{ engine: 'mysql', kind: 'transaction' }, 'mysql transaction'],
  [{ engine: 'postgres', kind: 'describe', text: 'select a from t' }, 'postgres describe'],
] as const)('the subsegment of %j is %s', (call, name) => {
  expect(subsegmentName(call)).toBe(name);
});

describe('database time', () => {
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const call = { engine: 'postgres', kind: 'statement', text: 'SELECT $1' } as const;

  it('counts nested and overlapping calls once, and the statements each', async () => {
    const record = newRequestRecord();
    const started = performance.now();
    await withRequestRecord(record, {}, async () => {
      await observeDatabaseCall({ engine: 'postgres', kind: 'transaction' }, async () => {
        await Promise.all([observeDatabaseCall(call, () => wait(40)), observeDatabaseCall(call, () => wait(40))]);
      });
      await wait(40); // not in the database
      noteRequest({ rows: 2 });
    });
    const elapsed = performance.now() - started;
    expect(record.dbCalls).toBe(2);
    expect(record.rows).toBe(2);
    expect(record.dbMs).toBeGreaterThanOrEqual(39);
    expect(record.dbMs).toBeLessThan(elapsed - 35);
  });

  it('keeps the text of the first statement that failed, and does nothing outside a request', async () => {
    const record = newRequestRecord();
    const failing = () => Promise.reject(new Error('no'));
    await withRequestRecord(record, {}, async () => {
      await expect(observeDatabaseCall(call, failing)).rejects.toThrow('no');
      await expect(observeDatabaseCall({ ...call, text: 'COMMIT' }, failing)).rejects.toThrow('no');
    });
    expect(record.failedSql).toBe('SELECT $1');
    await expect(observeDatabaseCall(call, async () => 7)).resolves.toBe(7);
    expect(record.dbCalls).toBe(2);
  });
});
