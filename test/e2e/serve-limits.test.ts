/**
 * What one client can hold of the server mode, over real sockets against `npm run serve` with sign-in on (the
 * demo bookstore in PGlite): a request without a valid token is answered 401 before its body is sent and its
 * connection closed; fifty slow unauthenticated uploads leave the process's memory where it was and are all
 * closed; a head that trickles in (slowloris) or never comes is cut at HEADERS_TIMEOUT_MS, a body that stalls at
 * REQUEST_TIMEOUT_MS; request bodies beyond MAX_BODY_BYTES_IN_FLIGHT and connections beyond MAX_CONNECTIONS get a
 * 503 with Retry-After, unread, and the service serves again once they are gone.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedDatabase } from '../../scripts/start';
import { startAuth, type TestAuth } from '../support/auth';
import { freePort, root, serviceEnv } from '../support/local-process';

const MiB = 1024 * 1024;
const MAX_BODY_BYTES = 4 * MiB;
const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 2000;

interface Served {
  readonly port: number;
  readonly pid: number;
  output(): string;
  stop(): Promise<void>;
}

let database: Awaited<ReturnType<typeof startEmbeddedDatabase>>;
let auth: TestAuth;
let dir: string;
let served: Served;
let small: Served;
let token: string;

async function waitFor(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `npm run serve` with sign-in on and these limits. */
async function serve(limits: Record<string, string>): Promise<Served> {
  const port = await freePort();
  const env = serviceEnv({
    ...database.env,
    ...auth.env,
    PRIVILEGES: path.join(dir, 'privileges.properties'),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'SILENT',
    MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    ...limits,
  });
  const child: ChildProcess = spawn('npm', ['run', '--silent', 'serve'], { cwd: root, env, detached: true });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await waitFor(() => output.includes('listening on') || child.exitCode !== null, 'npm run serve');
  const pid = Number(/\(pid (\d+)\)/.exec(output)?.[1]);
  if (!pid) throw new Error(`npm run serve did not start:\n${output}`);
  return {
    port,
    pid,
    output: () => output,
    async stop() {
      if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await exited;
    },
  };
}

beforeAll(async () => {
  database = await startEmbeddedDatabase();
  auth = await startAuth();
  dir = mkdtempSync(path.join(tmpdir(), 'rrs-serve-limits-'));
  writeFileSync(path.join(dir, 'privileges.properties'), '*.select=reader,writer\n*.insert=writer\n');
  [served, small] = await Promise.all([
    serve({ MAX_CONNECTIONS: '200', MAX_BODY_BYTES_IN_FLIGHT: String(2 * MAX_BODY_BYTES) }),
    serve({ MAX_CONNECTIONS: '3' }),
  ]);
  token = await auth.token({ roles: ['writer'] });
}, 120_000);

afterAll(async () => {
  await Promise.all([served?.stop(), small?.stop()]);
  await database?.stop();
  await auth?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A raw connection: what the server sent, whether and when it closed the connection. */
interface Raw {
  readonly socket: net.Socket;
  received(): string;
  /** Resolves once the server has sent `text` (or closed). */
  until(text: string): Promise<string>;
  readonly closed: Promise<void>;
  isClosed(): boolean;
}

async function open(port: number): Promise<Raw> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let text = '';
  let closed = false;
  const waiting: (() => void)[] = [];
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
    for (const wake of waiting.splice(0)) wake();
  });
  // writes after the server closed fail with EPIPE or ECONNRESET: expected here
  socket.on('error', () => {});
  const whenClosed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closed = true;
      for (const wake of waiting.splice(0)) wake();
      resolve();
    }),
  );
  const until = async (wanted: string) => {
    while (!text.includes(wanted) && !closed) await new Promise<void>((resolve) => waiting.push(resolve));
    return text;
  };
  return { socket, received: () => text, until, closed: whenClosed, isClosed: () => closed };
}

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

/** A POST of a form body of `length` bytes to /res/Publisher, its head only. */
function uploadHead(length: number, authorization?: string): string {
  return head([
    'POST /res/Publisher HTTP/1.1',
    'Host: 127.0.0.1',
    'Content-Type: application/x-www-form-urlencoded',
    `Content-Length: ${length}`,
    ...(authorization ? [`Authorization: ${authorization}`] : []),
  ]);
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) * 1024;
}

/** Resolves false if `closed` has not resolved within `ms`: the tests' own bound, far past the server's. */
const closedWithin = (raw: Raw, ms: number) =>
  Promise.race([raw.closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe('sign-in before the body', () => {
  it.each([
    ['no token', undefined, 'Sign-in required: send the header Authorization: Bearer <token>'],
    ['a token that is not one', 'Bearer not.a.token', 'The token is malformed: it is not a signed JSON Web Token'],
  ])('an upload with %s is answered 401 before its body is sent, and closed', async (_case, authorization, text) => {
    const raw = await open(served.port);
    raw.socket.write(uploadHead(MAX_BODY_BYTES, authorization));
    raw.socket.write('name=');
    const answer = await raw.until(text);
    expect(answer).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer.toLowerCase()).toContain('www-authenticate: bearer');
    expect(answer.toLowerCase()).toContain('x-content-type-options: nosniff');
    expect(await closedWithin(raw, 10_000)).toBe(true);
  });

  it('asks no token of the health checks', async () => {
    const raw = await open(served.port);
    raw.socket.write(head(['GET /health HTTP/1.1', 'Host: 127.0.0.1', 'Connection: close']));
    expect(await raw.until('{"status":"ok"}')).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it('reads the body of a request with a valid token, and serves it', async () => {
    const body = 'name=Signed+Press&country=SE&founded=2050';
    const raw = await open(served.port);
    raw.socket.write(uploadHead(body.length, `Bearer ${token}`));
    raw.socket.write(body);
    expect(await raw.until('rowsAffected')).toMatch(/^HTTP\/1\.1 200 OK/);
    raw.socket.destroy();
  });

  it('fifty slow unauthenticated uploads leave the memory where it was, and are all closed', async () => {
    const before = rssOf(served.pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(served.pid));
    }, 20);
    const length = MAX_BODY_BYTES - 1024;
    const piece = Buffer.alloc(256 * 1024, 'x');
    const uploads = await Promise.all(Array.from({ length: 50 }, () => open(served.port)));
    try {
      // every upload sends its head and all of its body but the last bytes, as fast as the server takes it
      await Promise.all(
        uploads.map(async (raw) => {
          raw.socket.write(uploadHead(length));
          for (let sent = 0; sent + piece.length < length && !raw.isClosed(); sent += piece.length) {
            if (!raw.socket.write(piece))
              await Promise.race([new Promise((resolve) => raw.socket.once('drain', resolve)), raw.closed]);
          }
        }),
      );
      const closed = await Promise.all(uploads.map((raw) => closedWithin(raw, 10_000)));
      expect(closed.filter((c) => !c)).toEqual([]);
      const answers = uploads.map((raw) => raw.received().split('\r\n')[0]);
      expect(answers.filter((answer) => answer !== 'HTTP/1.1 401 Unauthorized')).toEqual([]);
    } finally {
      clearInterval(sampler);
      for (const raw of uploads) raw.socket.destroy();
    }
    // the bodies together are 200 MB, and held they would all be in the process (it grew by 190 MB and kept them);
    // dropping what the clients still send grows the heap's young generation once, whatever their number
    expect(peak - before).toBeLessThan(80 * MiB);
  }, 60_000);
});

describe('timeouts', () => {
  it('cuts a head that trickles in (slowloris) at HEADERS_TIMEOUT_MS with a 408', async () => {
    const raw = await open(served.port);
    raw.socket.write('GET /res/Publisher HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // a header line every 100 ms, for at most 15 s: far longer than the server's 1 s
    for (let i = 0; i < 150 && !raw.isClosed(); i++) {
      raw.socket.write(`X-Slow-${i}: a\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(raw.isClosed()).toBe(true);
    expect(raw.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  }, 30_000);

  it('closes a connection that never sends a request', async () => {
    const raw = await open(served.port);
    expect(await closedWithin(raw, 15_000)).toBe(true);
  }, 30_000);

  it('cuts an authenticated body that stalls at REQUEST_TIMEOUT_MS', async () => {
    const raw = await open(served.port);
    raw.socket.write(uploadHead(100, `Bearer ${token}`));
    raw.socket.write('name=Stalled');
    expect(await closedWithin(raw, 15_000)).toBe(true);
    expect(raw.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  }, 30_000);

  it('keeps an idle keep-alive connection open past HEADERS_TIMEOUT_MS, and serves it', async () => {
    const raw = await open(served.port);
    raw.socket.write(head(['GET /health HTTP/1.1', 'Host: 127.0.0.1']));
    await raw.until('{"status":"ok"}');
    await new Promise((resolve) => setTimeout(resolve, HEADERS_TIMEOUT_MS * 3));
    expect(raw.isClosed()).toBe(false);
    raw.socket.write(head(['GET /health HTTP/1.1', 'Host: 127.0.0.1', 'Connection: close']));
    await raw.closed;
    expect(raw.received().match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
  }, 30_000);
});

describe('limits', () => {
  it('answers 503 with Retry-After to a body beyond MAX_BODY_BYTES_IN_FLIGHT, unread, and serves again after', async () => {
    // two uploads of the largest size hold the whole budget while their bodies arrive
    const holding = await Promise.all([open(served.port), open(served.port)]);
    for (const raw of holding) {
      raw.socket.write(uploadHead(MAX_BODY_BYTES, `Bearer ${token}`));
      raw.socket.write('name=');
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const third = await open(served.port);
    third.socket.write(uploadHead(1000, `Bearer ${token}`));
    third.socket.write('name=');
    const answer = await third.until('try again in a moment');
    expect(answer).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(answer.toLowerCase()).toContain('retry-after: 1');
    expect(answer).toContain('Too many request bodies are being received at once; try again in a moment');
    expect(await closedWithin(third, 10_000)).toBe(true);
    for (const raw of holding) raw.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const body = 'name=After+Press&country=SE&founded=2051';
    const after = await open(served.port);
    after.socket.write(uploadHead(body.length, `Bearer ${token}`));
    after.socket.write(body);
    expect(await after.until('rowsAffected')).toMatch(/^HTTP\/1\.1 200 OK/);
    after.socket.destroy();
  });

  it('answers 503 with Retry-After on a connection beyond MAX_CONNECTIONS, and serves again after', async () => {
    const get = head(['GET /health HTTP/1.1', 'Host: 127.0.0.1']);
    const kept = [];
    for (let i = 0; i < 3; i++) {
      const raw = await open(small.port);
      raw.socket.write(get);
      expect(await raw.until('{"status":"ok"}')).toMatch(/^HTTP\/1\.1 200 OK/);
      kept.push(raw);
    }
    const beyond = await open(small.port);
    beyond.socket.write(get);
    const answer = await beyond.until('try again in a moment');
    expect(answer).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(answer.toLowerCase()).toContain('retry-after: 1');
    expect(await closedWithin(beyond, 10_000)).toBe(true);
    kept[0]?.socket.destroy();
    await kept[0]?.closed;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await open(small.port);
    again.socket.write(get);
    expect(await again.until('{"status":"ok"}')).toMatch(/^HTTP\/1\.1 200 OK/);
    for (const raw of [...kept, again]) raw.socket.destroy();
  });

  it('says its limits and that sign-in is on when it starts', () => {
    expect(small.output()).toContain(
      "Limits: 3 connections, 64 MiB of request bodies at once, a request's headers within 1 s and all of it within 2 s",
    );
    expect(small.output()).toMatch(
      /^Sign-in: on\. Tokens from .* Privileges: .*privileges\.properties; roles from the claim roles$/m,
    );
    expect(small.output()).not.toContain('Sign-in: off');
  });
});
