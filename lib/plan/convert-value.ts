/**
 * Converts a value from a query string or body to its field's type before it reaches SQL, and checks it against
 * what its column holds (value-limits, date-time); a value that does not convert is a 400 naming the field and
 * the value, with the reason when its form alone is not what is wrong. The result is the same for every
 * database: integers are bigints (every digit kept), decimals plain digits, booleans booleans, timestamps
 * `YYYY-MM-DD HH:MM...`; the engine's SQL shape binds them as its driver takes them. A message quotes the value, so an
 * empty one or one with spaces reads as what it is. Pure.
 */
import { BadRequestError } from '../errors';
import type { RawValue } from '../request/resource-request';
import type { Field, ValueType } from '../resource';
import type { Value } from '../values';
import { convertDate, convertTime, convertTimestamp } from './date-time';
import { parseDecimal } from './exact-decimal';
import { limitBytes, limitDecimal, limitFloat, limitInteger, limitText, Refusal } from './value-limits';

const integer = /^[+-]?\d+$/;
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

/** Values longer than this are cut in messages: a message names the value, it need not repeat a megabyte. */
const shownLength = 200;

function shown(raw: Exclude<RawValue, null>): string {
  const text = String(raw);
  const chars = [...text];
  return chars.length <= shownLength
    ? `"${text}"`
    : `"${chars.slice(0, shownLength).join('')}..." (${chars.length} characters)`;
}

type Converter = (text: string, raw: Exclude<RawValue, null>, field: Field) => Value | Refusal;

const notConverted = new Refusal();

/** Each type's conversion of a non-null value: the converted value, or why it does not convert. */
const converters: Readonly<Record<ValueType, Converter>> = {
  integer: (text, raw, field) => {
    if (typeof raw === 'boolean' || !integer.test(text.trim())) return notConverted;
    const value = BigInt(text.trim());
    return limitInteger(field, value) ?? value;
  },
  decimal: (text, raw, field) => {
    const value = typeof raw === 'boolean' ? undefined : parseDecimal(text);
    return value ? limitDecimal(field, value) : notConverted;
  },
  float: (text, raw, field) => {
    const value = typeof raw === 'boolean' ? undefined : parseDecimal(text);
    return value ? limitFloat(field, value, text) : notConverted;
  },
  boolean: (text) => {
    const lower = text.trim().toLowerCase();
    if (lower === 'true' || lower === '1') return true;
    return lower === 'false' || lower === '0' ? false : notConverted;
  },
  date: (text) => convertDate(text),
  time: (text, _raw, field) => convertTime(field, text),
  timestamp: (text, _raw, field) => convertTimestamp(field, text),
  binary: (text, raw, field) => {
    if (typeof raw !== 'string' || !base64.test(text)) return notConverted;
    const bytes = Buffer.from(text, 'base64');
    return limitBytes(field, bytes) ?? bytes;
  },
  string: (text, _raw, field) => limitText(field, text) ?? text,
};

/** NULL passes through: whether a column takes it is the writes' question (plan-write), not the value's. */
export function convertValue(field: Field, raw: RawValue): Value {
  return convert(field, raw);
}

/** An item of an IN list, converted as convertValue does; an empty item, as in `(1,,2)`, is said to be one. */
export function convertListItem(field: Field, item: string): Value {
  return convert(field, item, item.trim() === '' ? 'empty value in the list' : undefined);
}

/** `why`: what to say when the value's form alone is what is wrong. */
function convert(field: Field, raw: RawValue, why?: string): Value {
  if (raw === null) return null;
  const value = converters[field.type](typeof raw === 'string' ? raw : String(raw), raw, field);
  if (!(value instanceof Refusal)) return value;
  const said = value.reason ?? why;
  const reason = said === undefined ? '' : `: ${said}`;
  throw new BadRequestError(
    'bad_value',
    `Could not convert ${field.label} value ${shown(raw)} to ${typeWords[field.type]}${reason}`,
  );
}
