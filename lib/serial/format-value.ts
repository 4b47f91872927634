/**
 * Turns one database value into its wire text (XML attribute text) or its raw JSON token, per the field's value
 * type. Numbers keep the database's exact digits: nothing here goes through a JS float or a JS Date.
 * Pure; must not throw on odd driver values (it writes them as strings instead) and must not escape XML.
 */
import type { ValueType } from '../resource';
import type { Value } from '../values';

const jsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const trueTexts: ReadonlySet<string> = new Set(['t', 'true', '1']);
const falseTexts: ReadonlySet<string> = new Set(['f', 'false', '0']);

/** The value as text, unescaped: what an XML attribute holds; null for NULL. */
export function valueText(type: ValueType, value: Value): string | null {
  if (value === null) return null;
  if (type !== 'boolean') return toText(value);
  const truth = toBoolean(value);
  return truth === undefined ? toText(value) : String(truth);
}

/** The value as a complete JSON token: a number, `true`/`false`, a quoted string, or `null`. */
export function valueJson(type: ValueType, value: Value): string {
  if (value === null) return 'null';
  switch (type) {
    case 'integer':
    case 'decimal':
    case 'float': {
      // digits as the database printed them; NaN and infinities are not JSON numbers, so they become strings
      const text = toText(value);
      return jsonNumber.test(text) ? text : JSON.stringify(text);
    }
    case 'boolean': {
      const truth = toBoolean(value);
      return truth === undefined ? JSON.stringify(toText(value)) : String(truth);
    }
    case 'binary':
    case 'date':
    case 'time':
    case 'timestamp':
    case 'string':
      return JSON.stringify(toText(value));
  }
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
