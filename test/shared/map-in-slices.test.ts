/**
 * Table tests of the slicing helper: the same results, order and errors as a plain loop, and a turn of the event loop
 * exactly between slices. A turn shows in the log as `|`: a ticker, queued before the work starts, logs one each
 * time the event loop gets to it and queues itself again.
 */
import { fitsOneSlice, forEachInSlices, mapInSlices, type Slicing, thenAtOnce } from '../../lib/map-in-slices';

/** `run`'s log, each item as it is worked on, with `|` where other work got a turn. */
async function logOf(run: (log: string[]) => Promise<unknown>): Promise<string> {
  const log: string[] = [];
  let running = true;
  const tick = () => {
    if (!running) return;
    log.push('|');
    setImmediate(tick);
  };
  setImmediate(tick);
  await run(log);
  running = false;
  return log.join('');
}

const letters = (n: number) => 'abcdefghij'.slice(0, n).split('');
const weights: Readonly<Record<string, number>> = { a: 2, b: 2, c: 1, d: 3, e: 1 };

describe('forEachInSlices', () => {
  it.each<[string, string[], Slicing<string>, string]>([
    ['no items: no turn', [], { size: 3 }, ''],
    ['one slice: no turn', letters(3), { size: 3 }, 'abc'],
    ['a turn between two slices, none after the last', letters(4), { size: 3 }, 'abc|d'],
    ['a turn after each full slice', letters(7), { size: 3 }, 'abc|def|g'],
    ['slices of one', letters(3), { size: 1 }, 'a|b|c'],
    ['a slice ends once its weight is reached', letters(5), { size: 3, weight: (i) => weights[i] ?? 1 }, 'ab|cd|e'],
    ['an item weighing more than a slice is a slice of its own', ['d', 'a'], { size: 2, weight: () => 3 }, 'd|a'],
    ['64 items a slice unless told', Array(150).fill('x'), {}, `${'x'.repeat(64)}|${'x'.repeat(64)}|${'x'.repeat(22)}`],
  ])('%s', async (_name, items, slicing, expected) => {
    const log = await logOf((out) => forEachInSlices(items, (item) => out.push(item), slicing));
    expect(log).toBe(expected);
  });

  it('passes each item with its index', async () => {
    const seen: [string, number][] = [];
    await forEachInSlices(letters(5), (item, i) => seen.push([item, i]), { size: 2 });
    expect(seen).toEqual(letters(5).map((item, i) => [item, i]));
  });

  it('stops at the first item that throws, and rejects with its error', async () => {
    const seen: string[] = [];
    const failing = forEachInSlices(
      letters(8),
      (item) => {
        if (item === 'f') throw new Error('f is wrong');
        seen.push(item);
      },
      { size: 2 },
    );
    await expect(failing).rejects.toThrow('f is wrong');
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('does one slice of work that returns no promise before the call returns', async () => {
    const seen: string[] = [];
    const call = forEachInSlices(letters(3), (item) => seen.push(item), { size: 3 });
    expect(seen).toEqual(['a', 'b', 'c']);
    await call;
  });

  it('rejects, never throws, when an item of the first slice throws', async () => {
    let call: Promise<void> | undefined;
    expect(() => {
      call = forEachInSlices(letters(3), (item) => {
        if (item === 'b') throw new Error('b is wrong');
      });
    }).not.toThrow();
    await expect(call).rejects.toThrow('b is wrong');
  });

  it('waits for work that returns a promise before the next item', async () => {
    const log = await logOf((out) =>
      forEachInSlices(
        letters(3),
        async (item) => {
          await Promise.resolve();
          out.push(item);
        },
        { size: 2 },
      ),
    );
    expect(log).toBe('ab|c');
  });
});

describe('mapInSlices', () => {
  it.each<[string, number, number]>([
    ['no items', 0, 3],
    ['fewer than a slice', 2, 3],
    ['several slices', 10, 3],
  ])('gives what map gives: %s', async (_name, count, size) => {
    const items = Array.from({ length: count }, (_, i) => i);
    const work = (n: number, i: number) => `${n * 2}:${i}`;
    expect(await mapInSlices(items, work, { size })).toEqual(items.map(work));
  });

  it('takes the results of work that returns promises, in order', async () => {
    expect(await mapInSlices(letters(5), async (item) => item.toUpperCase(), { size: 2 })).toEqual(
      letters(5).map((item) => item.toUpperCase()),
    );
  });
});

describe('fitsOneSlice and thenAtOnce', () => {
  it.each<[string, string[], Slicing<string>, boolean]>([
    ['no items', [], { size: 3 }, true],
    ['as many items as a slice', letters(3), { size: 3 }, true],
    ['one item more', letters(4), { size: 3 }, false],
    ['weights within the slice', ['a', 'c'], { size: 3, weight: (i) => weights[i] ?? 1 }, true],
    ['weights past it', ['a', 'b'], { size: 3, weight: (i) => weights[i] ?? 1 }, false],
    ['64 items unless told', Array(64).fill('x'), {}, true],
    ['65 items unless told', Array(65).fill('x'), {}, false],
  ])('%s', (_name, items, slicing, fits) => {
    expect(fitsOneSlice(items, slicing)).toBe(fits);
  });

  it('applies a function at once to a value, later to a promise', async () => {
    expect(thenAtOnce('a', (text) => `${text}b`)).toBe('ab');
    const later = thenAtOnce(Promise.resolve('a'), (text) => `${text}b`);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe('ab');
  });
});
