/**
 * A JSON request body (D13) → rows: `{"<collection>": [ {row}, ... ]}`, hierarchical parents possibly carrying
 * `"<childCollection>": [ {row}, ... ]`. Numbers keep their exact source digits, as strings (lossless-json), so
 * `12345678901234567890` and `20.10` reach the converter unrounded. Pure; must not convert values to field types.
 */
import { isLosslessNumber, parse } from 'lossless-json';
import { BadRequestError } from '../errors';
import type { BodyRow, RawValue } from '../request/resource-request';
import type { BodyNames } from './types';

type JsonObject = Record<string, unknown>;

export function parseJsonBody(text: string, names: BodyNames, shape: 'parents' | 'children'): BodyRow[] {
  const document = readJson(text);
  const collection = shape === 'parents' ? names.collectionName : names.childCollectionName;
  if (collection === undefined) throw bad('The body lists child rows, but this resource has no child rows');
  const quoted = JSON.stringify(collection);
  if (!isObject(document)) {
    throw bad(`The JSON body must be an object with the key ${quoted}; found ${describe(document)}`);
  }
  const keys = Object.keys(document);
  if (keys.length !== 1 || keys[0] !== collection) {
    const found = keys.length === 0 ? 'no keys' : keys.map((key) => JSON.stringify(key)).join(', ');
    throw bad(`The JSON body must have exactly one key, ${quoted}; found ${found}`);
  }
  const childCollection = shape === 'parents' ? names.childCollectionName : undefined;
  return rowObjects(document[collection], quoted).map(([row, where]) => toBodyRow(row, where, childCollection));
}

/**
 * Numbers arrive as LosslessNumber (their source text); a syntax error says where: line, column and position.
 * The parser recurses, so absurd nesting overflows the stack: that is the client's error too.
 */
function readJson(text: string): unknown {
  if (text.trim() === '') throw bad('The JSON body is empty');
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof RangeError) throw bad('The JSON body is nested too deeply');
    if (!(error instanceof SyntaxError)) throw error;
    const match = / at position (\d+)$/.exec(error.message);
    if (match === null) throw bad(`The JSON body is malformed: ${error.message}`);
    const position = Number(match[1]);
    const lines = text.slice(0, position).split('\n');
    const column = (lines[lines.length - 1] ?? '').length + 1;
    const reason = error.message.slice(0, match.index);
    throw bad(`The JSON body is malformed at line ${lines.length}, column ${column} (position ${position}): ${reason}`);
  }
}

/** `value` must be an array of objects; `where` names it in messages. Returns each row with its own `where`. */
function rowObjects(value: unknown, where: string): [JsonObject, string][] {
  if (!Array.isArray(value))
    throw bad(`In the JSON body, ${where} must be an array of row objects; found ${describe(value)}`);
  return value.map((row: unknown, index): [JsonObject, string] => {
    const rowWhere = `row ${index + 1} of ${where}`;
    if (!isObject(row)) throw bad(`In the JSON body, ${rowWhere} must be an object; found ${describe(row)}`);
    return [row, rowWhere];
  });
}

/** Only the child collection of a hierarchical parent may hold rows; every other property is a plain value. */
function toBodyRow(row: JsonObject, where: string, childCollection: string | undefined): BodyRow {
  const values: [string, RawValue][] = [];
  let children: BodyRow[] | undefined;
  for (const [name, value] of Object.entries(row)) {
    if (name === childCollection) {
      children = rowObjects(value, `${JSON.stringify(name)} in ${where}`).map(([child, childWhere]) =>
        toBodyRow(child, childWhere, undefined),
      );
    } else {
      values.push([name, toRawValue(value, `property ${JSON.stringify(name)} of ${where}`)]);
    }
  }
  const result = { values: Object.fromEntries(values) };
  return children === undefined ? result : { ...result, children };
}

/** A number keeps its exact digits as a string; the converter treats JSON strings and numbers alike (D13). */
function toRawValue(value: unknown, where: string): RawValue {
  if (isLosslessNumber(value)) return value.value;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  throw bad(`In the JSON body, ${where} must be a string, number, boolean or null; found ${describe(value)}`);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (isLosslessNumber(value)) return 'a number';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function bad(message: string): BadRequestError {
  return new BadRequestError('bad_body', message);
}
