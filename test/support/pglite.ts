/**
 * PGlite for the tests, started from a snapshot of its data folder. A fresh PGlite runs initdb, seconds of CPU on
 * this kind of machine, and the demo's seed adds more; the data folder that results is the same every time. So the
 * first test of a run that needs a given content (empty, or the demo bookstore) builds it the ordinary way and
 * saves the folder, and every later one loads that copy: same catalog, same rows, same sequences, without
 * the work. The snapshots live in a folder of the run (the global setup makes it, the teardown removes it).
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { seedDemo } from '../../scripts/demo/seed';

export const SNAPSHOTS_DIR_VARIABLE = 'RRS_TEST_PGLITE_SNAPSHOTS';

/** What a new PGlite holds: nothing, or the demo bookstore as `npm run demo:seed` writes it. */
export type PgliteContent = 'empty' | 'demo';

const fill: Record<PgliteContent, (db: PGlite) => Promise<unknown>> = {
  empty: async () => {},
  demo: (db) => seedDemo((sql) => db.exec(sql), 'postgres'),
};

/** Where the run keeps its snapshot of `content`; undefined when jest ran without the global setup. */
function snapshotPath(content: PgliteContent): string | undefined {
  const dir = process.env[SNAPSHOTS_DIR_VARIABLE];
  return dir ? path.join(dir, `${content}.tar`) : undefined;
}

/** A new in-memory PGlite with `content`, loaded from the run's snapshot once one exists. */
export async function createPglite(content: PgliteContent = 'empty'): Promise<PGlite> {
  const file = snapshotPath(content);
  if (file && existsSync(file)) return PGlite.create({ loadDataDir: new Blob([readFileSync(file)]) });
  const db = await PGlite.create();
  await fill[content](db);
  if (file) {
    // written under a name of its own and renamed: a worker reading it meanwhile sees no half-written file
    const dump = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
    const partial = `${file}.${process.pid}.${Date.now()}`;
    writeFileSync(partial, dump);
    renameSync(partial, file);
  }
  return db;
}

/**
 * The run's snapshot file of `content`, made now if no test has made it yet: for `npm start` processes, which load
 * it instead of seeding the demo (scripts/start.ts, RRS_DEMO_SNAPSHOT).
 */
export async function snapshotFile(content: PgliteContent): Promise<string | undefined> {
  const file = snapshotPath(content);
  if (file && !existsSync(file)) await (await createPglite(content)).close();
  return file;
}

/** For the global setup: the run's folder of snapshots, named in the environment the test workers inherit. */
export function makeSnapshotsDir(): void {
  process.env[SNAPSHOTS_DIR_VARIABLE] = mkdtempSync(path.join(os.tmpdir(), 'rrs-pglite-'));
}

/** For the global teardown. */
export function removeSnapshotsDir(): void {
  const dir = process.env[SNAPSHOTS_DIR_VARIABLE];
  if (dir) rmSync(dir, { recursive: true, force: true });
}
