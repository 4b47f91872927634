/**
 * The resources a caller may see, with what it may do on each: every definition it holds a privilege on (all of
 * them without sign-in), resolved a few at a time, in name order. One that fails to load is listed with the error a
 * request to it would answer with. The catalogue paths (serve-catalog) and the MCP endpoint (lib/mcp) both list
 * resources this way, so neither shows a caller more than the other.
 */
import { privilegesHeld } from '../auth/authorize';
import type { Caller, Privilege } from '../auth/caller';
import { privilegesOf } from '../auth/privileges-store';
import { config } from '../config';
import { definitionSource, resolveResource } from '../definitions/resolve-resource';
import { ServiceError, toServiceError } from '../errors';
import type { CatalogEntry, CatalogError } from '../serial/serialize-listing';

/** Definitions loaded at once: enough to overlap catalogue queries, few enough for a small connection pool. */
const concurrency = 4;

/** What the caller may do with each resource: every privilege without sign-in, else the privileges file's. */
export async function heldBy(caller: Caller): Promise<(name: string) => readonly Privilege[]> {
  const privileges = caller.signedIn ? await privilegesOf(config()) : undefined;
  return (name) => privilegesHeld(caller, privileges, name);
}

/**
 * Every definition the caller holds a privilege on, resolved at most `concurrency` at a time, in name order.
 * The others are not even loaded: the caller learns nothing of them.
 */
export async function resolveCatalog(held: (name: string) => readonly Privilege[]): Promise<CatalogEntry[]> {
  const settings = config();
  const names = (await definitionSource(settings).list()).filter((name) => held(name).length > 0);
  return mapBounded(names, concurrency, async (name): Promise<CatalogEntry> => {
    try {
      return { name, resource: (await resolveResource(settings, name)).resource };
    } catch (error) {
      return { name, error: catalogError(error) };
    }
  });
}

/** The status, code and text a request to the resource would answer with (no stack, no secret). */
function catalogError(error: unknown): CatalogError {
  if (!(error instanceof ServiceError)) {
    console.error('unexpected error loading a definition', error instanceof Error ? error.stack : String(error));
  }
  const { status, code, message } = toServiceError(error);
  return { status, code, message };
}

async function mapBounded<T, R>(items: readonly T[], limit: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await map(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
