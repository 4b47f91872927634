/**
 * The result-size limit kept while rows arrive (meterResult), and the exact check on the body (checkResultSize):
 * the running count is a lower bound of the body's bytes, so it refuses only what the body would be too large for,
 * whatever the representation; a hierarchical parent counts once, wherever its rows come, as group-rows writes it.
 */
import { groupRows } from '../../lib/serial/group-rows';
import { checkResultSize, meterResult } from '../../lib/serial/result-size';
import { serializeRead } from '../../lib/serial/serialize-read';
import type { Row } from '../../lib/values';
import { bookResource, languageResource, serviceErrorOf } from '../support/resources';

const tooLarge = (limit: number) => ({
  name: 'TooLargeError',
  status: 413,
  code: 'result_too_large',
  message: `The result is larger than ${limit} bytes; page it with _limit and _offset, or narrow it with filters`,
});

const book = (id: number, title: string | null, extra: Partial<Record<string, Row[string]>> = {}): Row => ({
  id: String(id),
  title,
  price: '1.50',
  published: null,
  summary: null,
  titleLength: null,
  ...extra,
});
const film = (langId: number, name: string, filmId: number | null, title: string | null): Row => ({
  langId: String(langId),
  langName: name,
  filmId: filmId === null ? null : String(filmId),
  title,
});

const cases: { name: string; resource: typeof bookResource; batches: Row[][]; counted: number }[] = [
  {
    name: 'flat: every value as text, NULL as nothing',
    resource: bookResource,
    batches: [[book(7, 'abc')]],
    counted: 1 + 3 + 4,
  },
  {
    name: 'flat: counted across batches',
    resource: bookResource,
    batches: [[book(1, 'aaaa')], [book(2, 'bb'), book(3, '')]],
    counted: 1 + 4 + 4 + (1 + 2 + 4) + (1 + 0 + 4),
  },
  {
    name: 'numbers, booleans and bytes: their digits, 4, their bytes',
    resource: bookResource,
    batches: [[book(12345, null, { price: 12.5, summary: new Uint8Array(10), titleLength: true })]],
    counted: 5 + 4 + 10 + 4,
  },
  {
    name: 'non-BMP text: its UTF-16 units, never more than its UTF-8 bytes',
    resource: bookResource,
    batches: [[book(1, '😀é')]],
    counted: 1 + 3 + 4,
  },
  {
    name: "hierarchical: a parent's values once per run of its rows, each child's values",
    resource: languageResource,
    batches: [[film(1, 'English', 10, 'Up'), film(1, 'English', 11, 'Cars')], [film(1, 'English', 12, 'Heat')]],
    counted: 1 + 7 + (2 + 2) + (2 + 4) + (2 + 4),
  },
  {
    name: 'hierarchical: a childless parent counts its own values; a parent seen again after another counts once',
    resource: languageResource,
    batches: [[film(1, 'English', null, null), film(2, 'French', 20, 'Amelie'), film(1, 'English', 11, 'X')]],
    // parent 1's rows form one parent wherever they come (group-rows), so its values are written once
    counted: 1 + 7 + (1 + 6 + 2 + 6) + (2 + 1),
  },
];

describe('meterResult', () => {
  it.each(cases)('$name', ({ resource, batches, counted }) => {
    const exactly = meterResult(resource('postgres'), counted);
    for (const batch of batches) exactly(batch);
    const under = meterResult(resource('postgres'), counted - 1);
    const error = serviceErrorOf(() => {
      for (const batch of batches) under(batch);
    });
    expect(error).toEqual(tooLarge(counted - 1));
  });

  it.each(cases)(
    'never counts more than the body takes, in XML or JSON: $name',
    async ({ resource, batches, counted }) => {
      const made = resource('postgres');
      const rows = groupRows(made, batches.flat());
      for (const type of ['application/xml', 'application/json'] as const) {
        const body = await serializeRead(made, rows, type);
        expect(Buffer.byteLength(body)).toBeGreaterThanOrEqual(counted);
      }
    },
  );
});

describe('checkResultSize', () => {
  it.each([
    { body: 'a'.repeat(100), limit: 100, fits: true },
    { body: 'a'.repeat(101), limit: 100, fits: false },
    { body: 'é'.repeat(50), limit: 100, fits: true },
    { body: 'é'.repeat(51), limit: 100, fits: false },
    { body: '😀'.repeat(25), limit: 100, fits: true },
    { body: '😀'.repeat(26), limit: 100, fits: false },
  ])('$limit bytes: a body of $body.length units fits: $fits', ({ body, limit, fits }) => {
    if (fits) expect(() => checkResultSize(body, limit)).not.toThrow();
    else expect(serviceErrorOf(() => checkResultSize(body, limit))).toEqual(tooLarge(limit));
  });
});
