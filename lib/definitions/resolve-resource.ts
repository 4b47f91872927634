/**
 * Resolves a resource name to its SqlResource: locate (D3), read the file, parse (D1), describe against the
 * database (D4), build. Cached per container; a failed load is not cached, so a database that comes back is
 * picked up by the next request (D20). The file read and the database describe are the IO here.
 */
import { readFile } from 'node:fs/promises';
import type { Config } from '../config';
import { selectDatabase } from '../db/select-database';
import type { Database } from '../db/types';
import type { SqlResource } from '../resource';
import { buildResource } from './build-resource';
import { locateDefinition, resourceNotFound } from './locate-definition';
import { type Definition, parseDefinition } from './parse-definition';

export interface ResolvedResource {
  readonly resource: SqlResource;
  readonly db: Database;
}

const cache = new Map<string, Promise<ResolvedResource>>();

export function resolveResource(config: Config, name: string): Promise<ResolvedResource> {
  let pending = cache.get(name);
  if (!pending) {
    pending = loadResource(config, name);
    cache.set(name, pending);
    pending.catch(() => cache.delete(name));
  }
  return pending;
}

/** Drops one resource (or all) from the cache; /conf/reload and tests use it. */
export function forgetResource(name?: string): void {
  if (name === undefined) cache.clear();
  else cache.delete(name);
}

export async function loadDefinition(config: Config, name: string): Promise<Definition> {
  const location = locateDefinition(name, config.definitionsDir);
  if (!location.file) throw resourceNotFound(name, location.expected);
  const xml = await readFile(location.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'EISDIR') {
      throw resourceNotFound(name, location.expected);
    }
    throw error;
  });
  return parseDefinition(location.file, xml);
}

async function loadResource(config: Config, name: string): Promise<ResolvedResource> {
  const definition = await loadDefinition(config, name);
  const db = await selectDatabase(config, definition.database);
  const catalog = await db.describe(
    definition.query,
    definition.tables.map((t) => t.name),
  );
  return { resource: buildResource(name, definition, catalog, db.dialect), db };
}
