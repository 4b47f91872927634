/**
 * The one cache helper (lib/cache.ts): a load shared by the requests that ask meanwhile; fresh for its TTL; once
 * stale, either waited for or answered stale while it reloads, as its policy says; a failed load thrown to whoever
 * waited and kept by no one; the value it replaces handed to the load; a TTL of 0 loading every time, an infinite one
 * once; values peeked at without loading, and forgotten by key, loading or kept; a refresh on demand, a failed one
 * keeping the old value by policy; the context of the request that starts a load; a fresh value taken at once.
 */
import { createCache } from '../../lib/cache';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function counting(ttlMs: number, staleWhileRevalidate: boolean) {
  const seen: (number | undefined)[] = [];
  let loads = 0;
  let failing = false;
  const cache = createCache<string, { n: number }>({
    ttlMs,
    staleWhileRevalidate,
    max: 10,
    load: async (_key, stale) => {
      loads += 1;
      seen.push(stale?.n);
      await pause(20);
      if (failing) throw new Error(`load ${loads} failed`);
      return { n: loads };
    },
  });
  return {
    cache,
    seen,
    loads: () => loads,
    fail: (on: boolean) => {
      failing = on;
    },
  };
}

it('shares one load among the requests that ask while it runs, and keeps the value for its TTL', async () => {
  const c = counting(200, false);
  expect(await Promise.all([c.cache.get('a'), c.cache.get('a'), c.cache.get('a')])).toEqual([
    { n: 1 },
    { n: 1 },
    { n: 1 },
  ]);
  expect(await c.cache.get('a')).toEqual({ n: 1 });
  expect(await c.cache.get('b')).toEqual({ n: 2 });
  expect(c.loads()).toBe(2);
});

it('without stale-while-revalidate, a stale value is waited for, and the load gets the value it replaces', async () => {
  const c = counting(30, false);
  await c.cache.get('a');
  await pause(50);
  expect(await Promise.all([c.cache.get('a'), c.cache.get('a')])).toEqual([{ n: 2 }, { n: 2 }]);
  expect(c.seen).toEqual([undefined, 1]);
});

it('with stale-while-revalidate, a stale value is answered while one reload runs', async () => {
  const c = counting(30, true);
  await c.cache.get('a');
  await pause(50);
  expect(await Promise.all([c.cache.get('a'), c.cache.get('a')])).toEqual([{ n: 1 }, { n: 1 }]);
  await pause(40);
  expect(await c.cache.get('a')).toEqual({ n: 2 });
  expect(c.loads()).toBe(2);
});

it('throws a failed load to whoever waited, keeps nothing of it, and loads again next time', async () => {
  const c = counting(1000, false);
  c.fail(true);
  await expect(Promise.all([c.cache.get('a'), c.cache.get('a')])).rejects.toThrow('load 1 failed');
  c.fail(false);
  expect(await c.cache.get('a')).toEqual({ n: 2 });
});

it('with stale-while-revalidate, a failed reload drops the stale value: the next request waits and sees the failure', async () => {
  const c = counting(30, true);
  await c.cache.get('a');
  await pause(50);
  c.fail(true);
  expect(await c.cache.get('a')).toEqual({ n: 1 });
  await pause(40);
  await expect(c.cache.get('a')).rejects.toThrow('load 3 failed');
});

it('with a TTL of 0, loads for every request that does not share a running load; clear forgets everything', async () => {
  const c = counting(0, false);
  await c.cache.get('a');
  await pause(5);
  await c.cache.get('a');
  expect(c.loads()).toBe(2);
  const d = counting(1000, false);
  await d.cache.get('a');
  d.cache.clear();
  await d.cache.get('a');
  expect(d.loads()).toBe(2);
});

it('forgets the keys asked for, loading or kept: a load forgotten midway reaches its waiters and is not kept', async () => {
  const c = counting(10_000, false);
  expect(await c.cache.get('a')).toEqual({ n: 1 });
  expect(c.cache.peek('a')).toEqual({ n: 1 });
  const loading = c.cache.get('b');
  c.cache.forget((key) => key === 'a' || key === 'b');
  expect(c.cache.peek('a')).toBeUndefined();
  expect(await loading).toEqual({ n: 2 });
  expect(c.cache.peek('b')).toBeUndefined();
  expect(await c.cache.get('b')).toEqual({ n: 3 });
  expect(c.cache.peek('b')).toEqual({ n: 3 });
});

it('keeps a value with an infinite TTL until it is forgotten', async () => {
  const c = counting(Number.POSITIVE_INFINITY, false);
  await c.cache.get('a');
  await pause(30);
  expect(await c.cache.get('a')).toEqual({ n: 1 });
  c.cache.clear();
  expect(await c.cache.get('a')).toEqual({ n: 2 });
});

it('peeks at a stale value without loading', async () => {
  const c = counting(10, true);
  await c.cache.get('a');
  await pause(30);
  expect(c.cache.peek('a')).toEqual({ n: 1 });
  expect(c.loads()).toBe(1);
});

it('refresh loads a value again now, fresh or not, sharing a load that runs', async () => {
  const c = counting(Number.POSITIVE_INFINITY, false);
  await c.cache.get('a');
  await pause(30);
  expect(await c.cache.get('a')).toEqual({ n: 1 });
  expect(await Promise.all([c.cache.refresh('a'), c.cache.refresh('a'), c.cache.get('a')])).toEqual([
    { n: 2 },
    { n: 2 },
    { n: 2 },
  ]);
  expect(c.seen).toEqual([undefined, 1]);
});

it('a refresh that fails is thrown; the value it was to replace is kept only with keepWhenReloadFails', async () => {
  for (const keep of [true, false]) {
    let failing = false;
    let loads = 0;
    const cache = createCache<string, { n: number }>({
      ttlMs: Number.POSITIVE_INFINITY,
      staleWhileRevalidate: false,
      max: 10,
      keepWhenReloadFails: keep,
      load: async () => {
        loads += 1;
        if (failing) throw new Error(`load ${loads} failed`);
        return { n: loads };
      },
    });
    await cache.get('a');
    failing = true;
    await expect(cache.refresh('a')).rejects.toThrow('load 2 failed');
    if (keep) expect(await cache.get('a')).toEqual({ n: 1 });
    else await expect(cache.get('a')).rejects.toThrow('load 3 failed');
  }
});

it("hands the load the context of the request that started it, and shares that load's value", async () => {
  const contexts: (string | undefined)[] = [];
  const cache = createCache<string, { from: string }, string>({
    ttlMs: 1000,
    staleWhileRevalidate: false,
    max: 10,
    load: async (key, _stale, context) => {
      contexts.push(context);
      await pause(10);
      return { from: `${key} by ${context}` };
    },
  });
  expect(await Promise.all([cache.get('a', 'first'), cache.get('a', 'second')])).toEqual([
    { from: 'a by first' },
    { from: 'a by first' },
  ]);
  expect(contexts).toEqual(['first']);
});

it('gives a fresh value at once, and nothing while it is missing, loading or stale, a stale one staying for get', async () => {
  const c = counting(60, true);
  expect(c.cache.fresh('a')).toBeUndefined();
  const loading = c.cache.get('a');
  expect(c.cache.fresh('a')).toBeUndefined();
  await loading;
  expect(c.cache.fresh('a')).toEqual({ n: 1 });
  expect(c.loads()).toBe(1);
  await pause(80);
  expect(c.cache.fresh('a')).toBeUndefined();
  // the stale value was kept: get answers it while the one reload runs
  expect(await c.cache.get('a')).toEqual({ n: 1 });
  await pause(40);
  expect(c.cache.fresh('a')).toEqual({ n: 2 });
  expect(c.loads()).toBe(2);
});
