/**
 * Checks a converted value against what its column holds (Field.limits, from the catalog): text length, integer
 * range, decimal digits, float range. A value outside them would be rounded, truncated or refused by the
 * database, each in its own way, so it is refused here, the same for every database, with the reason in words
 * that name the field. Decimals are compared digit by digit, never through a JS float; only a float is read as
 * one, as each database reads it. Pure.
 */
import type { Field, ValueLimits } from '../resource';
import { digitsAfter, digitsBefore, type ExactDecimal, plainDecimal } from './exact-decimal';

/** Why a value does not convert; no reason when its form alone is wrong. */
export class Refusal {
  constructor(readonly reason?: string) {}
}

/** Digits before and after the decimal point: numeric(p,s) holds p - s and s. */
interface Digits {
  readonly before: number;
  readonly after: number;
}

/**
 * A decimal column with no precision holds what PostgreSQL's numeric holds, and no database more; this also
 * bounds the plain digits of a value written with an exponent.
 */
const anyDecimal: Digits = { before: 131072, after: 16383 };

const digitWords = (n: number) => (n === 1 ? '1 digit' : `${n} digits`);

/** An integer type's range: smallint, int, bigint, MySQL's unsigned and medium ones, year. */
export function limitInteger(field: Field, value: bigint): Refusal | undefined {
  const { min, max } = field.limits ?? {};
  if (min === undefined || max === undefined || (value >= BigInt(min) && value <= BigInt(max))) return undefined;
  return new Refusal(`${field.label} holds integers from ${min} to ${max}`);
}

/** Unsigned decimals and floats (MySQL) hold nothing below 0. */
function belowMin(field: Field, value: ExactDecimal): Refusal | undefined {
  const min = field.limits?.min;
  return min !== undefined && value.negative ? new Refusal(`${field.label} holds no numbers below ${min}`) : undefined;
}

/**
 * The decimal's digits against the column's: nothing rounded away, nothing too large. PostgreSQL's scale may be
 * negative (numeric(3,-2) holds multiples of 100) or above the precision (numeric(2,5) holds values below 0.001).
 */
function checkDigits(field: Field, value: ExactDecimal, { before, after }: Digits): Refusal | undefined {
  if (digitsAfter(value) > after) {
    if (after > 0) return new Refusal(`${field.label} holds at most ${digitWords(after)} after the decimal point`);
    const whole = after === 0 ? 'numbers' : `multiples of 1${'0'.repeat(-after)}`;
    return new Refusal(`${field.label} holds only whole ${whole}`);
  }
  if (digitsBefore(value) > before) {
    if (before > 0) return new Refusal(`${field.label} holds at most ${digitWords(before)} before the decimal point`);
    const limit = before === 0 ? '1' : `0.${'0'.repeat(-before - 1)}1`;
    return new Refusal(`${field.label} holds only numbers below ${limit}`);
  }
  return undefined;
}

function digitsOf(limits: ValueLimits | undefined): Digits {
  return { before: limits?.digitsBefore ?? anyDecimal.before, after: limits?.digitsAfter ?? anyDecimal.after };
}

/**
 * A decimal in plain digits, as both databases then read it exactly: the exponent applied, trailing zeros the
 * column cannot keep dropped (`1.50` into one digit after the point is `1.5`), any other digit refused.
 */
export function limitDecimal(field: Field, value: ExactDecimal): string | Refusal {
  const digits = digitsOf(field.limits);
  const refused = checkDigits(field, value, digits) ?? belowMin(field, value);
  if (refused) return refused;
  return plainDecimal(value, Math.min(value.scale, Math.max(digits.after, 0)));
}

const floatWords = { single: 'single-precision', double: 'double-precision' } as const;
const floatMax = { single: Math.fround(3.4028234663852886e38), double: Number.MAX_VALUE } as const;

/**
 * A float keeps its text as written: each database reads it into the same binary float. Refused: what would be
 * infinite, and what is not 0 but would become 0. A float without a limit is checked as a double, the widest.
 */
export function limitFloat(field: Field, value: ExactDecimal, text: string): string | Refusal {
  const kind = field.limits?.float ?? 'double';
  const number = Number(text);
  const stored = kind === 'single' ? Math.fround(number) : number;
  const holds = `${field.label} holds ${floatWords[kind]} floats`;
  if (!Number.isFinite(stored)) return new Refusal(`${holds}, at most ${floatMax[kind]} in size`);
  if (stored === 0 && value.digits !== '') return new Refusal(`${holds}; this value is not 0 but would be stored as 0`);
  // MySQL's float(M,D) and double(M,D) round to D digits after the point
  const digits =
    field.limits?.digitsAfter !== undefined ? checkDigits(field, value, digitsOf(field.limits)) : undefined;
  return digits ?? belowMin(field, value) ?? text.trim().replace(/^\+/, '');
}

/** Length in characters (as both databases count them: code points), and in bytes for MySQL's text types. */
export function limitText(field: Field, text: string): Refusal | undefined {
  const { maxLength, maxBytes } = field.limits ?? {};
  if (maxLength !== undefined && text.length > maxLength && [...text].length > maxLength)
    return new Refusal(`${field.label} holds at most ${maxLength} characters`);
  if (maxBytes !== undefined && Buffer.byteLength(text, 'utf8') > maxBytes)
    return new Refusal(`${field.label} holds at most ${maxBytes} bytes (UTF-8)`);
  return undefined;
}

export function limitBytes(field: Field, bytes: Uint8Array): Refusal | undefined {
  const maxBytes = field.limits?.maxBytes;
  return maxBytes !== undefined && bytes.length > maxBytes
    ? new Refusal(`${field.label} holds at most ${maxBytes} bytes`)
    : undefined;
}
