/**
 * changeEvents, pure, by a table of cases: each changed row becomes one CloudEvent whose type, subject, key and parent
 * come from the row's table, whose after and before hold the fields the resource shows by their labels, with the
 * JSON representation's exact values; a column the query leaves out is not carried unless it is a key; an event id
 * and the time are the ones given; a row key too long for the outbox's column orders by its hash.
 */
import { changeEvents } from '../../lib/events/change-events';
import type { RowChange } from '../../lib/execute/change-log';
import type { ResourceTable } from '../../lib/resource';
import { bookResource, editionResource } from '../support/resources';

const book = bookResource('postgres');
const bookTable = book.tables.book as ResourceTable;
const detailTable = book.tables.book_detail as ResourceTable;
const edition = editionResource('postgres');
const origin = (ids: string[]) => ({
  source: 'https://api.example.com',
  requestId: 'req-1',
  caller: 'user-7',
  time: Date.UTC(2026, 11, 1, 10, 0, 0, 123),
  newId: () => ids.shift() as string,
});
const parse = (changes: RowChange[], withBefore = false, resource = book) =>
  changeEvents(resource, changes, withBefore, origin(['id-1', 'id-2', 'id-3'])).map((e) => ({
    ...e,
    event: JSON.parse(e.event),
  }));

it.each<[string, RowChange[], boolean, unknown[]]>([
  [
    'an insert: the row after, exact digits, a column the query leaves out not carried',
    [
      {
        verb: 'insert',
        table: bookTable,
        after: { book_id: 9007199254740993n, title: 'Dune', price: '10.50', published_on: '2026-12-01', secret: 'x' },
      },
    ],
    false,
    [
      {
        type: 'shop.Book.inserted',
        subject: '9007199254740993',
        data: {
          resource: 'shop.Book',
          table: 'book',
          key: { book_id: 9007199254740993n },
          after: { id: 9007199254740993n, title: 'Dune', price: 10.5, published: '2026-12-01' },
          requestId: 'req-1',
          caller: 'user-7',
        },
      },
    ],
  ],
  [
    'an update with before: both rows; an extension row names its parent',
    [
      {
        verb: 'update',
        table: detailTable,
        before: { book_id: 3, summary: 'old' },
        after: { book_id: 3, summary: 'new' },
      },
    ],
    true,
    [
      {
        type: 'shop.Book.updated',
        subject: '3',
        data: {
          table: 'book_detail',
          key: { book_id: 3 },
          parent: { table: 'book', key: { book_id: 3 } },
          after: { summary: 'new' },
          before: { summary: 'old' },
        },
      },
    ],
  ],
  [
    'a delete: after null, and no before unless asked',
    [{ verb: 'delete', table: bookTable, before: { book_id: 4, title: 'Gone' } }],
    false,
    [{ type: 'shop.Book.deleted', subject: '4', data: { key: { book_id: 4 }, after: null } }],
  ],
])('%s', (_name, changes, withBefore, expected) => {
  const events = parse(changes, withBefore);
  expect(events.map((e) => e.event)).toMatchObject(
    (expected as Record<string, unknown>[]).map((e) =>
      JSON.parse(JSON.stringify(e, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))),
    ),
  );
  // after and before hold exactly the fields the resource shows: nothing else of the row
  const rowsOf = (e: { data: Record<string, unknown> }) => [e.data.after, e.data.before];
  const asJson = (value: unknown) =>
    value === undefined
      ? undefined
      : JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)));
  expect(events.map((e) => rowsOf(e.event))).toEqual(
    (expected as { data: Record<string, unknown> }[]).map((e) => rowsOf(e).map(asJson)),
  );
  for (const event of events) {
    expect(event.event).toMatchObject({
      specversion: '1.0',
      source: 'https://api.example.com/res/shop.Book',
      time: '2026-12-01T10:00:00.123Z',
      datacontenttype: 'application/json',
    });
    if (!withBefore) expect(event.event.data).not.toHaveProperty('before');
  }
});

it('keeps 64-bit integers exact in the JSON text', () => {
  const [event] = changeEvents(
    book,
    [{ verb: 'insert', table: bookTable, after: { book_id: 9007199254740993n, title: 't' } }],
    false,
    origin(['id-1']),
  );
  expect(event?.event).toContain('"key":{"book_id":9007199254740993}');
  expect(event?.event).toContain('"id":9007199254740993');
});

it('gives each event the id given, the write its time, and a compound key as its subject', () => {
  const table = edition.tables.edition as ResourceTable;
  const events = parse(
    [
      { verb: 'insert', table, after: { isbn: 'a', edition_no: 1, label: 'x' } },
      { verb: 'insert', table, after: { isbn: 'b', edition_no: 2, label: 'y' } },
    ],
    false,
    edition,
  );
  expect(events.map((e) => [e.id, e.event.id, e.event.subject, e.orderingKey, e.createdAt])).toEqual([
    ['id-1', 'id-1', 'a,1', '["Edition","edition","a","1"]', Date.UTC(2026, 11, 1, 10, 0, 0, 123)],
    ['id-2', 'id-2', 'b,2', '["Edition","edition","b","2"]', Date.UTC(2026, 11, 1, 10, 0, 0, 123)],
  ]);
});

it('orders a row whose key is too long for the outbox by its hash, the same for the same row', () => {
  const table = edition.tables.edition as ResourceTable;
  const long = 'x'.repeat(1200);
  const [first, again] = parse(
    [
      { verb: 'insert', table, after: { isbn: long, edition_no: 1 } },
      { verb: 'update', table, before: { isbn: long, edition_no: 1 }, after: { isbn: long, edition_no: 1 } },
    ],
    false,
    edition,
  );
  expect(first?.orderingKey).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(again?.orderingKey).toBe(first?.orderingKey);
});
