/**
 * Turns one database value into its wire text (XML attribute text) and its raw JSON token, per the field's value
 * type. Numbers keep the database's exact digits: nothing here goes through a JS float or a JS Date.
 * Pure; must not throw on odd driver values (it writes them as strings instead) and must not escape XML.
 */
import type { ValueType } from '../resource';
import type { Value } from '../values';

export interface FormattedValue {
  /** The value as text, unescaped: what an XML attribute holds. */
  readonly text: string;
  /** The value as a complete JSON token: a number, `true`/`false`, or a quoted string. */
  readonly json: string;
}

const jsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const trueTexts: ReadonlySet<string> = new Set(['t', 'true', '1']);
const falseTexts: ReadonlySet<string> = new Set(['f', 'false', '0']);

/** Formats a value for the wire; null for NULL. */
export function formatValue(type: ValueType, value: Value): FormattedValue | null {
  if (value === null) return null;
  switch (type) {
    case 'integer':
    case 'decimal':
    case 'float':
      return formatNumber(toText(value));
    case 'boolean':
      return formatBoolean(value);
    case 'binary':
    case 'date':
    case 'time':
    case 'timestamp':
    case 'string':
      return asString(toText(value));
  }
}

/** Digits as the database printed them; NaN and infinities are not JSON numbers, so they become strings. */
function formatNumber(text: string): FormattedValue {
  return jsonNumber.test(text) ? { text, json: text } : asString(text);
}

function formatBoolean(value: Exclude<Value, null>): FormattedValue {
  const truth = toBoolean(value);
  if (truth === undefined) return asString(toText(value));
  const text = truth ? 'true' : 'false';
  return { text, json: text };
}

/** PostgreSQL text `t`/`f`, MySQL tinyint(1) numbers (any non-zero is true, as MySQL itself reads it). */
function toBoolean(value: Exclude<Value, null>): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  if (trueTexts.has(lower)) return true;
  if (falseTexts.has(lower)) return false;
  return undefined;
}

/** The exact text of a driver value; bytes are base64. */
function toText(value: Exclude<Value, null>): string {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  return String(value);
}

function asString(text: string): FormattedValue {
  return { text, json: JSON.stringify(text) };
}
