/**
 * Converts a value from a query string or body to its field's type before it reaches SQL; a value that does not
 * convert is a 400 naming the field and the value. The result is the same for every database: integers are
 * bigints (every digit kept), booleans booleans, timestamps `YYYY-MM-DD HH:MM...`; the SQL dialect binds them as
 * its driver takes them. Pure.
 */
import { BadRequestError } from '../errors';
import type { RawValue } from '../request/resource-request';
import type { Field, ValueType } from '../resource';
import type { Value } from '../values';

const integer = /^[+-]?\d+$/;
const decimal = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const date = /^(\d{4})-(\d{2})-(\d{2})$/;
/** 24:00[:00] is the end of a day; no other time in hour 24. */
const time = /^(([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?|24:00(:00(\.0{1,6})?)?)$/;
/** A date alone is midnight of that day. */
const timestamp = /^(\d{4}-\d{2}-\d{2})([ T]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const typeWords: Record<ValueType, string> = {
  integer: 'number',
  decimal: 'number',
  float: 'number',
  boolean: 'boolean (true, false, 1, 0)',
  date: 'date (YYYY-MM-DD)',
  time: 'time (HH:MM[:SS[.ffffff]])',
  timestamp: 'timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]])',
  binary: 'base64 binary',
  string: 'text',
};

function fail(field: Field, raw: RawValue): never {
  throw new BadRequestError(
    'bad_value',
    `Could not convert ${field.label} value ${String(raw)} to ${typeWords[field.type]}`,
  );
}

function validDate(text: string): boolean {
  const m = date.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(0);
  probe.setUTCFullYear(y, mo - 1, d); // not Date.UTC: it maps years 0-99 to 1900-1999
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
}

/** Each type's conversion of a non-null value: the converted value, or undefined when it does not convert. */
const converters: Readonly<Record<ValueType, (text: string, raw: Exclude<RawValue, null>) => Value | undefined>> = {
  integer: (text, raw) => (typeof raw !== 'boolean' && integer.test(text.trim()) ? BigInt(text.trim()) : undefined),
  decimal: (text, raw) => number(text, raw),
  float: (text, raw) => number(text, raw),
  boolean: (text) => {
    const lower = text.trim().toLowerCase();
    if (lower === 'true' || lower === '1') return true;
    return lower === 'false' || lower === '0' ? false : undefined;
  },
  date: (text) => (validDate(text) ? text : undefined),
  time: (text) => (time.test(text) ? text : undefined),
  timestamp: (text) => {
    const m = timestamp.exec(text);
    return m && validDate(m[1] as string) ? text.replace('T', ' ') : undefined;
  },
  binary: (text, raw) => (typeof raw === 'string' && base64.test(text) ? Buffer.from(text, 'base64') : undefined),
  string: (text) => text,
};

/** A decimal or float keeps the digits as given, without a leading plus. */
function number(text: string, raw: Exclude<RawValue, null>): string | undefined {
  const trimmed = text.trim();
  return typeof raw !== 'boolean' && decimal.test(trimmed) ? trimmed.replace(/^\+/, '') : undefined;
}

/** NULL passes through; the database's NOT NULL constraints decide. */
export function convertValue(field: Field, raw: RawValue): Value {
  if (raw === null) return null;
  const value = converters[field.type](typeof raw === 'string' ? raw : String(raw), raw);
  return value === undefined ? fail(field, raw) : value;
}
