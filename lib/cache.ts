/**
 * The one cache helper: values loaded on demand by key, kept for a time, on lru-cache's fetch(). Each cache states
 * its policy where it is created:
 * - `ttlMs`: how long a value is fresh (0: it is loaded again for every request that asks);
 * - `staleWhileRevalidate`: once stale, the old value is answered while the new one loads (otherwise a request
 *   waits for the new one);
 * - `max`: how many keys are kept (the least recently used goes first).
 * Requests that ask for the same key while it loads share one load; a load that fails is thrown to every request
 * that waited for it and keeps nothing, so the next request loads again. `load` gets the value it replaces, if any
 * (to revalidate it, e.g. by its version).
 */
import { LRUCache } from 'lru-cache';

export interface CachePolicy<K, V> {
  readonly ttlMs: number;
  readonly staleWhileRevalidate: boolean;
  readonly max: number;
  load(key: K, stale: V | undefined): Promise<V>;
}

export interface Cache<K, V> {
  get(key: K): Promise<V>;
  /** Forgets every value (a reload, or a test that changes what is loaded). */
  clear(): void;
}

export function createCache<K extends {}, V extends {}>(policy: CachePolicy<K, V>): Cache<K, V> {
  const cache = new LRUCache<K, V>({
    max: policy.max,
    // lru-cache reads a ttl of 0 as "never stale": a millisecond is as good as none
    ttl: Math.max(1, policy.ttlMs),
    allowStale: policy.staleWhileRevalidate,
    fetchMethod: (key, stale) => policy.load(key, stale),
  });
  return {
    get: async (key) => {
      const value = await cache.fetch(key);
      // fetch() gives undefined only when the load did; load() never resolves undefined
      if (value === undefined) throw new Error('the cache loaded nothing');
      return value;
    },
    clear: () => cache.clear(),
  };
}
