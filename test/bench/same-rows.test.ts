/**
 * bench:peer compares the peer with the service only once both answered the same rows: the two write some values
 * differently (names in camelCase, decimals as strings, MySQL booleans as 1/0, dates as timestamps), and the
 * comparison must see through that and nothing more.
 */
import { canonical, rowDifferences } from '../../scripts/bench/same-rows';

const ours = {
  id: 1,
  publisher_id: 1,
  title: 'Salt',
  price: 13.95,
  price_cents: 1395,
  published: '1993-09-12',
  in_print: true,
  added_at: '2024-01-01 11:27:30.085',
};
const peerPostgres = {
  bookId: '1',
  publisherId: '1',
  title: 'Salt',
  price: '13.95',
  published: '1993-09-12',
  inPrint: true,
  addedAt: '2024-01-01T11:27:30.085Z',
};
const peerMysql = { ...peerPostgres, published: '1993-09-12T00:00:00.000Z', inPrint: 1 };

it.each([
  [13.95, '13.95', '13.95'],
  ['0.00', 0, '0'],
  [true, 1, '1'],
  ['1993-09-12', '1993-09-12T00:00:00.000Z', '1993-09-12'],
  ['2024-01-01 11:27:30.100', '2024-01-01T11:27:30.1Z', '2024-01-01 11:27:30.1'],
])('writes %p and %p one way (%s)', (a, b, written) => {
  expect(canonical(a)).toBe(written);
  expect(canonical(b)).toBe(written);
});

it('sees the same rows through the two ways of writing them', () => {
  expect(rowDifferences([ours], [peerPostgres], { book_id: 'id' })).toEqual([]);
  expect(rowDifferences([ours], [peerMysql], { book_id: 'id' })).toEqual([]);
});

it('names every value that differs, and a missing row', () => {
  expect(rowDifferences([ours], [{ ...peerPostgres, title: 'Smoke', price: '13.96' }], { book_id: 'id' })).toEqual([
    `row 1 title: "Salt" against the peer's "Smoke"`,
    `row 1 price: 13.95 against the peer's "13.96"`,
  ]);
  expect(rowDifferences([ours], [peerPostgres, peerPostgres], { book_id: 'id' })).toContain(
    "1 rows against the peer's 2",
  );
  expect(
    rowDifferences([ours], [{ ...peerPostgres, addedAt: '2024-01-01T11:27:31.085Z' }], { book_id: 'id' }),
  ).toHaveLength(1);
});

it('does not take a key it cannot find in the service rows for a match', () => {
  expect(rowDifferences([ours], [peerPostgres], {})).toEqual([`row 1 book_id: undefined against the peer's "1"`]);
});
