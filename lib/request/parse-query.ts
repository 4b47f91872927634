/**
 * Parses a raw query string into classified filters and the `_limit`, `_offset`, `_output`, `_order`, `_after` specials by
 * the query grammar. Pure: no IO, no env. It knows nothing of resources, so it must not check field names or convert
 * values to field types; that is the planner's job.
 */
import { BadRequestError } from '../errors';
import type { OutputName } from '../values';
import { decodePairs } from './decode';
import type { OrderItem, ParsedQuery, RawFilter } from './resource-request';
import { unescapeLeading } from './unescape';

type Method = 'GET' | 'PUT' | 'DELETE';
type Special = '_limit' | '_offset' | '_output' | '_order' | '_after';
type MutableQuery = { -readonly [K in keyof ParsedQuery]: ParsedQuery[K] };

const SPECIALS: readonly string[] = ['_limit', '_offset', '_output', '_order', '_after'];
const OUTPUTS: Readonly<Record<string, OutputName>> = {
  'application/json': 'application/json',
  'application/xml': 'application/xml',
  'text/csv': 'text/csv',
  json: 'application/json',
  xml: 'application/xml',
  csv: 'text/csv',
};
/** Two-character operators come first so `<=5` is not read as `<` with operand `=5`. */
const COMPARISONS: readonly (readonly [string, 'le' | 'ge' | 'lt' | 'gt'])[] = [
  ['<=', 'le'],
  ['>=', 'ge'],
  ['<', 'lt'],
  ['>', 'gt'],
];

/** `raw` is the query string as it arrived: no leading `?`, still percent-encoded. */
export function parseQuery(raw: string, method: Method): ParsedQuery {
  const filters: RawFilter[] = [];
  const query: MutableQuery = { filters };
  const seen = new Set<string>();
  for (const [name, value] of decodePairs(raw)) {
    if (name === '') {
      throw new BadRequestError('bad_parameter', `A query parameter has an empty name (value "${value}")`);
    }
    const special = name.toLowerCase();
    if (SPECIALS.includes(special)) {
      applySpecial(query, special as Special, name, value, method, seen);
    } else {
      filters.push(classifyValue(name, value));
    }
  }
  checkRepeats(filters);
  if (query.after !== undefined && query.offset !== undefined) {
    throw new BadRequestError(
      'bad_parameter',
      'Parameters _after and _offset cannot be used together; give one of them',
    );
  }
  return query;
}

function applySpecial(
  query: MutableQuery,
  special: Special,
  name: string,
  value: string,
  method: Method,
  seen: Set<string>,
): void {
  if (seen.has(special)) {
    throw new BadRequestError('bad_parameter', `Parameter ${name} is repeated; it may be given at most once`);
  }
  seen.add(special);
  if (special === '_output') {
    query.output = parseOutput(name, value);
    return;
  }
  if (method !== 'GET') {
    throw new BadRequestError('bad_parameter', `Parameter ${name} is for GET only; it is not allowed on ${method}`);
  }
  if (special === '_order') query.order = parseOrder(name, value);
  else if (special === '_after') query.after = parseAfter(name, value);
  else if (special === '_limit') query.limit = parseCount(name, value);
  else query.offset = parseCount(name, value);
}

/** `title,-price`: labels separated by commas, each once, `-` before one whose rows go from its highest value. */
function parseOrder(name: string, value: string): OrderItem[] {
  const items = value.split(',').map((item) => ({ name: item.replace(/^-/, ''), descending: item.startsWith('-') }));
  const how = 'give field labels separated by commas, with - before a label to order from its highest value';
  for (const item of items) {
    if (item.name === '') throw new BadRequestError('bad_parameter', `Parameter ${name} has an empty item: ${how}`);
  }
  const repeated = items.find((item, i) => items.findIndex((other) => other.name === item.name) !== i);
  if (repeated) {
    throw new BadRequestError('bad_parameter', `Parameter ${name} names ${repeated.name} twice; ${how}, each once`);
  }
  return items;
}

/** The token is checked where the read is planned; here only that it is there. */
function parseAfter(name: string, value: string): string {
  if (value === '') {
    throw new BadRequestError(
      'bad_parameter',
      `Parameter ${name} is empty; give the token of a Link rel="next" as it is`,
    );
  }
  return value;
}

function parseOutput(name: string, value: string): OutputName {
  const output = OUTPUTS[value.toLowerCase()];
  if (output === undefined) {
    throw new BadRequestError(
      'bad_parameter',
      `Parameter ${name} must be application/json, application/xml, json or xml (or text/csv or csv, on a read of a flat resource), not "${value}"`,
    );
  }
  return output;
}

function parseCount(name: string, value: string): number {
  const count = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(count)) {
    throw new BadRequestError('bad_parameter', `Parameter ${name} must be a non-negative integer, not "${value}"`);
  }
  return count;
}

/** Classifies one decoded value by the query grammar's table; the first matching rule wins. */
function classifyValue(name: string, value: string): RawFilter {
  if (value === 'null') return { name, op: 'null' };
  if (value === '!null') return { name, op: 'notnull' };
  // Comparison operands are taken as they are: `!a%` is ne "a%", not a LIKE.
  if (value.startsWith('!')) return { name, op: 'ne', value: value.slice(1) };
  for (const [prefix, op] of COMPARISONS) {
    if (value.startsWith(prefix)) return { name, op, value: value.slice(prefix.length) };
  }
  if (value.length >= 2 && value.startsWith('(') && value.endsWith(')')) {
    return { name, op: 'in', values: splitInList(name, value.slice(1, -1)) };
  }
  // An escaped value takes no operator, but it is still a pattern when what remains has a wildcard: `\(%`.
  return equalsOrLike(name, unescapeLeading(value) ?? value);
}

/** The pattern keeps `\%` and `\_` as written: the SQL compiler declares `\` as the LIKE escape character. */
function equalsOrLike(name: string, value: string): RawFilter {
  return value.includes('%') ? { name, op: 'like', value } : { name, op: 'eq', value };
}

/** Splits an IN list on commas; `\,` is a literal comma and is the only escape. Items keep their spaces. */
function splitInList(name: string, list: string): string[] {
  if (list === '') {
    throw new BadRequestError('bad_parameter', `Parameter ${name} has an empty IN list (); give at least one item`);
  }
  const items: string[] = [];
  let item = '';
  for (let i = 0; i < list.length; i++) {
    const c = list.charAt(i);
    if (c === '\\' && list.charAt(i + 1) === ',') {
      item += ',';
      i++;
    } else if (c === ',') {
      items.push(item);
      item = '';
    } else {
      item += c;
    }
  }
  items.push(item);
  return items;
}

/** A field may repeat only as a range (one lower and one upper bound) or as several negations. */
function checkRepeats(filters: readonly RawFilter[]): void {
  const byName = new Map<string, RawFilter['op'][]>();
  for (const filter of filters) {
    byName.set(filter.name, [...(byName.get(filter.name) ?? []), filter.op]);
  }
  for (const [name, ops] of byName) {
    if (ops.length < 2 || ops.every((op) => op === 'ne' || op === 'notnull') || isRange(ops)) continue;
    throw new BadRequestError(
      'bad_parameter',
      `Parameter ${name} is repeated; a field may repeat only as a range (one of > >= and one of < <=) or as several negations (!value, !null)`,
    );
  }
}

function isRange(ops: readonly RawFilter['op'][]): boolean {
  const lower = ops.filter((op) => op === 'gt' || op === 'ge').length;
  const upper = ops.filter((op) => op === 'lt' || op === 'le').length;
  return ops.length === 2 && lower === 1 && upper === 1;
}
