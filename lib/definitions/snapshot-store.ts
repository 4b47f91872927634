/**
 * A container's use of the catalog snapshot (catalog-snapshot.ts): read once from beside the definitions, it
 * answers for every definition it describes, and its database's fingerprint is checked once per container,
 * beside (not before) the first request that used it. A fingerprint that no longer matches makes the snapshot
 * stale for that database: the resources built from it are loaded again from the catalog (resolve-resource.ts
 * asks `stale` on every cache hit), and a warning says to write the snapshot again. A missing snapshot is the
 * normal case and costs one file check per container; a broken or unreadable one is a warning, never a failure.
 */
import { createCache } from '../cache';
import type { Database, QueryCatalog } from '../db/database';
import { schemaFingerprint } from '../db/schema-fingerprint';
import { databaseNameOf } from '../db/select-database';
import { outsideRequest } from '../request-context';
import { type CatalogSnapshot, parseSnapshot, type SnapshotDatabase, snapshotEntry } from './catalog-snapshot';
import type { DefinitionSource, StoredDefinition } from './definition-source';

/** The fingerprint check of one database's part of a snapshot, in this container. */
export interface SnapshotCheck {
  /** True once the check found that the database's tables changed since the snapshot was written. */
  stale: boolean;
  /** Resolves when the check is over: true when it confirmed the snapshot, false when stale or failed. */
  readonly settled: Promise<boolean>;
}

interface LoadedSnapshot {
  readonly location: string;
  readonly snapshot: CatalogSnapshot;
}

/**
 * The snapshot beside each definitions source (one source object per root). Policy: read once per container (until forgotten), one read shared by
 * the requests that ask while it runs; a snapshot that is missing, broken or unreadable is kept as none.
 */
const snapshots = createCache<DefinitionSource, { readonly loaded: LoadedSnapshot | null }>({
  ttlMs: Number.POSITIVE_INFINITY,
  staleWhileRevalidate: false,
  max: 100,
  load: async (source) => ({ loaded: await readSnapshotOf(source) }),
});
/**
 * The fingerprint check of each database of a snapshot. Not a cache of loaded values: a resource holds its check
 * from the moment it starts, to ask `stale` later, and a check that could not run is dropped for the next load.
 */
const checks = new Map<string, SnapshotCheck>();
/** `root\0name` of resources reloaded on purpose (/conf/reload, validate): they read the catalog itself. */
const fromCatalog = new Set<string>();
const everyResource = '\u0000*';

async function loadSnapshot(source: DefinitionSource): Promise<LoadedSnapshot | null> {
  return (await snapshots.get(source)).loaded;
}

function readSnapshotOf(source: DefinitionSource): Promise<LoadedSnapshot | null> {
  return source.readSnapshot().then(
    (found) => {
      if (!found) return null;
      const snapshot = parseSnapshot(found.text);
      if ('problem' in snapshot) {
        console.warn(
          `Ignoring the catalog snapshot ${found.location}: ${snapshot.problem}; write it again with npm run validate -- --snapshot`,
        );
        return null;
      }
      return { location: found.location, snapshot };
    },
    (error: unknown) => {
      console.warn(`Ignoring the catalog snapshot under ${source.root}, which could not be read: ${String(error)}`);
      return null;
    },
  );
}

/**
 * The catalog of `stored` from the snapshot, and the check that vouches for it; undefined when the snapshot does
 * not describe this very definition on this kind of database (or there is none, or it went stale): the caller
 * then reads the catalog.
 */
export async function catalogFromSnapshot(
  source: DefinitionSource,
  stored: StoredDefinition,
  database: string,
  readDb: Database,
): Promise<{ readonly catalog: QueryCatalog; readonly check: SnapshotCheck } | undefined> {
  if (fromCatalog.has(`${source.root}${everyResource}`) || fromCatalog.has(`${source.root}\u0000${stored.name}`))
    return undefined;
  const loaded = await loadSnapshot(source);
  if (!loaded) return undefined;
  const target = { database, engine: readDb.engine, databaseName: databaseNameOf(readDb) };
  const entry = snapshotEntry(loaded.snapshot, stored.name, stored.xml, target);
  if (!entry) return undefined;
  const key = `${source.root}\u0000${database}`;
  let check = checks.get(key);
  if (check?.stale) return undefined;
  if (!check) {
    check = startCheck(loaded.location, database, entry.database, readDb);
    checks.set(key, check);
    const started = check;
    // a check that could not run (the database unreachable) is tried again by the next load
    started.settled.then((confirmed) => {
      if (!confirmed && !started.stale && checks.get(key) === started) checks.delete(key);
    });
  }
  return { catalog: entry.resource.catalog, check };
}

/**
 * Compares the database's fingerprint with the snapshot's. It starts after the current request has sent its own
 * statement (setImmediate), outside the request, so the request neither waits for it nor counts it as its own:
 * PostgreSQL pipelines it on the same connection, MySQL runs it right after.
 */
function startCheck(location: string, name: string, expected: SnapshotDatabase, db: Database): SnapshotCheck {
  const check: { stale: boolean; settled?: Promise<boolean> } = { stale: false };
  check.settled = new Promise<boolean>((resolve) => {
    outsideRequest(() =>
      setImmediate(() => {
        schemaFingerprint(db, db.engine, expected.tables).then(
          (fingerprint) => {
            if (fingerprint === expected.fingerprint) return resolve(true);
            check.stale = true;
            console.warn(
              `The catalog snapshot ${location} no longer matches database ${name || '(default)'}: its tables changed since it was written. Its resources are loaded from the catalog; write the snapshot again with npm run validate -- --snapshot`,
            );
            resolve(false);
          },
          (error: unknown) => {
            // the message without the statement it ran (` :: ` and the SQL): the tables are in the snapshot
            const reason = String(error instanceof Error ? error.message : error).split(' :: ')[0];
            console.warn(`Could not check the catalog snapshot ${location} against the database: ${reason}`);
            resolve(false);
          },
        );
      }),
    );
  });
  return check as SnapshotCheck;
}

/** The next load of `name` (every resource, when undefined) under `root` reads the catalog itself, not the snapshot. */
export function readCatalogFor(root: string, name?: string): void {
  fromCatalog.add(name === undefined ? `${root}${everyResource}` : `${root}\u0000${name}`);
}

/** Forgets every snapshot read, check and reload (tests, the bench). */
export function forgetSnapshots(): void {
  snapshots.clear();
  checks.clear();
  fromCatalog.clear();
}
