/**
 * `npm start` with only DATABASE_URL_BOOKSTORE set: no embedded demo is started or announced; the banner lists
 * the variables in use, password masked, and the demo resources are read from that database.
 */
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { type PgliteServer, startPgliteServer } from '../../scripts/pglite-server';
import { freePort, type LocalProcess, root, serviceEnv, startProcess } from '../support/local-process';
import { createPglite } from '../support/pglite';

let db: PGlite;
let pglite: PgliteServer;
let server: LocalProcess;
let base = '';
let bookstoreUrl = '';

beforeAll(async () => {
  db = await createPglite('demo');
  // a name only this database has, so a 200 proves the handlers read it
  await db.exec("update publisher set name = 'Named Database Press' where publisher_id = 1");
  pglite = await startPgliteServer(db);
  bookstoreUrl = `postgres://postgres:secret-pw@${pglite.host}:${pglite.port}/bookstore`;
  const port = await freePort();
  base = `http://localhost:${port}`;
  const env = serviceEnv({ PORT: String(port), DATABASE_URL_BOOKSTORE: bookstoreUrl });
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  server = await startProcess(tsx, ['scripts/start.ts'], env, 'Stop with Ctrl-C');
}, 130_000);

afterAll(async () => {
  await server?.stop();
  await pglite?.stop();
  await db?.close();
});

it('announces the variables in use, masked, and no embedded database', () => {
  const output = server.output();
  expect(output).toMatch(
    new RegExp(
      `Databases:\\n +DATABASE_URL_BOOKSTORE +postgres://postgres:\\*\\*\\*@127\\.0\\.0\\.1:${pglite.port}/bookstore\\n`,
    ),
  );
  expect(output).not.toMatch(/PGlite|DATABASE_URL +postgres/);
  expect(output).not.toContain('secret-pw');
});

it('reads the demo from the database DATABASE_URL_BOOKSTORE names', async () => {
  const reply = await fetch(`${base}/res/Publisher/1`, { headers: { accept: 'application/json' } });
  expect(reply.status).toBe(200);
  expect(await reply.json()).toEqual({
    publishers: [expect.objectContaining({ id: 1, name: 'Named Database Press' })],
  });
});
