/**
 * One example value per field for the OpenAPI document, in the service's own spelling, that the service would
 * take in a write: a made-up value of the field's type, or, when the column's limits or a validatedAttribute rule
 * refuse it, a shorter one, a bound of the rule, or the shortest text the rule's regex matches (randexp). A field
 * that no candidate fits has no example. Pure and deterministic: the same definition gives the same document.
 */
import RandExp from 'randexp';
import { ServiceError } from '../errors';
import { convertValue } from '../plan/convert-value';
import { validateValue } from '../plan/validate-value';
import type { Field, SqlResource, ValidationRule, ValueType } from '../resource';

export type ExampleValue = string | number | boolean;

/** The first choice per type; the others when it is refused. */
const byType: Readonly<Record<ValueType, readonly ExampleValue[]>> = {
  integer: [1, 0],
  decimal: [9.99, 1, 0],
  float: [0.5, 0],
  boolean: [true],
  date: ['2024-01-31'],
  time: ['12:30:00'],
  timestamp: ['2024-01-31 12:30:00'],
  binary: ['AP8Q'],
  string: ['text'],
};

/** The ASCII letters and digits: a regex's `\S` or `.` is shown as `0`, not as `!` or a space. */
const alphanumeric: readonly (readonly [number, number])[] = [
  [48, 57],
  [65, 90],
  [97, 122],
];

/**
 * The shortest text `regex` matches, choosing the first character of every class: letters and digits first
 * (`[0-9]{3}` gives `000`, `https?://\S+` gives `http://0`), any printable character if that fails. randexp
 * knows less of JavaScript's regex syntax than the service (lookbehind, `\p{...}`, named groups): it may throw, or
 * give text the regex does not match, which `accepted` then refuses; either way that regex gives no example.
 */
function shortestMatches(regex: string): string[] {
  try {
    return [generated(regex, true), generated(regex, false)];
  } catch {
    return [];
  }
}

function generated(regex: string, letters: boolean): string {
  const generator = new RandExp(`^(?:${regex})$`, 'u');
  generator.randInt = (from: number) => from;
  if (letters) {
    generator.defaultRange.subtract(32, 126);
    for (const [from, to] of alphanumeric) generator.defaultRange.add(from, to);
  }
  return generator.gen();
}

/** Candidates that fit the column and the rules: text cut or padded to length, numbers at a bound, regex matches. */
function fitted(field: Field, rules: readonly ValidationRule[]): ExampleValue[] {
  const text = String(byType[field.type][0]);
  const maxLength = Math.min(field.limits?.maxLength ?? Infinity, ...rules.map((r) => r.maxLength ?? Infinity));
  const minLength = Math.max(0, ...rules.map((r) => r.minLength ?? 0));
  return [
    ...(Number.isFinite(maxLength) ? [text.slice(0, maxLength)] : []),
    ...(minLength > text.length ? [text.padEnd(minLength, text)] : []),
    ...rules.flatMap((rule): ExampleValue[] => [
      ...[rule.minValue, rule.maxValue].filter((n): n is number => n !== undefined),
      ...(rule.regex === undefined ? [] : shortestMatches(rule.regex)),
    ]),
  ];
}

/** Whether the service takes `value` for the field: it converts within the column's limits and obeys every rule. */
function accepted(field: Field, rules: readonly ValidationRule[], value: ExampleValue): boolean {
  try {
    convertValue(field, value);
    for (const rule of rules) validateValue(rule, value);
    return true;
  } catch (error) {
    if (error instanceof ServiceError) return false;
    throw error;
  }
}

export function exampleValue(resource: SqlResource, field: Field): ExampleValue | undefined {
  const rules = resource.validations.filter((r) => r.name === field.label);
  return [...byType[field.type], ...fitted(field, rules)].find((value) => accepted(field, rules, value));
}
