/**
 * Works through a long array a slice at a time, with a turn of the event loop between slices: a request of tens
 * of thousands of rows then holds the server mode's other requests up for a slice at a time (milliseconds), never
 * for a whole stage. The work, its order and its errors are exactly a plain loop's; an array of one slice or less
 * never waits. It only yields: no clock, no IO, so a pure stage that uses it stays pure.
 */

/**
 * Rows per slice: about a millisecond of planning (the dearest work per row) for rows of ten fields, less of the
 * rest. Requests in flight take turns, a slice each: five big writes at once hold a read up for five slices a turn.
 */
export const sliceRows = 64;

export interface Slicing<T> {
  /** What a slice may hold, in weight: sliceRows unless told. */
  readonly size?: number;
  /** What one item weighs: 1 unless told (a row and its child rows: one more per child). */
  readonly weight?: (item: T) => number;
}

/** A turn of the event loop: what is waiting (IO, timers, other requests' slices) runs before what follows. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** What work done in slices gives: at once when it all fit in one slice, else a promise of it. */
export type AtOnceOrLater<T> = T | Promise<T>;

/** `f` of a value given at once or later, at once when it was (no promise made). */
export function thenAtOnce<T, U>(value: AtOnceOrLater<T>, f: (value: T) => U): AtOnceOrLater<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/** Whether `items` fit in one slice: work on them never waits for a turn. */
export function fitsOneSlice<T>(items: readonly T[], { size = sliceRows, weight }: Slicing<T> = {}): boolean {
  if (!weight) return items.length <= size;
  let load = 0;
  for (const item of items) {
    load += weight(item);
    if (load > size) return false;
  }
  return true;
}

/** What a call answers when all of its work was done at once: one promise for every such call. */
const doneAtOnce: Promise<void> = Promise.resolve();

/**
 * `work` on each item in order, with a turn of the event loop after each slice but the last. Work that returns a
 * promise is waited for before the next item; other work is not (a microtask per item would cost more than a cheap
 * item's work). Most calls hold one slice of cheap work (a request of a few rows): that is done at once, and the call
 * makes no promise of its own; the rest goes on asynchronously from the first slice's end or the first promise.
 */
export function forEachInSlices<T>(
  items: readonly T[],
  work: (item: T, index: number) => unknown,
  slicing: Slicing<T> = {},
): Promise<void> {
  const { size = sliceRows, weight } = slicing;
  let load = 0;
  try {
    for (let i = 0; i < items.length; i++) {
      if (load >= size) return inSlicesFrom(items, work, slicing, i, load);
      const item = items[i] as T;
      const done = work(item, i);
      load += weight ? weight(item) : 1;
      if (done instanceof Promise) return done.then(() => inSlicesFrom(items, work, slicing, i + 1, load));
    }
  } catch (error) {
    return Promise.reject(error);
  }
  return doneAtOnce;
}

/** forEachInSlices from item `start` on, `load` already in the current slice. */
async function inSlicesFrom<T>(
  items: readonly T[],
  work: (item: T, index: number) => unknown,
  { size = sliceRows, weight }: Slicing<T>,
  start: number,
  load: number,
): Promise<void> {
  for (let i = start; i < items.length; i++) {
    if (load >= size) {
      load = 0;
      await nextTurn();
    }
    const item = items[i] as T;
    const done = work(item, i);
    if (done instanceof Promise) await done;
    load += weight ? weight(item) : 1;
  }
}

/** As Array.prototype.map, in slices (forEachInSlices). */
export function mapInSlices<T, U>(
  items: readonly T[],
  work: (item: T, index: number) => U | Promise<U>,
  slicing?: Slicing<T>,
): Promise<U[]> {
  const out: U[] = [];
  const keep = (value: U) => {
    out.push(value);
  };
  const all = forEachInSlices(
    items,
    (item, i) => {
      const result = work(item, i);
      return result instanceof Promise ? result.then(keep) : keep(result);
    },
    slicing,
  );
  return all.then(() => out);
}
