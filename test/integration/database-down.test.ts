/**
 * A database that cannot be reached answers 500 with `driver message :: SQL` within the connect timeout, and the
 * service recovers by itself when the database comes back. The network faults on a server that was reached
 * (dropped, frozen connections) are in test/faults.
 */
import net from 'node:net';
import { closeDatabases } from '../../lib/db/select-database';
import { startPgliteServer } from '../../scripts/pglite-server';
import { createPglite } from '../support/pglite';
import { testData, testSchema } from '../support/schema';
import { invoke, testDefinitions, useService } from '../support/service';

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

afterEach(closeDatabases);

describe.each([
  ['postgres', (port: number) => `postgres://postgres:secret-pw@127.0.0.1:${port}/x`],
  ['mysql', (port: number) => `mysql://root:secret-pw@127.0.0.1:${port}/x`],
])('%s unreachable', (_name, urlFor) => {
  it('answers 500 with the driver message, " :: " and the SQL, well within the connect timeout', async () => {
    await useService({
      DATABASE_URL: urlFor(await closedPort()),
      DEFINITIONS_DIR: testDefinitions,
      DB_CONNECT_TIMEOUT_MS: '2000',
    });
    const started = Date.now();
    const reply = await invoke({ method: 'GET', path: '/res/Item' });
    const elapsed = Date.now() - started;
    expect(reply.status).toBe(500);
    expect(reply.headers['content-type']).toMatch(/^text\/plain/);
    expect(reply.body).toMatch(/ECONNREFUSED.* :: select item\.item_id as id/is);
    expect(reply.body).not.toContain('secret-pw');
    expect(elapsed).toBeLessThan(2000);
    const write = await invoke({ method: 'DELETE', path: '/res/Item/1' });
    expect(write.status).toBe(500);
    expect(write.body).toMatch(/ :: /);
  });
});

/** A server that accepts connections and never says a word: the driver waits for its handshake. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => sockets.delete(socket));
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

describe.each([
  ['postgres', (port: number) => `postgres://postgres@127.0.0.1:${port}/x`, /CONNECT_TIMEOUT/],
  ['mysql', (port: number) => `mysql://root@127.0.0.1:${port}/x`, /ETIMEDOUT/],
])('%s silent (a host that never answers)', (_name, urlFor, driverMessage) => {
  it('answers 500 once DB_CONNECT_TIMEOUT_MS has passed, not after the statement timeout', async () => {
    const silent = await silentServer();
    await useService({
      DATABASE_URL: urlFor(silent.port),
      DEFINITIONS_DIR: testDefinitions,
      DB_CONNECT_TIMEOUT_MS: '1000',
      DB_STATEMENT_TIMEOUT_MS: '20000',
    });
    const started = Date.now();
    const reply = await invoke({ method: 'GET', path: '/res/Item/1' });
    const elapsed = Date.now() - started;
    await closeDatabases();
    await silent.close();
    expect(reply.status).toBe(500);
    expect(reply.body).toMatch(driverMessage);
    expect(reply.body).toMatch(/ :: select item\.item_id/);
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(5000);
  });
});

describe('recovery', () => {
  it('the next request after the database is back succeeds without a restart', async () => {
    const db = await createPglite();
    for (const statement of [...testSchema('postgres'), ...testData('postgres')]) await db.exec(statement);
    const port = await closedPort();
    let server = await startPgliteServer(db, { port });
    await useService({
      DATABASE_URL: server.url('test'),
      DEFINITIONS_DIR: testDefinitions,
      DB_CONNECT_TIMEOUT_MS: '2000',
    });
    expect((await invoke({ method: 'GET', path: '/res/Item/1' })).status).toBe(200);
    await server.stop();
    const down = await invoke({ method: 'GET', path: '/res/Item/1' });
    expect(down.status).toBe(500);
    expect(down.body).toMatch(/ :: SELECT \* FROM \(select item\.item_id/);
    expect(down.body).toMatch(/WHERE _r\."id" = '1' ORDER BY _r\."id" LIMIT 10001$/);
    server = await startPgliteServer(db, { port });
    const back = await invoke({ method: 'GET', path: '/res/Item/1', query: '_output=json' });
    expect(back.status).toBe(200);
    expect(JSON.parse(back.body).items[0].name).toBe('apple');
    await closeDatabases();
    await server.stop();
    await db.close();
  });
});
