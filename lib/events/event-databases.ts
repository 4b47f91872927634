/**
 * The databases a drain publishes from: those of the definitions that have <events>, found by reading the
 * definitions (not their catalogs), and each opened as the service opens it (its DATABASE_URL_<NAME>, or the database
 * of that name on DATABASE_URL's server). The list is kept for DEFINITIONS_TTL_S, as the definitions are (at least
 * 1 s: a drain looks every second), and read again after it. A definition that does not parse is left to the
 * requests that use it to report.
 */
import { type Cache, createCache } from '../cache';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { selectDatabase } from '../db/select-database';
import { parseDefinition } from '../definitions/parse-definition';
import { definitionSource } from '../definitions/resolve-resource';

export interface EventDatabase {
  /** The definitions' name for it (`<database default="...">`), '' for DATABASE_URL's own. */
  readonly name: string;
  /** The resources with events in it. */
  readonly resources: readonly string[];
  open(): Promise<Database>;
}

let kept: { readonly settings: Config; readonly cache: Cache<'all', EventDatabase[]> } | undefined;

export function eventDatabases(settings: Config): Promise<EventDatabase[]> {
  if (kept?.settings !== settings) {
    // policy: one entry, fresh for the definitions' TTL (at least a second), read again once stale
    const cache = createCache<'all', EventDatabase[]>({
      ttlMs: Math.max(1000, settings.definitionsTtlS * 1000),
      staleWhileRevalidate: false,
      max: 1,
      load: () => findEventDatabases(settings),
    });
    kept = { settings, cache };
  }
  return kept.cache.get('all');
}

async function findEventDatabases(settings: Config): Promise<EventDatabase[]> {
  const source = definitionSource(settings);
  const byDatabase = new Map<string, string[]>();
  for (const name of await source.list()) {
    const definition = await source.read(name).then(
      (stored) => parseDefinition(stored.location, stored.xml),
      () => undefined,
    );
    if (!definition?.events) continue;
    const database = definition.database ?? '';
    byDatabase.set(database, [...(byDatabase.get(database) ?? []), name]);
  }
  return [...byDatabase].map(([name, resources]) => ({
    name,
    resources,
    open: () => selectDatabase(settings, name === '' ? undefined : name),
  }));
}
