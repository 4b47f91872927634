/**
 * The catalog snapshot: what the database catalog said about each definition when `npm run validate -- --snapshot`
 * ran, written beside the definitions (catalog-snapshot.json) so that a cold container can build its resources
 * without the catalog queries. Each resource's entry holds the SHA-256 of the definition file it describes, so an
 * edited definition is never built from it; each database's entry holds the fingerprint of its tables
 * (lib/db/schema-fingerprint.ts), which a container checks once, beside its first request. Pure: the format,
 * its checks and the choice of an entry; reading, writing and checking live in snapshot-store.ts.
 */
import { createHash } from 'node:crypto';
import type { QueryCatalog } from '../db/database';
import { engineNamed } from '../db/engines/registry';
import type { TableName } from '../db/schema-fingerprint';
import type { EngineName } from '../resource';

export const snapshotFileName = 'catalog-snapshot.json';
/**
 * Raised whenever what a catalog holds changes (2: each column says whether it has a default, each table lists its
 * unique keys): a container ignores a snapshot of another format, with a warning to write it again, and reads the
 * catalog instead, as it does for a snapshot whose tables changed.
 */
const format = 2;

/** One database the definitions select (`<database default="X">`, or none: the key ""). */
export interface SnapshotDatabase {
  /** The database engine, under the key the file has always given it. */
  readonly dialect: EngineName;
  /** The database part of the URL the snapshot was read from: on MySQL it is the schema of unqualified tables. */
  readonly database: string;
  /** Every table the resources of this database read or write, and their fingerprint. */
  readonly tables: readonly TableName[];
  readonly fingerprint: string;
}

export interface SnapshotResource {
  /** The key of its database in `databases`. */
  readonly database: string;
  /** SHA-256 of the definition file the catalog was read for. */
  readonly definition: string;
  readonly catalog: QueryCatalog;
}

export interface CatalogSnapshot {
  readonly format: typeof format;
  readonly written: string;
  readonly databases: Readonly<Record<string, SnapshotDatabase>>;
  readonly resources: Readonly<Record<string, SnapshotResource>>;
}

export function definitionDigest(xml: string): string {
  return createHash('sha256').update(xml).digest('hex');
}

/** Every table a catalog names: the declared ones and those the query's columns come from. Sorted, unique. */
export function tablesOf(catalogs: readonly QueryCatalog[]): TableName[] {
  const all = new Map<string, TableName>();
  const add = (schema: string | null, table: string | null) => {
    if (schema !== null && table !== null) all.set(`${schema}\u0000${table}`, { schema, table });
  };
  for (const catalog of catalogs) {
    for (const t of Object.values(catalog.tables)) if (t) add(t.schema, t.table);
    for (const c of catalog.columns) add(c.schema, c.table);
  }
  return [...all.keys()].sort().map((key) => all.get(key) as TableName);
}

export function serializeSnapshot(
  databases: Readonly<Record<string, SnapshotDatabase>>,
  resources: Readonly<Record<string, SnapshotResource>>,
  written = new Date(),
): string {
  const snapshot: CatalogSnapshot = { format, written: written.toISOString(), databases, resources };
  return `${JSON.stringify(snapshot, null, 1)}\n`;
}

/** The snapshot in `text`, or what is wrong with it (a container then loads from the catalog, as without one). */
export function parseSnapshot(text: string): CatalogSnapshot | { readonly problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problem: `it is not JSON (${(error as Error).message})` };
  }
  const snapshot = parsed as Partial<CatalogSnapshot> | null;
  if (typeof snapshot !== 'object' || snapshot === null || snapshot.format !== format) {
    return { problem: `it is not a catalog snapshot of format ${format}` };
  }
  const { databases, resources } = snapshot;
  if (typeof databases !== 'object' || databases === null || typeof resources !== 'object' || resources === null) {
    return { problem: 'it has no databases or no resources' };
  }
  for (const [name, entry] of Object.entries(resources)) {
    const known = entry && Object.hasOwn(databases, entry.database);
    if (!known || typeof entry.definition !== 'string' || !Array.isArray(entry.catalog?.columns)) {
      return { problem: `its entry for resource ${name} is broken` };
    }
  }
  for (const [name, entry] of Object.entries(databases)) {
    if (!entry || typeof entry.fingerprint !== 'string' || !Array.isArray(entry.tables)) {
      return { problem: `its entry for database ${name || '(default)'} is broken` };
    }
  }
  return snapshot as CatalogSnapshot;
}

/** Where a container's resource would read its catalog, to match a snapshot entry against. */
export interface CatalogTarget {
  /** `<database default="X">`, or "" when the definition names none. */
  readonly database: string;
  readonly engine: EngineName;
  /** The database part of the URL the catalog would be read from. */
  readonly databaseName: string;
}

/**
 * The snapshot's entry for a definition, with its database's, when it describes exactly this file on this kind of database: the same
 * bytes, the same engine, and where the database is the schema (MySQL) the same database name (the schema every table name is
 * qualified with, so a snapshot of `staging` must never address `prod`'s tables). Undefined otherwise. On
 * PostgreSQL the schema lives inside the database, so a snapshot written on another database of the same shape
 * serves too; the fingerprint check says whether the shape is the same.
 */
export function snapshotEntry(
  snapshot: CatalogSnapshot,
  name: string,
  xml: string,
  target: CatalogTarget,
): { readonly resource: SnapshotResource; readonly database: SnapshotDatabase } | undefined {
  const resource = Object.hasOwn(snapshot.resources, name) ? snapshot.resources[name] : undefined;
  if (!resource || resource.database !== target.database || resource.definition !== definitionDigest(xml))
    return undefined;
  const database = snapshot.databases[resource.database];
  if (!database || database.dialect !== target.engine) return undefined;
  if (engineNamed(target.engine).databaseIsSchema && database.database !== target.databaseName) return undefined;
  return { resource, database };
}
