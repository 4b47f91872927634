/**
 * The one cache helper: values loaded on demand by key, kept for a time, on lru-cache's fetch(). Each cache states
 * its policy where it is created:
 * - `ttlMs`: how long a value is fresh (0: it is loaded again for every request that asks; Infinity: loaded once);
 * - `staleWhileRevalidate`: once stale, the old value is answered while the new one loads (otherwise a request
 *   waits for the new one);
 * - `max`: how many keys are kept (the least recently used goes first);
 * - `keepWhenReloadFails`: a reload that fails leaves the value it was to replace in place (otherwise it drops it).
 * Requests that ask for the same key while it loads share one load; a load that fails is thrown to every request
 * that waited for it and keeps nothing, so the next request loads again. `load` gets the value it replaces, if any
 * (to revalidate it, e.g. by its version), and the `context` of the request that started it: what the load needs
 * beyond the key (requests that share a load share that first context).
 */
import { LRUCache } from 'lru-cache';

export interface CachePolicy<K, V, C = undefined> {
  readonly ttlMs: number;
  readonly staleWhileRevalidate: boolean;
  readonly max: number;
  readonly keepWhenReloadFails?: boolean;
  load(key: K, stale: V | undefined, context: C | undefined): Promise<V>;
}

export interface Cache<K, V, C = undefined> {
  get(key: K, context?: C): Promise<V>;
  /**
   * The value kept for `key` while it is fresh, at once (no promise, no load); undefined when it must be waited for
   * (missing, loading, or stale): then `get`. What most requests of a warm container take.
   */
  fresh(key: K): V | undefined;
  /** Loads the value again now, fresh or not; a load already running for the key is shared instead. */
  refresh(key: K, context?: C): Promise<V>;
  /** The value kept for `key`, fresh or stale, without loading or touching it. */
  peek(key: K): V | undefined;
  /** Forgets the values of the keys that `which` picks (a reload of one). */
  forget(which: (key: K) => boolean): void;
  /** Forgets every value (a reload, or a test that changes what is loaded). */
  clear(): void;
}

export function createCache<K extends {}, V extends {}, C = undefined>(policy: CachePolicy<K, V, C>): Cache<K, V, C> {
  // the context's type is C, which lru-cache's overloads cannot follow: it is held as unknown, and read back as C
  const cache = new LRUCache<K, V, unknown>({
    max: policy.max,
    // lru-cache reads a ttl of 0 as "never stale": a millisecond is as good as none
    ttl: policy.ttlMs === Number.POSITIVE_INFINITY ? 0 : Math.max(1, policy.ttlMs),
    allowStale: policy.staleWhileRevalidate,
    noDeleteOnFetchRejection: policy.keepWhenReloadFails === true,
    fetchMethod: (key, stale, { context }) => policy.load(key, stale, context as C | undefined),
    // a value forgotten while it loads still reaches the requests that wait for it, and is not kept
    ignoreFetchAbort: true,
  });
  /** Every key asked for, loading or kept: lru-cache's keys() leaves out the ones loading. */
  const asked = new Set<K>();
  const fetch = async (key: K, context: C | undefined, forceRefresh: boolean) => {
    asked.add(key);
    const value = await cache.fetch(key, { context, forceRefresh });
    // fetch() gives undefined only when the load did; load() never resolves undefined
    if (value === undefined) throw new Error('the cache loaded nothing');
    return value;
  };
  return {
    get: (key, context) => fetch(key, context, false),
    refresh: (key, context) => fetch(key, context, true),
    // a stale value stays for get() to answer while it revalidates
    fresh: (key) => cache.get(key, { allowStale: false, noDeleteOnStaleGet: true }),
    peek: (key) => cache.peek(key, { allowStale: true }),
    forget: (which) => {
      for (const key of asked) {
        if (!which(key)) continue;
        cache.delete(key);
        asked.delete(key);
      }
    },
    clear: () => {
      cache.clear();
      asked.clear();
    },
  };
}
