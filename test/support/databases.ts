/**
 * The databases integration tests run on: embedded PostgreSQL (PGlite over the wire) always; the PostgreSQL and
 * MariaDB servers when TEST_PG_URL / TEST_MYSQL_URL are set (.ci/run sets both and requires them). A server
 * without its URL is left out, and the run says so at the end (left-out.ts). Each target gets a fresh database
 * of its own, created and dropped here, so test files never disturb each other.
 */
import { engineOfUrl } from '../../lib/db/engines/registry';
import type { EngineName } from '../../lib/resource';
import { startPgliteServer } from '../../scripts/pglite-server';
import { createScratchDatabase } from '../../scripts/scratch-database';
import { markPerServer, missingServers, noteLeftOut, serverUrl, testServers } from './left-out';
import { createPglite as newPglite } from './pglite';

export interface TestDatabase {
  readonly url: string;
  readonly engine: EngineName;
  /** Runs SQL on the test database outside the service (setup, verification). */
  exec(sql: string): Promise<Record<string, unknown>[]>;
  drop(): Promise<void>;
}

export interface Target {
  readonly name: 'pglite' | 'postgres' | 'mariadb';
  readonly engine: EngineName;
  create(): Promise<TestDatabase>;
}

async function createPglite(): Promise<TestDatabase> {
  const db = await newPglite();
  const server = await startPgliteServer(db);
  return {
    url: server.url('test'),
    engine: 'postgres',
    exec: async (sql) => (await db.query<Record<string, unknown>>(sql)).rows,
    drop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

/** Each server whose URL is set, its engine read from its URL as the service reads it. */
function configuredServers(): Target[] {
  return testServers.flatMap((server) => {
    const url = serverUrl(server);
    if (!url) return [];
    const engine = engineOfUrl(url).name;
    const create = async () => ({ ...(await createScratchDatabase(url, 'rrs_t')), engine });
    return [{ name: server.name, engine, create }];
  });
}

/**
 * PGlite, plus each server whose URL is set. `describe.each(targets())` notes the servers it leaves out for
 * the run's summary; taking only the PGlite target from the list leaves nothing out.
 */
export function targets(): Target[] {
  return markPerServer(
    [{ name: 'pglite', engine: 'postgres', create: createPglite }, ...configuredServers()],
    missingServers(),
  );
}

/** The servers whose URL is set, for tests that only make sense on a server; the others are noted as left out. */
export function serverTargets(): Target[] {
  noteLeftOut(missingServers());
  return configuredServers();
}
