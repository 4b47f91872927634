/**
 * Table tests of the planners on hand-built flat resources: reads (filters, path keys, order, paging), rows found
 * by value, and the writes of one request. Pure: no database.
 */

import type { ReadPlan, WritePlan } from '../../lib/plan/plan';
import { planRead } from '../../lib/plan/plan-read';
import { planWrite } from '../../lib/plan/plan-write';
import { parentKeyFields, planPathKey, splitRow } from '../../lib/plan/resource-fields';
import type { ParsedQuery, RawValue } from '../../lib/request/resource-request';
import type { EngineName, ResourceTable, SqlResource } from '../../lib/resource';
import {
  bookResource,
  type ExpectedError,
  editionResource,
  engineNames,
  field,
  languageResource,
  logResource,
  serviceErrorOf,
  serviceErrorOfAsync,
  table,
} from '../support/resources';
import { type WriteCase, writeRequest } from '../support/write-request';

type Make = (engine: EngineName) => SqlResource;

const bookFields = 'id, title, price, published, summary, titleLength';

/** Rows of Log are found by every selected field but the JSON one; log has a key to turn them into. */
const logMatch = {
  by: 'values',
  labels: ['message', 'at', 'raw', 'level'],
  columns: ['message', 'at', 'raw', 'level'],
} as const;

/** Log whose query reads its one table with no condition (every row shown): its own filters find the rows. */
const wholeLog = (engine: EngineName): SqlResource => ({ ...logResource(engine), showsEveryRow: true });

/** Log on a table without a primary key, whose query does not show every row of it. */
function keylessLog(engine: EngineName): SqlResource {
  const log = logResource(engine);
  return { ...log, tables: { log: { ...(log.tables.log as ResourceTable), primaryKey: [] } } };
}

/** Book whose extension is a publisher that book looks up many-to-one. */
function lookupResource(engine: EngineName): SqlResource {
  const book = bookResource(engine);
  return {
    ...book,
    tables: {
      book: book.tables.book as ResourceTable,
      publisher: {
        ...table('publisher', 'ParentExtension', ['publisher_id']),
        lookup: { owner: 'book', columns: ['publisher_id'], references: ['publisher_id'] },
      },
    },
    fields: [...book.fields.slice(0, 2), field('publisherName', 'string', 'publisher', 'name')],
  };
}

const unlinkedText =
  'table book_detail (ParentExtension) has no foreign key to book (book_id), and no columns named like that key';

/** Book whose extension has no link the catalog shows. */
function unlinkedResource(engine: EngineName): SqlResource {
  const book = bookResource(engine);
  const detail = book.tables.book_detail as ResourceTable;
  return { ...book, tables: { ...book.tables, book_detail: { ...detail, links: [], unlinked: unlinkedText } } };
}

function unlinkedChild(resource: SqlResource): SqlResource {
  const film = resource.tables.film as ResourceTable;
  const unlinked = 'table film (Child) has no foreign key to language';
  return { ...resource, tables: { ...resource.tables, film: { ...film, links: [], unlinked } } };
}

// ---------------------------------------------------------------------------------------------------------------
// Reads: by filter, and by key

const reads: {
  name: string;
  resource: Make;
  query: ParsedQuery;
  pathKeys?: string[];
  plan: ReadPlan;
}[] = [
  {
    name: 'no filters: all rows ordered by the parent key',
    resource: bookResource,
    query: { filters: [] },
    plan: { kind: 'read', select: { filters: [], orderBy: ['id'] } },
  },
  {
    name: 'eq on the integer key converts to a bigint',
    resource: bookResource,
    query: { filters: [{ name: 'id', op: 'eq', value: ' 5 ' }] },
    plan: { kind: 'read', select: { filters: [{ label: 'id', op: 'eq', value: 5n }], orderBy: ['id'] } },
  },
  {
    name: 'range on a decimal',
    resource: bookResource,
    query: {
      filters: [
        { name: 'price', op: 'ge', value: '5' },
        { name: 'price', op: 'lt', value: '10.50' },
      ],
    },
    plan: {
      kind: 'read',
      select: {
        filters: [
          { label: 'price', op: 'ge', value: '5' },
          { label: 'price', op: 'lt', value: '10.50' },
        ],
        orderBy: ['id'],
      },
    },
  },
  {
    name: 'like on a string field compares as is, on a decimal as text',
    resource: bookResource,
    query: {
      filters: [
        { name: 'title', op: 'like', value: 'The%' },
        { name: 'price', op: 'like', value: '1%' },
      ],
    },
    plan: {
      kind: 'read',
      select: {
        filters: [
          { label: 'title', op: 'like', value: 'The%', text: false },
          { label: 'price', op: 'like', value: '1%', text: true },
        ],
        orderBy: ['id'],
      },
    },
  },
  {
    name: 'in list items are converted one by one',
    resource: bookResource,
    query: { filters: [{ name: 'id', op: 'in', values: ['1', ' 2 '] }] },
    plan: { kind: 'read', select: { filters: [{ label: 'id', op: 'in', values: [1n, 2n] }], orderBy: ['id'] } },
  },
  {
    name: 'null and notnull carry no value',
    resource: bookResource,
    query: {
      filters: [
        { name: 'published', op: 'null' },
        { name: 'summary', op: 'notnull' },
      ],
    },
    plan: {
      kind: 'read',
      select: {
        filters: [
          { label: 'published', op: 'null' },
          { label: 'summary', op: 'notnull' },
        ],
        orderBy: ['id'],
      },
    },
  },
  {
    name: 'filters are only type-checked, not validated (D1): a title longer than its maxLength',
    resource: bookResource,
    query: { filters: [{ name: 'title', op: 'eq', value: 'A title far too long to keep' }] },
    plan: {
      kind: 'read',
      select: { filters: [{ label: 'title', op: 'eq', value: 'A title far too long to keep' }], orderBy: ['id'] },
    },
  },
  {
    name: 'limit and offset pass through',
    resource: bookResource,
    query: { filters: [], limit: 10, offset: 20 },
    plan: { kind: 'read', select: { filters: [], orderBy: ['id'], limit: 10, offset: 20 } },
  },
  {
    name: 'a limit of exactly the cap: no cap to check, the rows asked for',
    resource: bookResource,
    query: { filters: [], limit: 50 },
    plan: { kind: 'read', select: { filters: [], orderBy: ['id'], limit: 50 } },
  },
  {
    name: 'an offset without a limit: the cap still holds, from the offset',
    resource: bookResource,
    query: { filters: [], offset: 500 },
    plan: { kind: 'read', select: { filters: [], orderBy: ['id'], limit: 51, offset: 500 }, rowCap: 50 },
  },
  {
    name: 'R2: the path key becomes an eq filter on the key label',
    resource: bookResource,
    query: { filters: [] },
    pathKeys: ['7'],
    plan: { kind: 'read', select: { filters: [{ label: 'id', op: 'eq', value: 7n }], orderBy: ['id'] }, byKey: true },
  },
  {
    name: 'R2 with a filter: the path key is ANDed after it',
    resource: bookResource,
    query: { filters: [{ name: 'title', op: 'eq', value: 'Dune' }] },
    pathKeys: ['7'],
    plan: {
      kind: 'read',
      select: {
        filters: [
          { label: 'title', op: 'eq', value: 'Dune' },
          { label: 'id', op: 'eq', value: 7n },
        ],
        orderBy: ['id'],
      },
      byKey: true,
    },
  },
  {
    name: 'R2 with a compound key: one segment per key column, in key order',
    resource: editionResource,
    query: { filters: [] },
    pathKeys: ['978-3/x', '2'],
    plan: {
      kind: 'read',
      select: {
        filters: [
          { label: 'isbn', op: 'eq', value: '978-3/x' },
          { label: 'editionNo', op: 'eq', value: 2n },
        ],
        orderBy: ['isbn', 'editionNo'],
      },
      byKey: true,
    },
  },
  {
    name: 'R2 of a hierarchical resource: a parent and all its children, read in batches like R1',
    resource: languageResource,
    query: { filters: [] },
    pathKeys: ['3'],
    plan: {
      kind: 'read',
      select: { filters: [{ label: 'langId', op: 'eq', value: 3n }], orderBy: ['langId', 'filmId'] },
    },
  },
  {
    name: 'D8: without the key selected, ordered by every orderable field (no binary, no json)',
    resource: logResource,
    query: { filters: [] },
    plan: { kind: 'read', select: { filters: [], orderBy: ['message', 'at', 'level'] } },
  },
  {
    name: 'D8: hierarchical resources order by the parent key, then the child key',
    resource: languageResource,
    query: { filters: [{ name: 'title', op: 'eq', value: 'x' }] },
    plan: {
      kind: 'read',
      select: { filters: [{ label: 'title', op: 'eq', value: 'x' }], orderBy: ['langId', 'filmId'] },
    },
  },
  {
    name: '_order: the fields asked for first, in their directions, then the key',
    resource: bookResource,
    query: {
      filters: [],
      order: [
        { name: 'price', descending: true },
        { name: 'title', descending: false },
      ],
    },
    plan: {
      kind: 'read',
      select: {
        filters: [],
        orderBy: [{ label: 'price', descending: true }, { label: 'title', descending: false }, 'id'],
      },
    },
  },
  {
    name: '_order by the key itself: the key is not added again',
    resource: bookResource,
    query: { filters: [], order: [{ name: 'id', descending: true }] },
    plan: { kind: 'read', select: { filters: [], orderBy: [{ label: 'id', descending: true }] } },
  },
  {
    name: '_order on a hierarchical resource: parent fields order parents, child fields children in their parent',
    resource: languageResource,
    query: {
      filters: [],
      order: [
        { name: 'title', descending: true },
        { name: 'langName', descending: false },
      ],
    },
    plan: {
      kind: 'read',
      select: {
        filters: [],
        orderBy: [{ label: 'langName', descending: false }, 'langId', { label: 'title', descending: true }, 'filmId'],
      },
    },
  },
  {
    name: '_order without the key selected: then every other orderable field',
    resource: logResource,
    query: { filters: [], order: [{ name: 'level', descending: true }] },
    plan: {
      kind: 'read',
      select: { filters: [], orderBy: [{ label: 'level', descending: true }, 'message', 'at'] },
    },
  },
];

const badReads: { name: string; resource: Make; query: ParsedQuery; pathKeys?: string[]; error: ExpectedError }[] = [
  {
    name: '_order by an unknown field: 400 naming the fields',
    resource: bookResource,
    query: { filters: [], order: [{ name: 'nope', descending: false }] },
    error: {
      status: 400,
      code: 'bad_parameter',
      message:
        'Unknown field nope in resource shop.Book; its fields are id, title, price, published, summary, titleLength',
    },
  },
  {
    name: '_order by a binary field: 400, binary values have no order',
    resource: logResource,
    query: { filters: [], order: [{ name: 'raw', descending: false }] },
    error: {
      status: 400,
      code: 'bad_parameter',
      message: 'Field raw of resource Log holds binary values, which have no order; _order takes the other fields',
    },
  },
  {
    name: '_order by a JSON field: 400',
    resource: logResource,
    query: { filters: [], order: [{ name: 'extra', descending: true }] },
    error: {
      status: 400,
      code: 'bad_parameter',
      message: 'Field extra of resource Log holds JSON values, which have no order; _order takes the other fields',
    },
  },
  {
    name: 'a limit above the cap: 400 naming the cap (D26)',
    resource: bookResource,
    query: { filters: [], limit: 51 },
    error: {
      status: 400,
      code: 'limit_too_large',
      message:
        'Parameter _limit is 51, above 50, the most rows resource shop.Book returns at once; page with _limit and _offset',
    },
  },
  {
    name: 'unknown field: 400 naming it and the resource',
    resource: bookResource,
    query: { filters: [{ name: 'colour', op: 'eq', value: 'red' }] },
    error: {
      status: 400,
      code: 'bad_parameter',
      message: `Unknown field colour in resource shop.Book; its fields are ${bookFields}`,
    },
  },
  {
    name: 'labels are case-sensitive',
    resource: bookResource,
    query: { filters: [{ name: 'Title', op: 'eq', value: 'x' }] },
    error: {
      status: 400,
      code: 'bad_parameter',
      message: `Unknown field Title in resource shop.Book; its fields are ${bookFields}`,
    },
  },
  {
    name: 'a read-only (computed) field cannot be a filter',
    resource: bookResource,
    query: { filters: [{ name: 'titleLength', op: 'gt', value: '3' }] },
    error: {
      status: 400,
      code: 'read_only_field',
      message: 'Field titleLength of resource shop.Book is computed and cannot be a filter',
    },
  },
  {
    name: 'a value that does not convert',
    resource: bookResource,
    query: { filters: [{ name: 'id', op: 'eq', value: '47 or 1=1' }] },
    error: { status: 400, code: 'bad_value', message: 'Could not convert id value "47 or 1=1" to number' },
  },
  {
    name: 'an IN item that does not convert',
    resource: bookResource,
    query: { filters: [{ name: 'published', op: 'in', values: ['2023-01-01', '2023-02-30'] }] },
    error: {
      status: 400,
      code: 'bad_value',
      message: 'Could not convert published value "2023-02-30" to date (YYYY-MM-DD)',
    },
  },
  {
    name: 'an empty IN item is said to be one',
    resource: bookResource,
    query: { filters: [{ name: 'id', op: 'in', values: ['1', '', '2'] }] },
    error: {
      status: 400,
      code: 'bad_value',
      message: 'Could not convert id value "" to number: empty value in the list',
    },
  },
  {
    name: 'D7: more path segments than key columns',
    resource: bookResource,
    query: { filters: [] },
    pathKeys: ['1', '2'],
    error: {
      status: 400,
      code: 'bad_path_key',
      message: 'Resource shop.Book has a key of 1 part(s) (id), the path gives 2',
    },
  },
  {
    name: 'D7: fewer path segments than a compound key',
    resource: editionResource,
    query: { filters: [] },
    pathKeys: ['978-3'],
    error: {
      status: 400,
      code: 'bad_path_key',
      message: 'Resource Edition has a key of 2 part(s) (isbn/editionNo), the path gives 1',
    },
  },
  {
    name: 'D7: a path segment that does not convert',
    resource: bookResource,
    query: { filters: [] },
    pathKeys: ['abc'],
    error: { status: 400, code: 'bad_path_key', message: 'Could not convert id value "abc" to number' },
  },
  {
    name: 'D7: the second segment of a compound key that does not convert',
    resource: editionResource,
    query: { filters: [] },
    pathKeys: ['978-3', 'two'],
    error: { status: 400, code: 'bad_path_key', message: 'Could not convert editionNo value "two" to number' },
  },
  {
    name: 'a path key on a resource whose query does not select the key',
    resource: logResource,
    query: { filters: [] },
    pathKeys: ['1'],
    error: {
      status: 400,
      code: 'bad_request',
      message: 'Resource Log cannot address rows by key: its query does not select the primary key of log',
    },
  },
];

/** The most rows a read returns in these cases (MAX_ROWS, or the definition's own). */
const CAP = 50;

/** A read without `_limit` asks for one row more than the cap, to tell a read that is over it. */
function capped(plan: ReadPlan, query: ParsedQuery): ReadPlan {
  return query.limit === undefined ? { ...plan, select: { ...plan.select, limit: CAP + 1 }, rowCap: CAP } : plan;
}

describe('planRead', () => {
  describe.each(engineNames)('%s', (engine) => {
    it.each(reads)('$name', ({ resource, query, pathKeys, plan }) => {
      expect(planRead(resource(engine), { query, pathKeys: pathKeys ?? [] }, {}, CAP)).toEqual(capped(plan, query));
    });

    it.each(badReads)('$name', ({ resource, query, pathKeys, error }) => {
      expect(serviceErrorOf(() => planRead(resource(engine), { query, pathKeys: pathKeys ?? [] }, {}, CAP))).toEqual({
        name: 'BadRequestError',
        ...error,
      });
    });
  });
});

describe('the order of a read: the Parent key, then the Child key; without a selected key, every orderable field', () => {
  it.each([
    { resource: bookResource, order: ['id'] },
    { resource: editionResource, order: ['isbn', 'editionNo'] },
    { resource: logResource, order: ['message', 'at', 'level'] },
    { resource: languageResource, order: ['langId', 'filmId'] },
  ])('$order', ({ resource, order }) => {
    expect(planRead(resource('postgres'), { query: { filters: [] }, pathKeys: [] }, {}, CAP).select.orderBy).toEqual(
      order,
    );
  });
});

describe('resource fields', () => {
  it('parentKeyFields: the key fields in key order', () => {
    expect(parentKeyFields(editionResource('postgres')).map((f) => f.label)).toEqual(['isbn', 'editionNo']);
  });

  it.each(engineNames)('planPathKey converts the segments, the same on %s', (engine) => {
    expect(planPathKey(editionResource(engine), ['a b', '+3'])).toEqual(['a b', 3n]);
  });

  it.each([
    {
      name: 'parent and extension columns, key complete',
      values: { id: '3', title: 'Dune', summary: 'Spice' },
      plan: {
        values: { book_id: 3n, title: 'Dune' },
        extensions: [{ table: 'book_detail', values: { summary: 'Spice' } }],
        join: {},
        key: [3n],
      },
    },
    {
      name: 'no key, JSON null and number values',
      values: { price: 9.5, published: null },
      plan: { values: { price: '9.5', published_on: null }, extensions: [], join: {}, key: undefined },
    },
  ] as { name: string; values: Record<string, RawValue>; plan: unknown }[])('splitRow: $name', ({ values, plan }) => {
    for (const engine of engineNames) expect(splitRow(bookResource(engine), values)).toEqual(plan);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Writes on flat resources: inserts, updates and deletes of every kind but those under a parent in the path

const form = (values: Record<string, RawValue>): Pick<WriteCase, 'bodyType' | 'rows'> => ({
  bodyType: 'form',
  rows: [{ values }],
});
const json = (...rows: Record<string, RawValue>[]): Pick<WriteCase, 'bodyType' | 'rows'> => ({
  bodyType: 'json',
  rows: rows.map((values) => ({ values })),
});
const xml = (...rows: Record<string, RawValue>[]): Pick<WriteCase, 'bodyType' | 'rows'> => ({
  bodyType: 'xml',
  rows: rows.map((values) => ({ values })),
});

/** The plan of a case's write, as the request stage would hand the request to the planner. */
const planned = (resource: SqlResource, input: WriteCase) => planWrite(resource, writeRequest(resource, input));

const writes: { name: string; resource: Make; input: WriteCase; plan: WritePlan }[] = [
  {
    name: 'C1: a form row split into parent and extension values',
    resource: bookResource,
    input: { op: 'insert', pathKeys: [], filters: [], ...form({ title: 'Dune', price: '9.99', summary: 'Spice' }) },
    plan: {
      kind: 'insert',
      rows: [
        {
          parent: { title: 'Dune', price: '9.99' },
          extensions: [{ table: 'book_detail', values: { summary: 'Spice' } }],
        },
      ],
    },
  },
  {
    name: 'C2: JSON rows; a row without extension fields writes no extension row; a given key is kept',
    resource: bookResource,
    input: {
      op: 'insert',
      pathKeys: [],
      filters: [],
      ...json({ title: 'A', published: '2024-02-29' }, { id: 12, title: 'B', summary: null }),
    },
    plan: {
      kind: 'insert',
      rows: [
        { parent: { title: 'A', published_on: '2024-02-29' }, extensions: [] },
        {
          parent: { book_id: 12n, title: 'B' },
          extensions: [{ table: 'book_detail', values: { summary: null } }],
          key: [12n],
        },
      ],
    },
  },
  {
    name: 'C2: an XML row with no attributes inserts all defaults',
    resource: bookResource,
    input: { op: 'insert', pathKeys: [], filters: [], ...xml({}) },
    plan: { kind: 'insert', rows: [{ parent: {}, extensions: [] }] },
  },
  {
    name: 'U1: each row updates by its key; only the given fields change',
    resource: bookResource,
    input: { op: 'update', pathKeys: [], filters: [], ...json({ id: '1', title: 'X' }, { id: 2, summary: 'S' }) },
    plan: {
      kind: 'update',
      children: [],
      updates: [
        { target: { kind: 'keys', keys: [[1n]] }, parent: { title: 'X' }, extensions: [] },
        {
          target: { kind: 'keys', keys: [[2n]] },
          parent: {},
          extensions: [{ table: 'book_detail', values: { summary: 'S' } }],
        },
      ],
    },
  },
  {
    name: 'U1 with a compound key',
    resource: editionResource,
    input: { op: 'update', pathKeys: [], filters: [], ...xml({ isbn: 'a', editionNo: '2', label: 'L' }) },
    plan: {
      kind: 'update',
      children: [],
      updates: [{ target: { kind: 'keys', keys: [['a', 2n]] }, parent: { label: 'L' }, extensions: [] }],
    },
  },
  {
    name: 'D2 on a resource whose query does not select the key: rows found by the selected values, then by key',
    resource: logResource,
    input: { op: 'delete', pathKeys: [], filters: [{ name: 'level', op: 'gt', value: '3' }] },
    plan: {
      kind: 'delete',
      target: { kind: 'filter', filters: [{ label: 'level', op: 'gt', value: 3n }], match: logMatch },
      children: [],
    },
  },
  {
    name: 'U2 on a resource whose query does not select the key',
    resource: logResource,
    input: {
      op: 'update',
      pathKeys: [],
      filters: [{ name: 'message', op: 'eq', value: 'x' }],
      ...form({ level: '1' }),
    },
    plan: {
      kind: 'update',
      children: [],
      updates: [
        {
          target: { kind: 'filter', filters: [{ label: 'message', op: 'eq', value: 'x' }], match: logMatch },
          parent: { level: 1n },
          extensions: [],
        },
      ],
    },
  },
  {
    name: 'U3 of the Parent fields of a resource with a many-to-one lookup',
    resource: lookupResource,
    input: { op: 'update', pathKeys: ['1'], filters: [], ...form({ title: 'T' }) },
    plan: {
      kind: 'update',
      children: [],
      updates: [{ target: { kind: 'keys', keys: [[1n]] }, parent: { title: 'T' }, extensions: [] }],
    },
  },
  {
    name: 'U2: form values for the rows a filter matches',
    resource: bookResource,
    input: {
      op: 'update',
      pathKeys: [],
      filters: [{ name: 'price', op: 'gt', value: '10' }],
      ...form({ price: '9.99', summary: 'cheap' }),
    },
    plan: {
      kind: 'update',
      children: [],
      updates: [
        {
          target: { kind: 'filter', filters: [{ label: 'price', op: 'gt', value: '10' }], match: { by: 'key' } },
          parent: { price: '9.99' },
          extensions: [{ table: 'book_detail', values: { summary: 'cheap' } }],
        },
      ],
    },
  },
  {
    name: 'U3: form values for the row of the path key',
    resource: bookResource,
    input: { op: 'update', pathKeys: ['7'], filters: [], ...form({ title: 'T', published: null }) },
    plan: {
      kind: 'update',
      children: [],
      updates: [{ target: { kind: 'keys', keys: [[7n]] }, parent: { title: 'T', published_on: null }, extensions: [] }],
    },
  },
  {
    name: 'U3 with a compound path key',
    resource: editionResource,
    input: { op: 'update', pathKeys: ['a', '3'], filters: [], ...form({ label: 'L' }) },
    plan: {
      kind: 'update',
      children: [],
      updates: [{ target: { kind: 'keys', keys: [['a', 3n]] }, parent: { label: 'L' }, extensions: [] }],
    },
  },
  {
    name: 'D1: rows become keys; other known attributes are ignored',
    resource: bookResource,
    input: { op: 'delete', pathKeys: [], filters: [], ...json({ id: '1' }, { id: 2, title: 'ignored' }) },
    plan: { kind: 'delete', children: [], target: { kind: 'keys', keys: [[1n], [2n]] } },
  },
  {
    name: 'D1 with compound keys',
    resource: editionResource,
    input: {
      op: 'delete',
      pathKeys: [],
      filters: [],
      ...xml({ isbn: 'a', editionNo: '1' }, { isbn: 'b', editionNo: '2' }),
    },
    plan: {
      kind: 'delete',
      children: [],
      target: {
        kind: 'keys',
        keys: [
          ['a', 1n],
          ['b', 2n],
        ],
      },
    },
  },
  {
    name: 'D2: the rows a filter matches',
    resource: bookResource,
    input: { op: 'delete', pathKeys: [], filters: [{ name: 'title', op: 'like', value: 'Old%' }] },
    plan: {
      kind: 'delete',
      children: [],
      target: {
        kind: 'filter',
        filters: [{ label: 'title', op: 'like', value: 'Old%', text: false }],
        match: { by: 'key' },
      },
    },
  },
  {
    name: 'D2 on a resource that shows every row of its table: the filter is the WHERE of its statement',
    resource: wholeLog,
    input: { op: 'delete', pathKeys: [], filters: [{ name: 'level', op: 'gt', value: '3' }] },
    plan: {
      kind: 'delete',
      children: [],
      target: { kind: 'filter', filters: [{ label: 'level', op: 'gt', value: 3n }], match: { by: 'where' } },
    },
  },
  {
    name: 'U2 on a table without a primary key that shows every row of it: the filter is the WHERE',
    resource: (engine) => ({ ...keylessLog(engine), showsEveryRow: true }),
    input: {
      op: 'update',
      pathKeys: [],
      filters: [{ name: 'level', op: 'eq', value: '1' }],
      ...form({ message: 'm' }),
    },
    plan: {
      kind: 'update',
      children: [],
      updates: [
        {
          target: { kind: 'filter', filters: [{ label: 'level', op: 'eq', value: 1n }], match: { by: 'where' } },
          parent: { message: 'm' },
          extensions: [],
        },
      ],
    },
  },
  {
    name: 'D3: the row of the path key',
    resource: bookResource,
    input: { op: 'delete', pathKeys: ['9'], filters: [] },
    plan: { kind: 'delete', children: [], target: { kind: 'keys', keys: [[9n]] } },
  },
];

const badWrites: { name: string; resource: Make; input: WriteCase; error: ExpectedError }[] = [
  {
    name: 'insert: unknown field names it and the resource',
    resource: bookResource,
    input: { op: 'insert', pathKeys: [], filters: [], ...json({ title: 'x', colour: 'red' }) },
    error: {
      status: 400,
      code: 'bad_body',
      message: `Unknown field colour in resource shop.Book; its fields are ${bookFields}`,
    },
  },
  {
    name: 'insert: a read-only field cannot be written',
    resource: bookResource,
    input: { op: 'insert', pathKeys: [], filters: [], ...form({ titleLength: '3' }) },
    error: {
      status: 400,
      code: 'read_only_field',
      message: 'Field titleLength of resource shop.Book is read-only (computed)',
    },
  },
  {
    name: 'insert: a validatedAttribute rule is broken',
    resource: bookResource,
    input: { op: 'insert', pathKeys: [], filters: [], ...form({ title: 'A title far too long to keep' }) },
    error: {
      status: 400,
      code: 'validation_failed',
      message: 'Field title value "A title far too long to keep" breaks the rule maxLength=20',
    },
  },
  {
    name: 'update: a validatedAttribute rule is broken',
    resource: bookResource,
    input: { op: 'update', pathKeys: [], filters: [], ...json({ id: 1, title: 'A title far too long to keep' }) },
    error: {
      status: 400,
      code: 'validation_failed',
      message: 'Field title value "A title far too long to keep" breaks the rule maxLength=20',
    },
  },
  {
    name: 'insert: a value that does not convert',
    resource: bookResource,
    input: { op: 'insert', pathKeys: [], filters: [], ...json({ price: 'cheap' }) },
    error: { status: 400, code: 'bad_value', message: 'Could not convert price value "cheap" to number' },
  },
  {
    name: 'insert: an empty body',
    resource: bookResource,
    input: { op: 'insert', pathKeys: [], filters: [], bodyType: 'json', rows: [] },
    error: { status: 400, code: 'bad_body', message: 'The request body holds no rows' },
  },
  {
    name: 'insert: query filters are not allowed',
    resource: bookResource,
    input: { op: 'insert', pathKeys: [], filters: [{ name: 'id', op: 'eq', value: '1' }], ...form({ title: 'x' }) },
    error: { status: 400, code: 'bad_parameter', message: 'POST takes no query parameters but _output' },
  },
  {
    name: 'insert: a form body with a path key on a flat resource',
    resource: bookResource,
    input: { op: 'insert', pathKeys: ['1'], filters: [], ...form({ title: 'x' }) },
    error: {
      status: 400,
      code: 'bad_request',
      message: 'Resource shop.Book is flat: POST with a key in the path is for child rows',
    },
  },
  {
    name: 'C3 shape: an XML body with a path key on a flat resource',
    resource: bookResource,
    input: { op: 'insert', pathKeys: ['1'], filters: [], ...xml({ title: 'x' }) },
    error: {
      status: 400,
      code: 'bad_request',
      message:
        'Resource shop.Book is flat: an XML or JSON body with a key in the path addresses child rows, which it has none of',
    },
  },
  {
    name: 'U4 shape: a JSON body with a path key on a flat resource',
    resource: bookResource,
    input: { op: 'update', pathKeys: ['1'], filters: [], ...json({ id: 1, title: 'x' }) },
    error: {
      status: 400,
      code: 'bad_request',
      message:
        'Resource shop.Book is flat: an XML or JSON body with a key in the path addresses child rows, which it has none of',
    },
  },
  {
    name: 'D1: a body row whose key does not convert is a bad value, like any body value',
    resource: bookResource,
    input: { op: 'delete', pathKeys: [], filters: [], ...json({ id: 'abc' }) },
    error: { status: 400, code: 'bad_value', message: 'Could not convert id value "abc" to number' },
  },
  {
    name: 'D4 shape: an XML body with a path key on a flat resource',
    resource: bookResource,
    input: { op: 'delete', pathKeys: ['1'], filters: [], ...xml({ id: '1' }) },
    error: {
      status: 400,
      code: 'bad_request',
      message:
        'Resource shop.Book is flat: an XML or JSON body with a key in the path addresses child rows, which it has none of',
    },
  },
  {
    name: 'U1: query filters with an XML body',
    resource: bookResource,
    input: { op: 'update', pathKeys: [], filters: [{ name: 'id', op: 'eq', value: '1' }], ...xml({ id: '1' }) },
    error: {
      status: 400,
      code: 'bad_parameter',
      message: 'Query parameters filter only form-urlencoded updates and body-less deletes',
    },
  },
  {
    name: 'U1: a row without its key (missing_key names the row and the key)',
    resource: bookResource,
    input: { op: 'update', pathKeys: [], filters: [], ...json({ id: 1, title: 'a' }, { title: 'b' }) },
    error: {
      status: 400,
      code: 'missing_key',
      message: 'Row 2 lacks its key: shop.Book rows are identified by id',
    },
  },
  {
    name: 'U1: a row with part of a compound key',
    resource: editionResource,
    input: { op: 'update', pathKeys: [], filters: [], ...xml({ isbn: 'a', label: 'L' }) },
    error: {
      status: 400,
      code: 'missing_key',
      message: 'Row 1 lacks its key: Edition rows are identified by isbn, editionNo',
    },
  },
  {
    name: 'U1: a row with only its key',
    resource: bookResource,
    input: { op: 'update', pathKeys: [], filters: [], ...json({ id: 1 }) },
    error: {
      status: 400,
      code: 'bad_body',
      message: 'Row 1 gives only its key; name at least one field to update',
    },
  },
  {
    name: 'U1: a read-only field',
    resource: bookResource,
    input: { op: 'update', pathKeys: [], filters: [], ...json({ id: 1, titleLength: 4 }) },
    error: {
      status: 400,
      code: 'read_only_field',
      message: 'Field titleLength of resource shop.Book is read-only (computed)',
    },
  },
  {
    name: 'U3 of a field that the Parent only looks up (many-to-one): read-only',
    resource: lookupResource,
    input: { op: 'update', pathKeys: ['1'], filters: [], ...form({ title: 'T', publisherName: 'P' }) },
    error: {
      status: 400,
      code: 'read_only_field',
      message:
        'Field publisherName of resource shop.Book is read-only: it belongs to publisher, which book looks up many-to-one (book.publisher_id → publisher.publisher_id); change it through a resource of publisher',
    },
  },
  {
    name: 'C1 of a field of an extension whose link the catalog does not show',
    resource: unlinkedResource,
    input: { op: 'insert', pathKeys: [], filters: [], ...form({ title: 'T', summary: 'S' }) },
    error: {
      status: 400,
      code: 'unlinked_table',
      message: `Resource shop.Book cannot write field summary: ${unlinkedText}`,
    },
  },
  {
    name: 'D3 needs the link of every extension, whose rows go with the parent',
    resource: unlinkedResource,
    input: { op: 'delete', pathKeys: ['1'], filters: [] },
    error: {
      status: 400,
      code: 'unlinked_table',
      message: `Resource shop.Book cannot delete book rows: ${unlinkedText}`,
    },
  },
  {
    name: 'C3 needs the link of the Child to the Parent',
    resource: (engine: EngineName) => unlinkedChild(languageResource(engine)),
    input: { op: 'insert', pathKeys: ['1'], filters: [], bodyType: 'json', rows: [{ values: { title: 'x' } }] },
    error: {
      status: 400,
      code: 'unlinked_table',
      message: 'Resource Lang cannot insert movie rows: table film (Child) has no foreign key to language',
    },
  },
  {
    name: 'U2 without filters: filter_required (D18)',
    resource: bookResource,
    input: { op: 'update', pathKeys: [], filters: [], ...form({ price: '1' }) },
    error: {
      status: 400,
      code: 'filter_required',
      message: 'Refusing to update every row of shop.Book: give a key in the path, query filters, or rows in the body',
    },
  },
  ...(['update', 'delete'] as const).map((op) => ({
    name: `${op} by filter on a table without a primary key whose query does not show every row of it`,
    resource: keylessLog,
    input: {
      op,
      pathKeys: [],
      filters: [{ name: 'level', op: 'eq' as const, value: '1' }],
      ...(op === 'update' ? form({ message: 'm' }) : {}),
    },
    error: {
      status: 400,
      code: 'bad_request',
      message: `Resource Log cannot ${op} rows by filter: table log has no primary key, and the query does not show every row of it, so the rows it shows cannot be told from those it hides`,
    },
  })),
  {
    name: 'U2 with a filter on a computed field',
    resource: bookResource,
    input: {
      op: 'update',
      pathKeys: [],
      filters: [{ name: 'titleLength', op: 'eq', value: '1' }],
      ...form({ price: '1' }),
    },
    error: {
      status: 400,
      code: 'read_only_field',
      message: 'Field titleLength of resource shop.Book is computed and cannot be a filter',
    },
  },
  {
    name: 'U3: a path key together with query filters',
    resource: bookResource,
    input: {
      op: 'update',
      pathKeys: ['1'],
      filters: [{ name: 'title', op: 'eq', value: 'x' }],
      ...form({ price: '1' }),
    },
    error: { status: 400, code: 'bad_parameter', message: 'A path key and query filters cannot be combined' },
  },
  {
    name: 'U3: a path key of the wrong length',
    resource: editionResource,
    input: { op: 'update', pathKeys: ['a'], filters: [], ...form({ label: 'L' }) },
    error: {
      status: 400,
      code: 'bad_path_key',
      message: 'Resource Edition has a key of 2 part(s) (isbn/editionNo), the path gives 1',
    },
  },
  {
    name: 'PUT without a body',
    resource: bookResource,
    input: { op: 'update', pathKeys: ['1'], filters: [] },
    error: {
      status: 400,
      code: 'bad_body',
      message: 'PUT needs a body: form fields with the new values, or XML/JSON rows',
    },
  },
  {
    name: 'D1: a row without its key',
    resource: bookResource,
    input: { op: 'delete', pathKeys: [], filters: [], ...json({ id: 1 }, { title: 'x' }) },
    error: { status: 400, code: 'missing_key', message: 'Row 2 lacks its key: shop.Book rows are identified by id' },
  },
  {
    name: 'D1: a row whose key is null',
    resource: bookResource,
    input: { op: 'delete', pathKeys: [], filters: [], ...json({ id: null }) },
    error: { status: 400, code: 'missing_key', message: 'Row 1 lacks its key: shop.Book rows are identified by id' },
  },
  {
    name: 'D1: a row with an unknown attribute',
    resource: bookResource,
    input: { op: 'delete', pathKeys: [], filters: [], ...xml({ id: '1', colour: 'red' }) },
    error: {
      status: 400,
      code: 'bad_body',
      message: `Unknown field colour in resource shop.Book; its fields are ${bookFields}`,
    },
  },
  {
    name: 'D1: an empty body',
    resource: bookResource,
    input: { op: 'delete', pathKeys: [], filters: [], bodyType: 'xml', rows: [] },
    error: { status: 400, code: 'bad_body', message: 'The request body holds no rows' },
  },
  {
    name: 'D2 without filters: filter_required (D18)',
    resource: bookResource,
    input: { op: 'delete', pathKeys: [], filters: [] },
    error: {
      status: 400,
      code: 'filter_required',
      message: 'Refusing to delete every row of shop.Book: give a key in the path, query filters, or rows in the body',
    },
  },
  {
    name: 'D3: a path key that does not convert',
    resource: bookResource,
    input: { op: 'delete', pathKeys: ['1 or 1=1'], filters: [] },
    error: { status: 400, code: 'bad_path_key', message: 'Could not convert id value "1 or 1=1" to number' },
  },
  {
    name: 'DELETE with a form body',
    resource: bookResource,
    input: { op: 'delete', pathKeys: [], filters: [], ...form({ id: '1' }) },
    error: {
      status: 400,
      code: 'bad_body',
      message: 'DELETE takes XML or JSON rows in its body, or none; not form fields',
    },
  },
];

describe('planWrite', () => {
  describe.each(engineNames)('%s', (engine) => {
    it.each(writes)('$name', async ({ resource, input, plan }) => {
      expect(await planned(resource(engine), input)).toEqual(plan);
    });

    it.each(badWrites)('$name', async ({ resource, input, error }) => {
      expect(await serviceErrorOfAsync(() => planned(resource(engine), input))).toEqual({
        name: 'BadRequestError',
        ...error,
      });
    });
  });
});

describe('planWrite of many rows, a slice at a time', () => {
  const titled = (i: number): Record<string, RawValue> => ({ title: `t${i}`, price: `${i}.50` });
  const many = (n: number, change: Record<number, Record<string, RawValue>> = {}) =>
    Array.from({ length: n }, (_, i) => change[i + 1] ?? titled(i));

  it.each(engineNames)('%s: 1,000 rows give the plans each row gives alone, in order', async (engine) => {
    const rows = many(1000);
    const input = (values: Record<string, RawValue>[]): WriteCase => ({
      op: 'insert',
      pathKeys: [],
      filters: [],
      ...json(...values),
    });
    const whole = await planned(bookResource(engine), input(rows));
    const alone = await Promise.all(rows.map((row) => planned(bookResource(engine), input([row]))));
    expect(whole).toEqual({ kind: 'insert', rows: alone.flatMap((plan) => (plan.kind === 'insert' ? plan.rows : [])) });
  });

  it.each<[string, Record<number, Record<string, RawValue>>, ExpectedError]>([
    [
      'a bad value in row 700 before an unknown field in row 900',
      { 700: { title: 'x', price: 'seven' }, 900: { title: 'y', colour: 'red' } },
      { status: 400, code: 'bad_value', message: 'Could not convert price value "seven" to number' },
    ],
    [
      'an unknown field in row 700 before a bad value in row 900',
      { 700: { title: 'y', colour: 'red' }, 900: { title: 'x', price: 'seven' } },
      {
        status: 400,
        code: 'bad_body',
        message: `Unknown field colour in resource shop.Book; its fields are ${bookFields}`,
      },
    ],
  ])('reports the first row in error of 1,000: %s', async (_name, change, error) => {
    const input: WriteCase = { op: 'insert', pathKeys: [], filters: [], ...json(...many(1000, change)) };
    expect(await serviceErrorOfAsync(() => planned(bookResource('postgres'), input))).toEqual({
      name: 'BadRequestError',
      ...error,
    });
  });

  it('names the row of 1,000 that lacks its key (U1, D1)', async () => {
    const rows = many(1000, { 800: { title: 'no key' } }).map((row, i) => (i === 799 ? row : { ...row, id: `${i}` }));
    for (const op of ['update', 'delete'] as const) {
      const input: WriteCase = { op, pathKeys: [], filters: [], ...xml(...rows) };
      expect(await serviceErrorOfAsync(() => planned(bookResource('mysql'), input))).toMatchObject({
        code: 'missing_key',
        message: 'Row 800 lacks its key: shop.Book rows are identified by id',
      });
    }
  });
});
