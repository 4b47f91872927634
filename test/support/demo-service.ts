/**
 * The service on the demo bookstore: the bundled definitions (definitions/) over a PGlite seeded with the demo
 * data and served on the wire protocol, for the tests that call the real handlers on the demo. Registers its own
 * beforeAll and afterAll; the environment it changes is put back afterwards.
 */
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { closeDatabases } from '../../lib/db/select-database';
import { startPgliteServer } from '../../scripts/pglite-server';
import { createPglite } from './pglite';
import { useService } from './service';

export const demoDefinitions = path.resolve(__dirname, '..', '..', 'definitions');

export function useDemoService(): void {
  const saved = { ...process.env };
  let db: PGlite;
  let server: Awaited<ReturnType<typeof startPgliteServer>>;
  beforeAll(async () => {
    db = await createPglite('demo');
    server = await startPgliteServer(db);
    const url = server.url('bookstore');
    await useService({ DATABASE_URL: url, DATABASE_URL_BOOKSTORE: url, DEFINITIONS_DIR: demoDefinitions });
  });
  afterAll(async () => {
    await closeDatabases();
    await server?.stop();
    await db?.close();
    const keys = ['DATABASE_URL', 'DATABASE_URL_BOOKSTORE', 'DEFINITIONS_DIR'];
    await useService(Object.fromEntries(keys.map((k) => [k, saved[k]])));
  });
}
