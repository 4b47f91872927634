/**
 * Writes the catalog snapshot (catalog-snapshot.ts) beside the definitions: for each named resource, the catalog it
 * was just loaded with (from the catalog itself: validate reloads every resource first), and for each database
 * they select, the fingerprint of their tables, read on the same connection. Used by `npm run validate --
 * --snapshot` and the bench.
 */
import type { Config } from '../config';
import { schemaFingerprint } from '../db/schema-fingerprint';
import { databaseNameOf } from '../db/select-database';
import {
  definitionDigest,
  type SnapshotDatabase,
  type SnapshotResource,
  serializeSnapshot,
  tablesOf,
} from './catalog-snapshot';
import { definitionSource, type ResolvedResource, resolveResource } from './resolve-resource';

export interface WrittenSnapshot {
  readonly location: string;
  readonly resources: number;
  readonly databases: number;
}

export async function writeCatalogSnapshot(config: Config, names: readonly string[]): Promise<WrittenSnapshot> {
  const resolved: ResolvedResource[] = [];
  for (const name of names) resolved.push(await resolveResource(config, name));
  const resources: Record<string, SnapshotResource> = {};
  for (const r of resolved) {
    resources[r.stored.name] = { database: r.database, definition: definitionDigest(r.stored.xml), catalog: r.catalog };
  }
  const databases: Record<string, SnapshotDatabase> = {};
  for (const database of [...new Set(resolved.map((r) => r.database))].sort()) {
    const users = resolved.filter((r) => r.database === database);
    const { readDb } = users[0] as ResolvedResource;
    const tables = tablesOf(users.map((r) => r.catalog));
    databases[database] = {
      dialect: readDb.engine,
      database: databaseNameOf(readDb),
      tables,
      fingerprint: await schemaFingerprint(readDb, readDb.engine, tables),
    };
  }
  const location = await definitionSource(config).writeSnapshot(serializeSnapshot(databases, resources));
  return { location, resources: resolved.length, databases: Object.keys(databases).length };
}
