/**
 * A form-urlencoded body (an insert of one row, or an update by filters or by path key) → one row. `null` is NULL, and a leading backslash escapes as in query
 * strings (`\null` is the text null, `\!x` is !x); every other value is literal. Pure; must not
 * interpret operators: a form body is not a query string.
 */
import { BadRequestError } from '../errors';
import { decodePairs } from './decode';
import type { BodyRow, RawValue } from './resource-request';
import { unescapeLeading } from './unescape';

export function parseFormBody(text: string): BodyRow {
  const values = new Map<string, RawValue>();
  for (const [name, value] of decodeForm(text)) {
    if (name === '') throw new BadRequestError('bad_body', `The form body has a value with no field name`);
    if (values.has(name)) throw new BadRequestError('bad_body', `The form field ${name} is given more than once`);
    values.set(name, toRawValue(value));
  }
  if (values.size === 0) throw new BadRequestError('bad_body', 'The form body has no fields');
  return { values: Object.fromEntries(values) };
}

function decodeForm(text: string): [string, string][] {
  try {
    return decodePairs(text);
  } catch (error) {
    if (error instanceof BadRequestError) {
      throw new BadRequestError('bad_body', `The form body cannot be decoded: ${error.message}`, error);
    }
    throw error;
  }
}

function toRawValue(value: string): RawValue {
  if (value === 'null') return null;
  return unescapeLeading(value) ?? value;
}
