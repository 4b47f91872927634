/**
 * Resolves a resource name to its SqlResource: read the definition from its source (a folder or S3), parse,
 * describe against the database, build. Cached per container and revalidated against the source at most every
 * DEFINITIONS_TTL_S seconds, beside the requests (they are answered from the cache meanwhile), so a changed
 * definition reaches every warm container within that time and the one revalidation after it; a failed load is not
 * cached, so a database that comes back is picked up by the next request. A catalog snapshot
 * beside the definitions (snapshot-store.ts) spares a cold container the catalog queries; a resource built from
 * one that its check finds stale is loaded again from the catalog.
 */
import { type Cache, createCache } from '../cache';
import type { Config } from '../config';
import { explainMissingDatabase } from '../db/choose-database';
import type { Database, QueryCatalog } from '../db/database';
import { selectDatabases } from '../db/select-database';
import { DatabaseError, DefinitionError, DefinitionsUnreachableError, ServiceError } from '../errors';
import type { ClaimQuery, EngineName, SqlResource } from '../resource';
import { buildResource } from './build-resource';
import type { DefinitionSource, StoredDefinition } from './definition-source';
import { fileSource } from './file-source';
import { resourceNotFound } from './locate-definition';
import { parseClaims, probeQuery } from './parse-claims';
import { type Definition, parseDefinition } from './parse-definition';
import { orderingClauses } from './query-shape';
import { catalogFromSnapshot, forgetSnapshots, readCatalogFor, type SnapshotCheck } from './snapshot-store';

export interface ResolvedResource {
  readonly resource: SqlResource;
  /** The writer: every write, with its own read-back, in its transaction. */
  readonly db: Database;
  /** Where reads go: DATABASE_READ_URL[_X] when set (an Aurora reader, a replica), else the writer itself. */
  readonly readDb: Database;
  readonly stored: StoredDefinition;
  /** What the catalog says about the definition (read now, or from the snapshot). */
  readonly catalog: QueryCatalog;
  /** The definition's `<database default="X">`, "" when it names none. */
  readonly database: string;
  /** Set when the catalog came from the snapshot: the check that vouches for it. */
  readonly snapshotCheck?: SnapshotCheck;
}

/** Resolved resources, per definitions source, with the configuration they were loaded under. */
const caches = new Map<string, { readonly config: Config; readonly resources: Cache<string, ResolvedResource> }>();
const sources = new Map<string, DefinitionSource>();

/** The key of the definitions source the configuration names. */
function sourceKey(config: Config): string {
  const s3 = config.definitionsS3;
  return s3 ? `${s3}\u0000${config.s3Endpoint ?? ''}` : config.definitionsDir;
}

/**
 * The definitions source the configuration names: DEFINITIONS_S3 or DEFINITIONS_DIR. s3-source (and
 * with it the AWS SDK) is required here, on first use, so a folder-based container never loads it.
 */
export function definitionSource(config: Config): DefinitionSource {
  const s3 = config.definitionsS3;
  const key = sourceKey(config);
  let source = sources.get(key);
  if (!source) {
    source = s3
      ? (require('./s3-source') as typeof import('./s3-source')).s3Source(s3, config.awsRegion, config.s3Endpoint)
      : fileSource(config.definitionsDir);
    sources.set(key, source);
  }
  return source;
}

/**
 * The cache of one source's resources. Policy: a resource is fresh for DEFINITIONS_TTL_S; after that, the first
 * request starts one revalidation (a conditional read of the definition, its ETag on S3) and, like every request
 * while it runs, is answered from the cached resource; a changed definition is loaded in full. With a TTL of 0 every
 * request revalidates and waits for it, so a change is seen at once (development). A failed load keeps nothing, so
 * a database that comes back is picked up by the next request. A changed configuration starts afresh.
 */
function resourcesOf(config: Config): Cache<string, ResolvedResource> {
  const key = sourceKey(config);
  const known = caches.get(key);
  if (known?.config === config) return known.resources;
  const source = definitionSource(config);
  const resources = createCache<string, ResolvedResource>({
    ttlMs: config.definitionsTtlS * 1000,
    staleWhileRevalidate: config.definitionsTtlS > 0,
    max: 10_000,
    load: (name, stale) =>
      stale ? revalidate(config, source, stale) : source.read(name).then((stored) => load(config, source, stored)),
  });
  caches.set(key, { config, resources });
  return resources;
}

/** The resource while its cached copy is fresh, at once; undefined when resolveResource must be waited for. */
export function resolvedNow(config: Config, name: string): ResolvedResource | undefined {
  const fresh = resourcesOf(config).fresh(name);
  return fresh?.snapshotCheck?.stale ? undefined : fresh;
}

export function resolveResource(config: Config, name: string): Promise<ResolvedResource> {
  const resources = resourcesOf(config);
  // built from a catalog snapshot that its check has since found stale: loaded again, from the catalog
  if (resources.peek(name)?.snapshotCheck?.stale) resources.forget((key) => key === name);
  return resources.get(name);
}

async function revalidate(
  config: Config,
  source: DefinitionSource,
  known: ResolvedResource,
): Promise<ResolvedResource> {
  const latest = await source.revalidate(known.stored).catch((error: unknown) => {
    // S3 out of reach: a warm container keeps serving the definition it has, and checks again after the TTL
    if (!(error instanceof DefinitionsUnreachableError)) throw error;
    console.warn(`${error.message}; serving the cached definition of ${known.stored.name}`);
    return 'unchanged' as const;
  });
  if (latest === 'unchanged') return known;
  if (latest === null) throw resourceNotFound(known.stored.name, known.stored.location);
  return load(config, source, latest);
}

/** Drops one resource (or all, and what was read of the catalog snapshot) from the cache; tests use it. */
export function forgetResource(name?: string): void {
  if (name === undefined) {
    caches.clear();
    sources.clear();
    forgetSnapshots();
    return;
  }
  for (const { resources } of caches.values()) resources.forget((key) => key === name);
}

/**
 * `resolved` for a write: built from a catalog snapshot, it waits for the snapshot's check first (only a container's
 * first writes, while the check is still on its way, wait at all), and when the check found the tables changed, the
 * resource is loaded again from the catalog. A write never relies on keys or columns nobody has confirmed.
 */
export async function confirmedForWrites(config: Config, resolved: ResolvedResource): Promise<ResolvedResource> {
  const check = resolved.snapshotCheck;
  if (!check) return resolved;
  await check.settled;
  return check.stale ? resolveResource(config, resolved.stored.name) : resolved;
}

/**
 * Whether `error`, from a request on `resolved`, came from a catalog snapshot that no longer matches the tables: a
 * statement the database refused (an unknown column, say) on a resource built from the snapshot. It waits for the
 * snapshot's check (begun beside the container's first request) and is true when the check found the tables
 * changed; the next resolveResource then loads the resource from the catalog, so the request can be served again
 * (once: a failed write was rolled back with its transaction).
 */
export async function failedOnStaleSnapshot(resolved: ResolvedResource, error: unknown): Promise<boolean> {
  const check = resolved.snapshotCheck;
  if (!check || !(error instanceof ServiceError)) return false;
  if (error.code !== 'database_error' && error.code !== 'bad_value') return false;
  await check.settled;
  return check.stale;
}

/**
 * Drops one resource (or all) and loads it again from its definition and the database catalog itself, never from
 * the catalog snapshot: /conf/reload (after a schema change, say) and `npm run validate`.
 */
export function reloadResource(config: Config, name?: string): void {
  forgetResource(name);
  readCatalogFor(definitionSource(config).root, name);
}

async function load(config: Config, source: DefinitionSource, stored: StoredDefinition): Promise<ResolvedResource> {
  const definition = parseDefinition(stored.location, stored.xml);
  const { db, readDb } = await selectDatabases(config, definition.database);
  const claimQuery = parseClaims(stored.location, definition.query, db.engine);
  const database = definition.database ?? '';
  const fromSnapshot = await catalogFromSnapshot(source, stored, database, readDb);
  const catalog = fromSnapshot?.catalog ?? (await describe(config, stored, definition, claimQuery, db, readDb));
  const resource = buildResource(stored.name, definition, catalog, db.engine);
  return {
    resource: claimQuery ? { ...resource, claimQuery } : resource,
    db,
    readDb,
    stored,
    catalog,
    database,
    ...(fromSnapshot ? { snapshotCheck: fromSnapshot.check } : {}),
  };
}

/** What the catalog says about the definition, read like any other row: from the reader when there is one. */
function describe(
  config: Config,
  stored: StoredDefinition,
  definition: Definition,
  claimQuery: ClaimQuery | undefined,
  db: Database,
  readDb: Database,
): Promise<QueryCatalog> {
  return readDb
    .describe(
      claimQuery ? probeQuery(claimQuery) : definition.query,
      definition.tables.map((t) => t.name),
    )
    .catch((error: unknown) => {
      // an unreachable database stays a 500 of its own; any other failure here is the definition's
      if (error instanceof DatabaseError && error.code === 'database_error') {
        const hint = pagingHint(definition.query, readDb.engine);
        throw new DefinitionError(stored.location, `its query fails on the database: ${error.message}${hint}`, error);
      }
      // selectDatabase has found a URL, so describe's database_unconfigured means its database does not exist
      if (error instanceof DatabaseError && error.code === 'database_unconfigured') {
        throw new DatabaseError(
          'database_unconfigured',
          explainMissingDatabase(config, stored.name, definition.database, readDb !== db),
          error,
        );
      }
      throw error;
    });
}

/**
 * Why a query that ends in LIMIT, OFFSET or FETCH may fail: the service reads its columns with a LIMIT of its own
 * after it, which MySQL and MariaDB refuse after any of them, and PostgreSQL after OFFSET or FETCH.
 */
function pagingHint(query: string, engine: EngineName): string {
  const caps = orderingClauses(query, engine).filter((c) => c !== 'ORDER BY');
  return caps.length === 0
    ? ''
    : ` (leave ${caps.join(' and ')} out of the query: the service pages reads itself, with _limit and _offset)`;
}
