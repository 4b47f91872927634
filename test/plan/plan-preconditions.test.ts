/**
 * What a write's If-Match asks (the rows it addresses by key, each once) and what a conditional PUT by path key reads
 * back (the row's key once written); the 400s of If-Match where rows are not addressed by key, and the 428 of a
 * resource that requires it.
 */

import type { EntityTags } from '../../lib/entity-tags';
import type { Key } from '../../lib/plan/plan';
import { planWrittenKey } from '../../lib/plan/plan-preconditions';
import { planWrite } from '../../lib/plan/plan-write';
import type { RawValue } from '../../lib/request/resource-request';
import type { SqlResource } from '../../lib/resource';
import { bookResource, serviceErrorOfAsync } from '../support/resources';
import { type WriteCase, writeRequest } from '../support/write-request';

const tags: EntityTags = { any: false, tags: ['"v1"'] };
const form = (values: Record<string, RawValue>) => ({ bodyType: 'form' as const, rows: [{ values }] });
const json = (...rows: Record<string, RawValue>[]) => ({
  bodyType: 'json' as const,
  rows: rows.map((values) => ({ values })),
});

async function planned(resource: SqlResource, input: WriteCase, ifMatch?: EntityTags) {
  const request = { ...writeRequest(resource, input), ...(ifMatch ? { ifMatch } : {}) };
  const plan = await planWrite(resource, request);
  return { versions: plan.versions, writtenKey: planWrittenKey(resource, request, plan) };
}

const book = bookResource('postgres');
const strictBook: SqlResource = { ...book, ifMatchRequired: true };

describe('If-Match planned (planVersionCheck through planWrite) and planWrittenKey', () => {
  it.each<[string, WriteCase, EntityTags | undefined, { versions?: { keys: Key[] }; writtenKey?: Key }]>([
    [
      'U3 without If-Match: nothing checked, nothing read back',
      { op: 'update', pathKeys: ['7'], filters: [], ...form({ title: 'T' }) },
      undefined,
      {},
    ],
    [
      'U3 with If-Match: the path row checked and read back',
      { op: 'update', pathKeys: ['7'], filters: [], ...form({ title: 'T' }) },
      tags,
      { versions: { keys: [[7n]] }, writtenKey: [7n] },
    ],
    [
      'U3 that changes the key: read back under its new key',
      { op: 'update', pathKeys: ['7'], filters: [], ...form({ id: '8' }) },
      tags,
      { versions: { keys: [[7n]] }, writtenKey: [8n] },
    ],
    [
      'D3 with If-Match: checked, nothing to read back',
      { op: 'delete', pathKeys: ['7'], filters: [] },
      tags,
      { versions: { keys: [[7n]] } },
    ],
    [
      'U1 rows: each key once',
      {
        op: 'update',
        pathKeys: [],
        filters: [],
        ...json({ id: 1, title: 'A' }, { id: 2, title: 'B' }, { id: 1, summary: 'S' }),
      },
      tags,
      { versions: { keys: [[1n], [2n]] } },
    ],
    [
      'D1 rows',
      { op: 'delete', pathKeys: [], filters: [], ...json({ id: 3 }, { id: 4 }) },
      tags,
      { versions: { keys: [[3n], [4n]] } },
    ],
  ])('%s', async (_, input, ifMatch, expected) => {
    const { versions, writtenKey } = await planned(book, input, ifMatch);
    expect({ versions: versions?.keys, writtenKey }).toEqual({
      versions: expected.versions?.keys,
      writtenKey: expected.writtenKey,
    });
    if (versions) expect(versions.tags).toBe(tags);
  });

  it.each<[string, WriteCase, string]>([
    [
      'C1',
      { op: 'insert', pathKeys: [], filters: [], ...form({ title: 'T' }) },
      'If-Match is for PUT and DELETE of rows by key; a POST creates rows, which have no version yet',
    ],
    [
      'U2',
      { op: 'update', pathKeys: [], filters: [{ name: 'title', op: 'eq', value: 'x' }], ...form({ title: 'T' }) },
      'If-Match is for a PUT of rows by key (in the path or in the body); this one chooses its rows by query filters',
    ],
    [
      'D2',
      { op: 'delete', pathKeys: [], filters: [{ name: 'title', op: 'eq', value: 'x' }] },
      'If-Match is for a DELETE of rows by key (in the path or in the body); this one chooses its rows by query filters',
    ],
  ])('%s with If-Match is a 400 that says why', async (_, input, message) => {
    expect(await serviceErrorOfAsync(() => planned(book, input, tags))).toEqual({
      name: 'BadRequestError',
      status: 400,
      code: 'bad_header',
      message,
    });
  });

  const required =
    'Resource shop.Book requires If-Match on a write by key: read the row first and send its ETag as If-Match';
  it.each<[string, WriteCase]>([
    ['U3', { op: 'update', pathKeys: ['7'], filters: [], ...form({ title: 'T' }) }],
    ['D3', { op: 'delete', pathKeys: ['7'], filters: [] }],
    ['U1', { op: 'update', pathKeys: [], filters: [], ...json({ id: 1, title: 'A' }) }],
  ])('%s without If-Match on a resource that requires it is a 428', async (_, input) => {
    expect(await serviceErrorOfAsync(() => planned(strictBook, input))).toEqual({
      name: 'PreconditionError',
      status: 428,
      code: 'precondition_required',
      message: required,
    });
  });

  it('a resource that requires If-Match still takes inserts and writes by filter without it', async () => {
    await expect(
      planned(strictBook, { op: 'insert', pathKeys: [], filters: [], ...form({ title: 'T' }) }),
    ).resolves.toEqual({});
    const filtered: WriteCase = { op: 'delete', pathKeys: [], filters: [{ name: 'title', op: 'eq', value: 'x' }] };
    await expect(planned(strictBook, filtered)).resolves.toEqual({});
  });
});
