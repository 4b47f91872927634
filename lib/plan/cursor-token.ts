/**
 * The `_after` token: the last row's values of a read's order fields, bound to the resource, the order and the
 * request's filters, and tagged with HMAC-SHA256 so that any change to it is seen. It is base64url without padding
 * (URL-safe): the payload as JSON, a dot, the tag. Opening checks the tag before reading anything else, so a token
 * that was changed is refused, never read as another query. Pure (the key is passed in).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { BadRequestError } from '../errors';

/** What a token is valid for: a read of `resource` in `order`, with filters whose digest is `filters`. */
export interface CursorBinding {
  readonly resource: string;
  /** The read's order fields, `-` before a descending one: `title,-price,id`. */
  readonly order: string;
  /** filtersDigest of the request's filters. */
  readonly filters: string;
}

/** The values of the order fields, as text (the form filters convert from), or null. */
export type CursorValues = readonly (string | null)[];

/**
 * Used when CURSOR_SECRET is not set. It is public (it is in this source), so anyone who knows it could make a token
 * by hand; a token still can say nothing but "the rows after these values", bound as parameters, under the caller's
 * privileges and rows.
 */
const fallbackCursorKey = 'public fallback: set CURSOR_SECRET';

const undecodable = 'is not a token this service makes (it does not decode)';

interface Payload {
  readonly r: string;
  readonly o: string;
  readonly f: string;
  readonly v: CursorValues;
}

/** A digest of filters in any order: the same filters written in another order give the same digest. */
export function filtersDigest(filters: readonly unknown[]): string {
  const texts = filters.map((filter) => JSON.stringify(filter)).sort();
  return createHash('sha256').update(JSON.stringify(texts)).digest('base64url').slice(0, 22);
}

export function signCursor(key: string | undefined, binding: CursorBinding, values: CursorValues): string {
  const payload: Payload = { r: binding.resource, o: binding.order, f: binding.filters, v: values };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${tag(key, body)}`;
}

/** The values a token holds, once its tag and what it is bound to are checked; a 400 saying why otherwise. */
export function openCursor(key: string | undefined, binding: CursorBinding, token: string): CursorValues {
  const [body, given, ...rest] = token.split('.');
  const base64url = /^[A-Za-z0-9_-]+$/;
  if (body === undefined || given === undefined || rest.length > 0 || !base64url.test(body) || !base64url.test(given)) {
    throw refused(undecodable);
  }
  // compared as written: base64url's last character has bits that decoding drops, and a change there is a change
  const expected = Buffer.from(tag(key, body));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    throw refused('has been changed, or was signed with another CURSOR_SECRET');
  }
  const payload = readPayload(body);
  if (payload.r !== binding.resource) throw refused(`belongs to resource ${payload.r}, not ${binding.resource}`);
  if (payload.o !== binding.order) {
    throw refused(`was made for the order ${payload.o}, not ${binding.order}`);
  }
  if (payload.f !== binding.filters) throw refused('was made for other filters');
  return payload.v;
}

/** `key`: CURSOR_SECRET, or the fallback when it is not set. */
function tag(key: string | undefined, body: string): string {
  return createHmac('sha256', key ?? fallbackCursorKey)
    .update(body)
    .digest('base64url');
}

/**
 * A payload with a good tag was made here; its values are still checked, so a leaked key cannot crash a read (what it
 * is bound to is compared with the read's, whatever its type).
 */
function readPayload(body: string): Payload {
  let payload: Partial<Payload> | null = null;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {}
  const values = payload?.v;
  if (!Array.isArray(values) || !values.every((v) => v === null || typeof v === 'string')) throw refused(undecodable);
  return payload as Payload;
}

function refused(why: string): BadRequestError {
  return new BadRequestError('bad_cursor', `Parameter _after ${why}; start again from the first page`);
}
