/**
 * One log line per request, from real handler calls on PGlite: exactly the documented fields, the request id in
 * X-Request-Id and in problem+json's `instance`, the error's code and cause chain (driver code, SQL with its
 * placeholders), and never a value of the request: a sentinel planted in the query string, the path, the body
 * and the token never reaches the output.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { handler as readHandler } from '../../handlers/read';
import { forgetPrivileges } from '../../lib/auth/privileges-store';
import { signInOff, startAuth, type TestAuth } from '../support/auth';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, type Reply, testDefinitions, useService } from '../support/service';
import { type Captured, captureOutput, useObserveEnv } from './capture-output';

const sentinel = 'Zq7sentinel';
const target = targets().find((t) => t.name === 'pglite');
if (!target) throw new Error('PGlite is always a target');
const fx = useFixture(target);

const powertoolsKeys = ['level', 'message', 'timestamp', 'service', 'sampling_rate'];
const observeEnv = { LOG_LEVEL: 'INFO', POWERTOOLS_METRICS_DISABLED: 'true' };

let output: Captured;
useObserveEnv(observeEnv);
beforeEach(() => {
  output = captureOutput();
});
afterEach(() => output.restore());

/** The one request line written since the last call, after checking that nothing of the request leaked. */
function requestLine(reply: Reply): Record<string, unknown> {
  const lines = output.logLines();
  expect(lines).toHaveLength(1);
  expect(output.text()).not.toContain(sentinel);
  const line = lines[0] as Record<string, unknown>;
  expect(reply.headers['x-request-id']).toBe(line.request_id);
  output.clear();
  return line;
}

const keysOf = (line: Record<string, unknown>) => Object.keys(line).sort();
const expectedKeys = (...ours: string[]) =>
  [
    ...powertoolsKeys,
    'request_id',
    'method',
    'route',
    'status',
    'duration_ms',
    'db_ms',
    'db_calls',
    'cold_start',
    ...ours,
  ].sort();

describe('a success', () => {
  it('is one INFO line with the route, resource, operation, rows and times, and no value', async () => {
    const read = await invoke({ method: 'GET', path: '/res/Item', query: `name=!${sentinel}&_limit=3` });
    expect(read.status).toBe(200);
    const line = requestLine(read);
    expect(keysOf(line)).toEqual(expectedKeys('resource', 'operation', 'rows'));
    expect(line).toMatchObject({
      level: 'INFO',
      message: 'request',
      service: 'relational-resource-service',
      method: 'GET',
      route: '/res/{resName}',
      resource: 'Item',
      operation: 'R1',
      status: 200,
      rows: 3,
    });
    expect(line.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(line.duration_ms).toEqual(expect.any(Number));
    expect(line.db_ms as number).toBeGreaterThan(0);
    expect(line.db_ms as number).toBeLessThanOrEqual(line.duration_ms as number);
    expect(line.db_calls as number).toBeGreaterThanOrEqual(1);
    expect(line.cold_start).toBe(true);
  });

  it('names the key read R2 and hides its key in the route', async () => {
    const reply = await invoke({ method: 'GET', path: `/res/Item/2` });
    expect(reply.status).toBe(200);
    expect(requestLine(reply)).toMatchObject({ route: '/res/{resName}/{resId+}', operation: 'R2', rows: 1 });
  });

  it('of a write counts the rows affected', async () => {
    const reply = await invoke({
      method: 'POST',
      path: '/res/Item',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `name=${sentinel}&price=1.25&note=${sentinel}`,
    });
    expect(reply.status).toBe(200);
    const line = requestLine(reply);
    expect(keysOf(line)).toEqual(expectedKeys('resource', 'operation', 'rows'));
    expect(line).toMatchObject({
      method: 'POST',
      resource: 'Item',
      operation: 'C1',
      status: 200,
      rows: 1,
      level: 'INFO',
    });
  });

  it('of an update by key is U3, and the cold start is told once', async () => {
    const reply = await invoke({
      method: 'PUT',
      path: '/res/Item/2',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `note=${sentinel}`,
    });
    expect(requestLine(reply)).toMatchObject({ operation: 'U3', rows: 1, cold_start: false });
  });
});

describe('a failure', () => {
  it('400: a WARN line with the code; problem+json names the request in instance', async () => {
    const reply = await invoke({
      method: 'GET',
      path: '/res/Item',
      query: `price=${sentinel}`,
      headers: { accept: 'application/problem+json' },
    });
    expect(reply.status).toBe(400);
    const line = requestLine(reply);
    expect(keysOf(line)).toEqual(expectedKeys('resource', 'operation', 'error_code', 'error_cause'));
    expect(line).toMatchObject({
      level: 'WARN',
      status: 400,
      operation: 'R1',
      error_code: 'bad_value',
      error_cause: [{ code: 'bad_value' }],
    });
    expect(JSON.parse(reply.body).instance).toBe(`urn:request:${line.request_id}`);
  });

  it('400 as text keeps its exact wording (the sentinel is in the body, never in the log)', async () => {
    const reply = await invoke({ method: 'GET', path: '/res/Item', query: `price=${sentinel}` });
    expect(reply.body).toBe(`Could not convert price value "${sentinel}" to number`);
    output.clear();
  });

  it('409: the driver code and the statement with placeholders, not its values, in the log or the body', async () => {
    const reply = await invoke({
      method: 'POST',
      path: '/res/Item',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/problem+json' },
      body: `name=apple&note=${sentinel}`,
    });
    expect(reply.status).toBe(409);
    // the body names the field and the constraint, never the duplicate value
    expect(JSON.parse(reply.body).detail).toBe(
      'Conflict: another row of table item has the same name (unique constraint "item_name_key")',
    );
    const line = requestLine(reply);
    expect(keysOf(line)).toEqual(expectedKeys('resource', 'operation', 'error_code', 'error_cause', 'sql'));
    expect(line).toMatchObject({
      level: 'WARN',
      status: 409,
      operation: 'C1',
      error_code: 'unique_violation',
      error_cause: [{ code: 'unique_violation' }, { name: 'PostgresError', code: '23505' }],
    });
    expect(line.sql).toMatch(/^INSERT INTO .*\$1/);
    expect(JSON.stringify(line)).not.toContain('apple');
    expect(JSON.parse(reply.body).instance).toBe(`urn:request:${line.request_id}`);
  });

  it('404 on a path no route serves: the route is the catch-all, not the path', async () => {
    const reply = await invoke({ method: 'GET', path: `/${sentinel}` });
    expect(reply.status).toBe(404);
    expect(reply.body).toContain(sentinel);
    const line = requestLine(reply);
    expect(line).toMatchObject({ route: '*', status: 404, error_code: 'path_not_found' });
    expect(keysOf(line)).toEqual(expectedKeys('error_code', 'error_cause'));
  });
});

describe('the request id', () => {
  const event = (requestContext: Record<string, unknown>) => ({
    version: '2.0',
    rawPath: '/res/Item/1',
    rawQueryString: '',
    headers: { accept: 'application/problem+json' },
    isBase64Encoded: false,
    requestContext: { http: { method: 'PATCH', path: '/res/Item/1' }, ...requestContext },
  });

  it("is the Lambda invocation's, else API Gateway's", async () => {
    const fromLambda = await readHandler(event({ requestId: 'gw-1' }) as never, { awsRequestId: 'lambda-2' });
    const fromGateway = await readHandler(event({ requestId: 'gw-Abc123=' }) as never);
    expect([fromLambda.headers?.['X-Request-Id'], fromGateway.headers?.['X-Request-Id']]).toEqual([
      'lambda-2',
      'gw-Abc123=',
    ]);
    expect(output.logLines().map((line) => line.request_id)).toEqual(['lambda-2', 'gw-Abc123=']);
    expect(JSON.parse(fromGateway.body).instance).toBe('urn:request:gw-Abc123=');
  });
});

describe('with sign-in on', () => {
  let auth: TestAuth;
  let dir: string;
  beforeAll(async () => {
    auth = await startAuth();
    dir = mkdtempSync(path.join(tmpdir(), 'rrs-observe-'));
    writeFileSync(path.join(dir, 'privileges.properties'), 'Item.select=reader\n');
    await useService({
      ...auth.env,
      PRIVILEGES: path.join(dir, 'privileges.properties'),
      DATABASE_URL: fx.db.url,
      DEFINITIONS_DIR: testDefinitions,
    });
  });
  afterAll(async () => {
    await useService(signInOff);
    forgetPrivileges();
    await auth.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('401: no resource is named (nothing was read before sign-in), the token never shows', async () => {
    const reply = await invoke({
      method: 'GET',
      path: '/res/Item',
      query: `name=${sentinel}`,
      headers: { authorization: `Bearer ${sentinel}.${sentinel}.${sentinel}` },
    });
    expect(reply.status).toBe(401);
    const line = requestLine(reply);
    expect(keysOf(line)).toEqual(expectedKeys('error_code', 'error_cause'));
    expect(line).toMatchObject({ level: 'WARN', status: 401, error_code: 'unauthenticated', route: '/res/{resName}' });
  });

  it('403: the resource asked for, the code, and no token', async () => {
    const token = await auth.token({ roles: ['reader'], sub: sentinel });
    const reply = await invoke({
      method: 'DELETE',
      path: `/res/Item/${sentinel}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(reply.status).toBe(403);
    const line = requestLine(reply);
    expect(keysOf(line)).toEqual(expectedKeys('resource', 'error_code', 'error_cause'));
    expect(line).toMatchObject({
      status: 403,
      resource: 'Item',
      error_code: 'forbidden',
      route: '/res/{resName}/{resId+}',
    });
    expect(output.text()).not.toContain(token);
  });

  it('a signed-in success', async () => {
    const token = await auth.token({ roles: ['reader'] });
    const reply = await invoke({ method: 'GET', path: '/res/Item/1', headers: { authorization: `Bearer ${token}` } });
    expect(reply.status).toBe(200);
    expect(requestLine(reply)).toMatchObject({ status: 200, operation: 'R2', rows: 1 });
    expect(output.text()).not.toContain(token);
  });
});

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('with the database down', () => {
  afterAll(() => useService({ DATABASE_URL: fx.db.url, DEFINITIONS_DIR: testDefinitions }));

  it('500: an ERROR line with the network code and the statement that was to run, never the password', async () => {
    await useService({ DATABASE_URL: `postgres://postgres:${sentinel}@127.0.0.1:${await closedPort()}/x` });
    const reply = await invoke({
      method: 'GET',
      path: '/res/Item',
      query: `name=${sentinel}`,
      headers: { accept: 'application/problem+json' },
    });
    expect(reply.status).toBe(500);
    const line = requestLine(reply);
    expect(keysOf(line)).toEqual(expectedKeys('resource', 'operation', 'error_code', 'error_cause', 'sql'));
    expect(line).toMatchObject({
      level: 'ERROR',
      status: 500,
      error_code: 'database_unreachable',
      error_cause: [{ code: 'database_unreachable' }, { code: 'ECONNREFUSED' }],
    });
    expect(line.sql).toMatch(/^select item\.item_id as id/);
    expect(JSON.parse(reply.body).instance).toBe(`urn:request:${line.request_id}`);
  });
});
