/**
 * `serverless offline start` run directly in the project folder, without the `npm start` wrapper: it serves
 * the bundled definitions, and the handlers see the whole environment (DATABASE_URL_<NAME>, MAX_RESULT_BYTES,
 * ...), not only what serverless.yml declares. DATABASE_URL is unset; the demo lives in an embedded PGlite that
 * only DATABASE_URL_BOOKSTORE names.
 */
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type PgliteServer, startPgliteServer } from '../../scripts/pglite-server';
import { freePort, type LocalProcess, root, serviceEnv, startProcess } from '../support/local-process';
import { createPglite } from '../support/pglite';

let db: PGlite;
let pglite: PgliteServer;
let offline: LocalProcess;
let base = '';

beforeAll(async () => {
  db = await createPglite('demo');
  // a name only this database has, so a 200 proves the handlers read it
  await db.exec("update publisher set name = 'Direct Offline Press' where publisher_id = 1");
  pglite = await startPgliteServer(db);
  const port = await freePort();
  base = `http://localhost:${port}`;
  const env = serviceEnv({
    PORT: String(port),
    LAMBDA_PORT: '0',
    DATABASE_URL_BOOKSTORE: pglite.url('bookstore'),
    MAX_RESULT_BYTES: '4096',
  });
  offline = await startProcess(
    path.join(root, 'node_modules', '.bin', 'serverless'),
    ['offline', 'start'],
    env,
    'Server ready:',
  );
}, 130_000);

afterAll(async () => {
  await offline?.stop();
  await pglite?.stop();
  await db?.close();
});

it('reads a demo resource from the database DATABASE_URL_BOOKSTORE names', async () => {
  const reply = await fetch(`${base}/res/Publisher/1`, { headers: { accept: 'application/json' } });
  expect(reply.status).toBe(200);
  expect(await reply.json()).toEqual({
    publishers: [expect.objectContaining({ id: 1, name: 'Direct Offline Press' })],
  });
});

it('looks for definitions in the project folder, not in /var/task', async () => {
  const missing = await fetch(`${base}/res/Nope`);
  expect(missing.status).toBe(404);
  expect(await missing.text()).toBe(
    `SQL Resource Nope not found - expected ${path.join(root, 'definitions')}/Nope.xml`,
  );
});

it('passes variables serverless.yml does not declare: MAX_RESULT_BYTES limits a large read', async () => {
  const books = await fetch(`${base}/res/Book`, { headers: { accept: 'application/problem+json' } });
  expect(books.status).toBe(413);
  expect(await books.json()).toMatchObject({ code: 'result_too_large' });
});

it('serves the MCP endpoint through the mcp function: an SDK client lists the tools and reads a row', async () => {
  const client = new Client({ name: 'rrs-offline-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('read_Publisher');
    const read = await client.callTool({ name: 'read_Publisher', arguments: { where: { id: 1 } } });
    expect(read.structuredContent).toEqual({ publishers: [expect.objectContaining({ name: 'Direct Offline Press' })] });
  } finally {
    await client.close();
  }
});
