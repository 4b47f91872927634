/**
 * The network between the service and a real database server breaks: a TCP proxy of the test's own sits in
 * between (test/support/tcp-proxy.ts) and refuses connections, black-holes them, drops one in the middle of a
 * stream, or freezes them. For each fault, on a read and on single-row, multi-row (3,000 rows) and nested
 * writes: the answer is the unreachable-database 500 (`driver message :: SQL`) within the fault's bound, no
 * write is partly committed, the process survives (no uncaught exception, no unhandled rejection), and the
 * first request after the network heals succeeds. The timeouts are set low so that the file stays fast.
 *
 * Servers only: PGlite runs inside this process, behind no network that could break.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverTargets, type Target } from '../support/databases';
import { type Fixture, useFixture } from '../support/fixture';
import { invoke, testDefinitions, useService } from '../support/service';
import { type DropTrigger, startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

const connectTimeoutMs = 1000;
const statementTimeoutMs = 1500;

/** Errors come as problem details: the code, and the body's sentence as `detail`. */
const accept = 'application/json, application/problem+json';

/** Anything that would crash a Lambda process: collected during the whole file, none may happen. */
const crashes: string[] = [];
const record = (kind: string) => (error: unknown) =>
  crashes.push(`${kind}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
const onUncaught = record('uncaught exception');
const onUnhandled = record('unhandled rejection');
beforeAll(() => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUnhandled);
});
afterAll(async () => {
  // a timer of a given-up call would fire after its test: give them the time to
  await new Promise((resolve) => setTimeout(resolve, statementTimeoutMs));
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUnhandled);
  expect(crashes).toEqual([]);
});

interface Operation {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** The request: the same during the fault and after it heals (a partly committed write would now conflict). */
  body(fault: string): string | undefined;
  /** Where a drop cuts this operation's stream. */
  readonly drop: DropTrigger;
  /** The statement in the 500 when the drop cuts it; the other faults stop a write at its first statement. */
  readonly cutStatement: RegExp;
  /** The tables it writes, counted before and after the fault. */
  readonly tables: readonly string[];
}

const dropped = 'dropped mid-stream';

/** 3,000 rows where a drop cuts them halfway; other faults stop a write before its first row, 300 do. */
const bulk = (fault: string) =>
  JSON.stringify({
    items: Array.from({ length: fault === dropped ? 3000 : 300 }, (_, i) => ({
      name: `bulk-${String(i + 1).padStart(4, '0')}`,
      qty: 1,
    })),
  });

const operations: readonly Operation[] = [
  {
    name: 'a read',
    method: 'GET',
    path: '/res/Item/1',
    body: () => undefined,
    // the answer is cut before its first byte reaches the service
    drop: { direction: 'toClient', afterBytes: 0, how: 'reset' },
    cutStatement: /^SELECT \* FROM \(select item\.item_id/,
    tables: [],
  },
  {
    name: 'a single-row write',
    method: 'POST',
    path: '/res/Item',
    body: () => JSON.stringify({ items: [{ name: 'solo', qty: 2, color: 'red' }] }),
    // the COMMIT never reaches the server
    drop: { direction: 'toServer', at: /commit/i, how: 'close' },
    cutStatement: /^COMMIT$/,
    tables: ['item', 'item_ext'],
  },
  {
    name: 'a multi-row write (3,000 rows when dropped)',
    method: 'POST',
    path: '/res/Item',
    body: bulk,
    // halfway: 1,499 rows are in the transaction, the 1,500th is on its way
    drop: { direction: 'toServer', at: /bulk-1500/, how: 'close' },
    cutStatement: /^INSERT INTO .*item.*'bulk-1500'/s,
    tables: ['item'],
  },
  {
    name: 'a nested write',
    method: 'POST',
    path: '/res/TeamPlayers',
    body: () =>
      JSON.stringify({
        teams: [{ team_name: 'Nest', motto: 'deep', players: [{ player_name: 'Zed' }, { player_name: 'Yan' }] }],
      }),
    // at the first child: the parent and its extension row are in the transaction
    drop: { direction: 'toServer', at: /Zed/, how: 'reset' },
    cutStatement: /^INSERT INTO .*player.*'Zed'/s,
    tables: ['team', 'team_ext', 'player'],
  },
];

interface Fault {
  readonly name: string;
  /** Breaks the network for `operation`. */
  start(proxy: TcpProxy, operation: Operation): Promise<void> | void;
  /** The driver's part of the 500's body. */
  readonly message: RegExp;
  /** The answer's time: from the request, or from the drop (a 3,000-row write takes its time to get there). */
  readonly atLeastMs: number;
  readonly withinMs: number;
}

const faults: readonly Fault[] = [
  {
    name: 'refused',
    start: (proxy) => proxy.refuse(),
    message: /ECONNREFUSED/,
    atLeastMs: 0,
    withinMs: 1000,
  },
  {
    name: 'black hole',
    start: (proxy) => proxy.blackHole(),
    message: /CONNECT_TIMEOUT|ETIMEDOUT/,
    atLeastMs: connectTimeoutMs - 100,
    withinMs: connectTimeoutMs + 1000,
  },
  {
    name: dropped,
    start: (proxy, operation) => proxy.drop(operation.drop),
    message: /CONNECTION_CLOSED|ECONNRESET|EPIPE|Connection lost/,
    atLeastMs: 0,
    withinMs: 1000,
  },
  {
    name: 'frozen',
    start: (proxy) => proxy.freeze(),
    message: /did not answer within 2000 ms/,
    atLeastMs: statementTimeoutMs,
    withinMs: statementTimeoutMs + 1000,
  },
];

const call = (operation: Operation, fault: Fault) =>
  invoke({
    method: operation.method,
    path: operation.path,
    headers: { accept, 'content-type': 'application/json' },
    body: operation.body(fault.name),
  });

async function counts(fx: Fixture, tables: readonly string[]): Promise<Record<string, number>> {
  return Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await fx.count(t)] as const)));
}

/** The test definitions, and Slow, whose read sleeps far longer than the statement timeout. */
function withSlowResource(target: Target): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rrs-faults-'));
  cpSync(testDefinitions, dir, { recursive: true });
  const sleep = target.engine === 'postgres' ? 'pg_sleep(5)::text' : 'sleep(5)';
  writeFileSync(
    path.join(dir, 'Slow.xml'),
    `<rs:sqlResource xmlns:rs="http://restsql.org/schema">
  <query>select item.item_id as id, ${sleep} as slept from item</query>
  <metadata><table name="item" role="Parent" rowAlias="item"/></metadata>
</rs:sqlResource>
`,
  );
  return dir;
}

/** The answer and how long it took, in milliseconds. */
async function timed<T>(request: () => Promise<T>): Promise<{ reply: T; ms: number; answered: number }> {
  const started = Date.now();
  const reply = await request();
  const answered = Date.now();
  return { reply, ms: answered - started, answered };
}

for (const target of serverTargets()) describeFaults(target);

function describeFaults(target: Target): void {
  describe(`${target.name} behind a broken network`, () => {
    const fx = useFixture(target);
    let proxy: TcpProxy;
    let definitions: string;
    /**
     * The statement a write's failure names: the transaction's first. BEGIN goes with the first statement on an open
     * connection (PostgreSQL pipelines them; MariaDB sends START TRANSACTION and an INSERT ... RETURNING as one
     * compound statement), so a frozen one names that statement (every write here starts with an INSERT); a BEGIN
     * that waits for a new connection goes alone, and is named.
     */
    const firstStatement = (fault: Fault) =>
      fault.name === 'frozen' ? /^INSERT INTO/ : target.engine === 'postgres' ? /^BEGIN$/ : /^START TRANSACTION$/;

    beforeAll(async () => {
      const server = new URL(fx.db.url);
      proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port) });
      definitions = withSlowResource(target);
      await useService({
        DATABASE_URL: proxy.url(fx.db.url),
        DEFINITIONS_DIR: definitions,
        DB_CONNECT_TIMEOUT_MS: String(connectTimeoutMs),
        DB_STATEMENT_TIMEOUT_MS: String(statementTimeoutMs),
        DB_POOL_SIZE: '2',
      });
    });
    afterEach(() => proxy.heal());
    afterAll(async () => {
      await useService({
        DB_CONNECT_TIMEOUT_MS: undefined,
        DB_STATEMENT_TIMEOUT_MS: undefined,
        DB_POOL_SIZE: undefined,
      });
      await proxy.close();
      rmSync(definitions, { recursive: true, force: true });
    });

    describe.each(faults)('$name', (fault) => {
      it.each(operations)('$name', async (operation) => {
        // a warm container: both resources loaded, a pooled connection open
        for (const path of ['/res/Item/1', '/res/TeamPlayers/1'])
          expect((await invoke({ method: 'GET', path })).status).toBe(200);
        const before = await counts(fx, operation.tables);

        await fault.start(proxy, operation);
        const { reply, ms, answered } = await timed(() => call(operation, fault));

        const problem = JSON.parse(reply.body);
        expect({ status: reply.status, code: problem.code }).toEqual({ status: 500, code: 'database_unreachable' });
        const [driverMessage, statement] = problem.detail.split(' :: ');
        expect(driverMessage).toMatch(fault.message);
        const cut = fault.name === dropped;
        expect(statement).toMatch(cut || operation.method === 'GET' ? operation.cutStatement : firstStatement(fault));
        // a 3,000-row write takes its time to reach the drop: counted from there
        const took = cut ? answered - (proxy.droppedAt ?? Number.NaN) : ms;
        expect(took).toBeGreaterThanOrEqual(fault.atLeastMs);
        expect(took).toBeLessThan(fault.withinMs);

        await proxy.heal();
        expect(await counts(fx, operation.tables)).toEqual(before);
        expect((await call(operation, fault)).status).toBe(200);
        expect(crashes).toEqual([]);
      });
    });

    it('a slow statement on a live network is cancelled at the statement timeout, or given up (MySQL)', async () => {
      // loads Slow (its catalog) without reading it: an unknown parameter is refused after that
      expect((await invoke({ method: 'GET', path: '/res/Slow', query: 'nofield=1' })).status).toBe(400);
      const { reply, ms } = await timed(() => invoke({ method: 'GET', path: '/res/Slow/1', headers: { accept } }));
      const problem = JSON.parse(reply.body);
      // PostgreSQL answers the cancel and keeps the connection; MySQL has no cancel, so the connection goes
      expect(`${reply.status} ${problem.code} ${problem.detail}`).toMatch(
        target.engine === 'postgres'
          ? /^500 database_error canceling statement due to user request :: SELECT/
          : /^500 database_unreachable The database did not answer within 2000 ms .* :: SELECT/,
      );
      expect(ms).toBeGreaterThanOrEqual(statementTimeoutMs);
      expect(ms).toBeLessThan(statementTimeoutMs + 1000);
      expect((await invoke({ method: 'GET', path: '/res/Item/1' })).status).toBe(200);
      expect(crashes).toEqual([]);
    });
  });
}

/** An echo server: what the proxy lets through comes back. */
async function startEcho(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Connects, writes `text`, and tells what happened within `waitMs`: the echo, silence, or the error. */
async function probe(port: number, text = 'ping', waitMs = 200): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const done = (outcome: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done(received || (socket.connecting ? 'not connected' : 'silence')), waitMs);
    socket.on('connect', () => socket.write(text));
    socket.on('data', (chunk) => {
      received += chunk.toString();
      if (received === text) done(`echo ${received}`);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    socket.on('close', () => done(received ? `closed after ${received}` : 'closed'));
  });
}

describe('the proxy breaks the network as the fault tests need', () => {
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let proxy: TcpProxy;
  beforeAll(async () => {
    echo = await startEcho();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: echo.port });
  });
  afterEach(() => proxy.heal());
  afterAll(async () => {
    await proxy.close();
    await echo.close();
  });

  it('passes data, and again after each fault heals', async () => {
    expect(await probe(proxy.port)).toBe('echo ping');
    await proxy.refuse();
    await proxy.heal();
    expect(await probe(proxy.port)).toBe('echo ping');
  });

  it('refuses connections', async () => {
    await proxy.refuse();
    expect(await probe(proxy.port)).toBe('ECONNREFUSED');
  });

  it('black-holes connections: accepted, never answered', async () => {
    await proxy.blackHole();
    expect(await probe(proxy.port)).toBe('silence');
  });

  it('freezes an open connection', async () => {
    const socket = net.connect(proxy.port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    const received: string[] = [];
    socket.on('data', (chunk) => received.push(chunk.toString()));
    socket.write('before');
    await new Promise((resolve) => setTimeout(resolve, 100));
    proxy.freeze();
    socket.write('after');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect({ received: received.join(''), open: !socket.destroyed }).toEqual({ received: 'before', open: true });
    socket.destroy();
  });

  it.each([
    { how: 'reset', outcome: 'ECONNRESET' },
    { how: 'close', outcome: 'closed' },
  ] as const)('drops a connection at its trigger ($how), once', async ({ how, outcome }) => {
    proxy.drop({ direction: 'toServer', at: /cut here/, how });
    expect(await probe(proxy.port, 'cut here')).toBe(outcome);
    expect(proxy.droppedAt).toBeGreaterThan(Date.now() - 1000);
    expect(await probe(proxy.port, 'cut here')).toBe('echo cut here');
  });
});
