/**
 * The server mode end to end: `npm run serve` (scripts/serve.ts, lib/server) on a free port against the demo
 * bookstore in an embedded PGlite served over the wire, exercised over real HTTP: reads, writes, errors, the
 * routes of serverless.yml, repeated query keys, keep-alive, many requests at once, the body limit, and a
 * graceful SIGTERM with a request in flight.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { startEmbeddedDatabase } from '../../scripts/start';
import { freePort, root, serviceEnv } from '../support/local-process';

const MAX_BODY_BYTES = 4096;

interface Served {
  readonly child: ChildProcess;
  readonly base: string;
  readonly port: number;
  output(): string;
  exited: Promise<number | null>;
}

let database: Awaited<ReturnType<typeof startEmbeddedDatabase>>;

async function waitFor(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `npm run serve` in its own process group, as a container runtime or a terminal would run it. */
async function serve(): Promise<Served> {
  const port = await freePort();
  const env = serviceEnv({
    PORT: String(port),
    HOST: '127.0.0.1',
    MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    LOG_LEVEL: 'WARN',
    ...database.env,
  });
  const child = spawn('npm', ['run', '--silent', 'serve'], { cwd: root, env, detached: true });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitFor(() => output.includes('listening on') || child.exitCode !== null, 'npm run serve');
  if (!output.includes('listening on')) throw new Error(`npm run serve did not start:\n${output}`);
  return { child, base: `http://127.0.0.1:${port}`, port, output: () => output, exited };
}

/** Signals the whole group (npm, its shell, tsx and the server), as Ctrl-C in a terminal does. */
function signal(served: Served, name: NodeJS.Signals): void {
  if (served.child.pid && served.child.exitCode === null) process.kill(-served.child.pid, name);
}

/** Signals the server's own process only, as a container runtime signals its main process; npm then exits with it. */
function signalServer(served: Served, name: NodeJS.Signals): void {
  const pid = /\(pid (\d+)\)/.exec(served.output())?.[1];
  if (!pid) throw new Error(`no pid in:\n${served.output()}`);
  process.kill(Number(pid), name);
}

let served: Served;

beforeAll(async () => {
  database = await startEmbeddedDatabase();
  served = await serve();
}, 120_000);

afterAll(async () => {
  if (served) {
    signal(served, 'SIGTERM');
    await served.exited;
  }
  await database?.stop();
});

it('says where it listens and how many database connections it opens at most', () => {
  expect(served.output()).toContain(`listening on http://127.0.0.1:${served.port}/res/ (pid `);
  expect(served.output()).toContain(
    `(5 database connections per database at most; definitions from ${path.join(root, 'definitions')})`,
  );
});

it('warns that sign-in is off as it starts, as npm start does', async () => {
  await waitFor(() => served.output().includes('Sign-in: off'), 'the sign-in line', 10_000);
  expect(served.output()).toContain(
    'Sign-in: off. Anyone who can reach this port may read and write every resource, through /res and through the MCP endpoint /mcp (AI agents), which answers only requests addressed to localhost or MCP_ALLOWED_HOSTS; set AUTH_ISSUER and AUTH_AUDIENCE to require tokens (README: Securing it).\n',
  );
});

it('serves XML by default and JSON on request, with the request id header', async () => {
  const xml = await fetch(`${served.base}/res/Publisher/1`);
  expect(xml.status).toBe(200);
  expect(xml.headers.get('content-type')).toBe('application/xml');
  expect(xml.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(await xml.text()).toBe(
    '<?xml version="1.0" encoding="UTF-8"?><readResponse><publisher id="1" name="Harbour &amp; Finch" country="GB" founded="1921"/></readResponse>',
  );
  const json = await fetch(`${served.base}/res/Book?publisher_id=3&_output=json`);
  expect(json.headers.get('content-type')).toBe('application/json');
  const body = (await json.json()) as { books: { publisher_id: number }[] };
  expect(body.books.length).toBeGreaterThan(0);
  expect(body.books.every((b) => b.publisher_id === 3)).toBe(true);
});

it('writes, and reads back with repeated query keys intact (a range)', async () => {
  const created = await fetch(`${served.base}/res/Publisher`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: 'name=Served+Press&country=SE&founded=2031',
  });
  expect(created.status).toBe(200);
  const echo = (await created.json()) as { rowsAffected: number; publishers: { id: number }[] };
  expect(echo.rowsAffected).toBe(1);
  const id = echo.publishers[0]?.id;
  const range = await fetch(`${served.base}/res/Publisher?founded=%3E2030&founded=%3C%3D2031&_output=json`);
  expect(await range.json()).toEqual({ publishers: [{ id, name: 'Served Press', country: 'SE', founded: 2031 }] });
  const outside = await fetch(`${served.base}/res/Publisher?founded=%3E2030&founded=%3C2031&_output=json`);
  expect(await outside.json()).toEqual({ publishers: [] });
  const updated = await fetch(`${served.base}/res/Publisher/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: 'founded=2032',
  });
  expect(await updated.json()).toEqual({ rowsAffected: 1 });
  const deleted = await fetch(`${served.base}/res/Publisher/${id}`, {
    method: 'DELETE',
    headers: { accept: 'application/json' },
  });
  expect(await deleted.json()).toEqual({ rowsAffected: 1 });
});

it('routes as serverless.yml does: 404 for unknown resources and paths, 405 with Allow, 400', async () => {
  const missing = await fetch(`${served.base}/res/Nope`);
  expect(missing.status).toBe(404);
  expect(await missing.text()).toBe(
    `SQL Resource Nope not found - expected ${path.join(root, 'definitions')}/Nope.xml`,
  );
  const nowhere = await fetch(`${served.base}/nowhere`);
  expect(nowhere.status).toBe(404);
  const patch = await fetch(`${served.base}/res/Publisher/1`, { method: 'PATCH' });
  expect(patch.status).toBe(405);
  expect(patch.headers.get('allow')).toBe('GET, HEAD, POST, PUT, DELETE');
  const postHealth = await fetch(`${served.base}/health`, { method: 'POST' });
  expect(postHealth.status).toBe(405);
  expect(postHealth.headers.get('allow')).toBe('GET, HEAD');
  const bad = await fetch(`${served.base}/res/Publisher?nosuch=1`);
  expect(bad.status).toBe(400);
  expect(await bad.text()).toMatch(/Unknown field nosuch in resource Publisher/);
  const health = await fetch(`${served.base}/health/db`);
  expect(health.status).toBe(200);
  const listing = await fetch(`${served.base}/res?_output=json`);
  expect(listing.status).toBe(200);
  expect(await listing.text()).toContain('PublisherBooks');
});

/**
 * Status and headers, but for those each answer has its own of, and the connection's: fetch asks to close the
 * connection after a HEAD.
 */
function statusAndHeaders(reply: Response): { status: number; headers: Record<string, string> } {
  const own = new Set(['x-request-id', 'date', 'connection', 'keep-alive']);
  return { status: reply.status, headers: Object.fromEntries([...reply.headers].filter(([name]) => !own.has(name))) };
}

it.each([
  '/health',
  '/health/db',
  '/res',
  '/res/Publisher/1',
  '/res/Book?publisher_id=3&_output=json',
  '/openapi.json',
])('answers HEAD %s as GET, with the length of its body and without it', async (target) => {
  const get = await fetch(`${served.base}${target}`);
  const head = await fetch(`${served.base}${target}`, { method: 'HEAD' });
  expect(statusAndHeaders(head)).toEqual(statusAndHeaders(get));
  expect(get.status).toBe(200);
  expect((await get.text()).length).toBeGreaterThan(0);
  expect(await head.text()).toBe('');
});

it('passes a binary body in base64, as API Gateway does, so the handler sees its type (415)', async () => {
  const binary = await fetch(`${served.base}/res/Publisher`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: new Uint8Array([0xff, 0x00, 0xfe]),
  });
  expect(binary.status).toBe(415);
});

/** One request over `agent`, returning the status, the body and whether the connection was reused. */
function get(agent: http.Agent, url: string): Promise<{ status: number; body: string; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, reused: request.reusedSocket }));
    });
    request.on('error', reject);
  });
}

it('keeps connections alive across requests', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const answers = [];
    for (const id of [1, 2, 3]) answers.push(await get(agent, `${served.base}/res/Publisher/${id}`));
    expect(answers.map((a) => [a.status, a.reused])).toEqual([
      [200, false],
      [200, true],
      [200, true],
    ]);
  } finally {
    agent.destroy();
  }
});

it('serves many requests at once, each its own answer', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  try {
    const ids = Array.from({ length: 48 }, (_, i) => (i % 12) + 1);
    const answers = await Promise.all(ids.map((id) => get(agent, `${served.base}/res/Publisher/${id}?_output=json`)));
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
    expect(answers.map((a) => (JSON.parse(a.body) as { publishers: { id: number }[] }).publishers[0]?.id)).toEqual(ids);
  } finally {
    agent.destroy();
  }
});

/** Sends a POST with `body` in pieces over a fresh connection; resolves with the status and body of the answer. */
function post(
  url: string,
  headers: Record<string, string>,
): {
  write(text: string): void;
  end(text?: string): void;
  answer: Promise<{ status: number; body: string; connection?: string }>;
} {
  let request!: http.ClientRequest;
  const answer = new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
    request = http.request(url, { method: 'POST', headers, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body, connection: response.headers.connection }),
      );
    });
    request.on('error', reject);
  });
  return { write: (text) => request.write(text), end: (text) => request.end(text), answer };
}

it('answers 413 to a declared body over MAX_BODY_BYTES without reading it, and closes the connection', async () => {
  const sending = post(`${served.base}/res/Publisher`, {
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(MAX_BODY_BYTES + 1),
  });
  sending.write('name=');
  const answer = await sending.answer;
  expect(answer).toEqual({
    status: 413,
    body: `The request body is larger than ${MAX_BODY_BYTES} bytes; send fewer rows per request`,
    connection: 'close',
  });
});

it('refuses a body over the limit before the client sends it when asked to continue (Expect: 100-continue)', async () => {
  const sending = post(`${served.base}/res/Publisher`, {
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(MAX_BODY_BYTES + 1),
    expect: '100-continue',
  });
  const answer = await sending.answer;
  expect([answer.status, answer.connection]).toEqual([413, 'close']);
});

it('stops reading a chunked body at the limit and answers 413', async () => {
  const sending = post(`${served.base}/res/Publisher`, { 'content-type': 'application/x-www-form-urlencoded' });
  sending.write(`name=${'x'.repeat(MAX_BODY_BYTES)}`);
  const answer = await sending.answer;
  expect([answer.status, answer.connection]).toEqual([413, 'close']);
});

it('on SIGTERM stops accepting, finishes the request in flight, then exits 0', async () => {
  const own = await serve();
  const body = 'name=Last+Words&country=NO&founded=2040';
  const sending = post(`${own.base}/res/Publisher`, {
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(Buffer.byteLength(body)),
    accept: 'application/json',
  });
  sending.write(body.slice(0, 10));
  await new Promise((resolve) => setTimeout(resolve, 300));
  signalServer(own, 'SIGTERM');
  await waitFor(() => own.output().includes('SIGTERM: stopping (1 requests in flight)'), 'the stop');
  await expect(fetch(`${own.base}/health`)).rejects.toThrow();
  sending.end(body.slice(10));
  const answer = await sending.answer;
  expect(answer.status).toBe(200);
  expect(answer.connection).toBe('close');
  expect(JSON.parse(answer.body)).toMatchObject({ rowsAffected: 1, publishers: [{ name: 'Last Words' }] });
  expect(await own.exited).toBe(0);
  expect(own.output()).toContain('Stopped.');
}, 60_000);
