/**
 * A tool call's typed arguments written in the service's query grammar, so that the call goes through the same
 * parser, planner and checks as a request to /res: `where` conditions become filters, `order`, `limit` and `offset`
 * the special parameters, and an update's `set` a form body. Values are escaped so that each is taken literally
 * (an equality on a text with `%` stays an equality). Pure; must not check field names or types: the pipeline
 * does, and names what is wrong.
 */
import { escapeLeading } from '../request/unescape';

/** A value a tool argument may give for a field. */
export type ToolValue = string | number | boolean | null;

/** One field's condition: a value (equals; null: is NULL), or an object of operators, all of which must hold. */
export type Condition =
  | ToolValue
  | {
      readonly eq?: ToolValue;
      readonly ne?: ToolValue | readonly ToolValue[];
      readonly lt?: ToolValue;
      readonly le?: ToolValue;
      readonly gt?: ToolValue;
      readonly ge?: ToolValue;
      readonly like?: string;
      readonly in?: readonly ToolValue[];
      readonly isNull?: boolean;
    };

export type Where = Readonly<Record<string, Condition>>;

const comparisons = { lt: '<', le: '<=', gt: '>', ge: '>=' } as const;

const text = (value: ToolValue): string => (value === null ? 'null' : String(value));

/** An exact equality: with a `%` the grammar reads a pattern, so the pattern then matches the value alone. */
function equalsValue(value: ToolValue): string {
  if (value === null) return 'null';
  const literal = String(value);
  if (!literal.includes('%')) return escapeLeading(literal);
  return escapeLeading(literal.replace(/[\\%_]/g, (c) => `\\${c}`));
}

type Operators = Exclude<Condition, ToolValue>;

/** Each operator's values in the grammar's words, in the order they are written. */
const operatorValues: readonly ((c: Operators) => string[])[] = [
  (c) => (c.eq === undefined ? [] : [equalsValue(c.eq)]),
  (c) =>
    c.ne === undefined ? [] : ([] as ToolValue[]).concat(c.ne).map((v) => (v === null ? '!null' : `!${text(v)}`)),
  (c) =>
    (['lt', 'le', 'gt', 'ge'] as const).flatMap((op) =>
      c[op] === undefined ? [] : [`${comparisons[op]}${text(c[op])}`],
    ),
  (c) => (c.like === undefined ? [] : [escapeLeading(c.like)]),
  (c) => (c.in === undefined ? [] : [`(${c.in.map((v) => text(v).replace(/,/g, '\\,')).join(',')})`]),
  (c) => (c.isNull === undefined ? [] : [c.isNull ? 'null' : '!null']),
];

/** The query pairs of one field's condition. */
function conditionPairs(name: string, condition: Condition): [string, string][] {
  if (condition === null || typeof condition !== 'object') return [[name, equalsValue(condition)]];
  return operatorValues.flatMap((values) => values(condition)).map((value): [string, string] => [name, value]);
}

export interface ReadArguments {
  readonly where?: Where;
  readonly order?: readonly string[];
  readonly limit?: number;
  readonly offset?: number;
}

const encode = (pairs: readonly [string, string][]): string =>
  pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');

/** The raw query string of a read, or of a write by query (`where` only). */
export function queryOf(args: ReadArguments): string {
  const pairs = Object.entries(args.where ?? {}).flatMap(([name, condition]) => conditionPairs(name, condition));
  if (args.order !== undefined && args.order.length > 0) pairs.push(['_order', args.order.join(',')]);
  if (args.limit !== undefined) pairs.push(['_limit', String(args.limit)]);
  if (args.offset !== undefined) pairs.push(['_offset', String(args.offset)]);
  return encode(pairs);
}

/** An update's new values as a form body: each taken literally, null setting NULL. */
export function formOf(set: Readonly<Record<string, ToolValue>>): string {
  return encode(
    Object.entries(set).map(([name, value]) => [name, value === null ? 'null' : escapeLeading(String(value))]),
  );
}
