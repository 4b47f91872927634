/**
 * Table tests of the `_after` token: it round-trips the last row's values (text and NULL), is URL-safe, and every
 * change to it is a 400 naming why (a changed payload or tag, a token that does not decode, another key, another
 * resource, order or filters), never values of another query. Then the planner's two ends: a token becomes typed
 * values of the order's fields, and a row becomes the token of the rows after it. Pure.
 */
import { createHmac } from 'node:crypto';
import { filtersDigest, openCursor, signCursor } from '../../lib/plan/cursor-token';
import { cursorAfter } from '../../lib/plan/plan-after';
import { planRead } from '../../lib/plan/plan-read';
import { bookResource, serviceErrorOf } from '../support/resources';

const binding = { resource: 'Book', order: '-price,id', filters: filtersDigest([]) };
const key = 'a test key';
const values = ['12.50', null, 'ü & <b>/?#', ''];
const token = signCursor(key, binding, values);

/** The token with its character at `at` (negative: from the end) replaced by another base64url character. */
function changedAt(at: number): string {
  const i = at < 0 ? token.length + at : at;
  const other = token[i] === 'A' ? 'B' : 'A';
  return `${token.slice(0, i)}${other}${token.slice(i + 1)}`;
}

const refusal = (code = 'bad_cursor') => ({ name: 'BadRequestError', status: 400, code });

describe('signCursor and openCursor', () => {
  it('round-trip the values, and the token is base64url without padding', () => {
    expect(openCursor(key, binding, token)).toEqual(values);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  });

  it('sign with the fallback key when none is set, and open only with it', () => {
    const fallback = signCursor(undefined, binding, values);
    expect(openCursor(undefined, binding, fallback)).toEqual(values);
    expect(serviceErrorOf(() => openCursor(key, binding, fallback))).toMatchObject(refusal());
  });

  it('digest filters in any order alike, and different filters differently', () => {
    const a = { name: 'a', op: 'eq', value: '1' };
    const b = { name: 'b', op: 'gt', value: '2' };
    expect(filtersDigest([a, b])).toBe(filtersDigest([b, a]));
    expect(filtersDigest([a])).not.toBe(filtersDigest([b]));
    expect(filtersDigest([a])).not.toBe(filtersDigest([]));
  });

  const payload = (p: unknown) => Buffer.from(JSON.stringify(p)).toString('base64url');
  it.each([
    ['a changed first character', changedAt(0), /has been changed/],
    ['a changed character in the middle of the payload', changedAt(10), /has been changed/],
    ['a changed last character of the tag (bits base64 decoding drops)', changedAt(-1), /has been changed/],
    ['a changed character of the tag', changedAt(-20), /has been changed/],
    ['a shortened tag', token.slice(0, -1), /has been changed/],
    ['a longer tag', `${token}A`, /has been changed/],
    ['no tag', token.split('.')[0], /does not decode/],
    ['an empty tag', `${token.split('.')[0]}.`, /does not decode/],
    ['a third part', `${token}.x`, /does not decode/],
    ['padding', `${token}=`, /does not decode/],
    ['not base64url', token.replace('.', '+'), /does not decode/],
    [
      'another payload with the tag',
      `${payload({ r: 'Book', o: '-price,id', f: binding.filters, v: ['1'] })}.${token.split('.')[1]}`,
      /has been changed/,
    ],
    ['made with another key', signCursor('another key', binding, values), /another CURSOR_SECRET/],
    ['a payload that is not JSON, tagged', signedBody('not json'), /does not decode/],
    [
      'a payload of another shape, tagged',
      signedBody(JSON.stringify({ r: 'Book', o: '-price,id', f: binding.filters, v: [1] })),
      /does not decode/,
    ],
    [
      'another resource',
      signCursor(key, { ...binding, resource: 'Author' }, values),
      /belongs to resource Author, not Book/,
    ],
    [
      'another order',
      signCursor(key, { ...binding, order: 'price,id' }, values),
      /made for the order price,id, not -price,id/,
    ],
    [
      'other filters',
      signCursor(key, { ...binding, filters: filtersDigest([{ name: 'a' }]) }, values),
      /other filters/,
    ],
  ])('%s: 400', (_name, changed, words) => {
    const error = serviceErrorOf(() => openCursor(key, binding, changed as string));
    expect(error).toMatchObject(refusal());
    expect(error.message).toMatch(words);
    expect(error.message).toMatch(/^Parameter _after .*; start again from the first page$/);
  });
});

/** A token whose payload is `text` as it is, with the tag the key gives it (as if a leaked key had made it). */
function signedBody(text: string): string {
  const body = Buffer.from(text).toString('base64url');
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

describe('planRead with _after and Prefer: count=exact', () => {
  const book = bookResource('postgres');
  const row = { id: '7', title: 'B', price: '5.00', published: null, summary: null, titleLength: 1 };
  const order = [{ name: 'published', descending: true }];
  const after = cursorAfter(book, [{ label: 'published', descending: true }, 'id'], [], row, key);

  it('turns the token into values of the order fields, converted as filters are', () => {
    const plan = planRead(book, { query: { filters: [], order, limit: 2, after }, pathKeys: [] }, {}, 50, key);
    expect(plan.select).toEqual({
      filters: [],
      orderBy: [{ label: 'published', descending: true }, 'id'],
      after: { values: [null, 7n], neverNull: ['id'] },
      limit: 2,
      offset: undefined,
    });
  });

  it('refuses the token under another order, and under another key', () => {
    const other = { query: { filters: [], limit: 2, after }, pathKeys: [] };
    expect(serviceErrorOf(() => planRead(book, other, {}, 50, key))).toMatchObject(refusal());
    const same = { query: { filters: [], order, limit: 2, after }, pathKeys: [] };
    expect(serviceErrorOf(() => planRead(book, same, {}, 50, 'other key'))).toMatchObject(refusal());
  });

  it('refuses _after on a read by key', () => {
    const byKey = { query: { filters: [], after }, pathKeys: ['7'] };
    expect(serviceErrorOf(() => planRead(book, byKey, {}, 50, key))).toMatchObject(refusal('bad_parameter'));
  });

  it('counts a total for a read of rows, not for a read by key', () => {
    const rows = planRead(book, { query: { filters: [] }, pathKeys: [], countExact: true }, {}, 50);
    expect(rows.total).toBe(true);
    const one = planRead(book, { query: { filters: [] }, pathKeys: ['7'], countExact: true }, {}, 50);
    expect(one.total).toBeUndefined();
  });
});
