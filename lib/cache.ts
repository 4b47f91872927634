/**
 * The one cache helper: values loaded on demand by key, kept for a time, on lru-cache's fetch(). Each cache states
 * its policy where it is created:
 * - `ttlMs`: how long a value is fresh (0: it is loaded again for every request that asks; Infinity: loaded once);
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
  /** The value kept for `key`, fresh or stale, without loading or touching it. */
  peek(key: K): V | undefined;
  /** Forgets the values of the keys that `which` picks (a reload of one). */
  forget(which: (key: K) => boolean): void;
  /** Forgets every value (a reload, or a test that changes what is loaded). */
  clear(): void;
}

export function createCache<K extends {}, V extends {}>(policy: CachePolicy<K, V>): Cache<K, V> {
  const cache = new LRUCache<K, V>({
    max: policy.max,
    // lru-cache reads a ttl of 0 as "never stale": a millisecond is as good as none
    ttl: policy.ttlMs === Number.POSITIVE_INFINITY ? 0 : Math.max(1, policy.ttlMs),
    allowStale: policy.staleWhileRevalidate,
    fetchMethod: (key, stale) => policy.load(key, stale),
    // a value forgotten while it loads still reaches the requests that wait for it, and is not kept
    ignoreFetchAbort: true,
  });
  /** Every key asked for, loading or kept: lru-cache's keys() leaves out the ones loading. */
  const asked = new Set<K>();
  return {
    get: async (key) => {
      asked.add(key);
      const value = await cache.fetch(key);
      // fetch() gives undefined only when the load did; load() never resolves undefined
      if (value === undefined) throw new Error('the cache loaded nothing');
      return value;
    },
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
