/**
 * PostgreSQL's types as the service's ValueType (by type oid, as a RowDescription gives it), and the limits of
 * what a column of a type holds (by its format_type name). Pure.
 */
import type { ValueLimits, ValueType } from '../../../resource';
import { decimalDigits, integerRange, type LimitsOf, limitsFrom } from '../value-limits';

const postgresOids: Record<number, ValueType> = {
  20: 'integer', // int8
  21: 'integer', // int2
  23: 'integer', // int4
  26: 'integer', // oid
  1700: 'decimal', // numeric
  700: 'float', // float4
  701: 'float', // float8
  16: 'boolean',
  1082: 'date',
  1083: 'time',
  1266: 'time', // timetz
  1114: 'timestamp',
  1184: 'timestamp', // timestamptz
  17: 'binary', // bytea
};

export function postgresValueType(oid: number): ValueType {
  return postgresOids[oid] ?? 'string';
}

/** PostgreSQL's numeric without a precision: 131072 digits before the decimal point and 16383 after. */
const unconstrainedNumeric: ValueLimits = { digitsBefore: 131072, digitsAfter: 16383 };

/** format_type names (of the column's type, or of a domain's base type); anchored, so arrays match none. */
const postgresTypes: readonly [RegExp, LimitsOf][] = [
  [/^smallint$/, () => integerRange(16, false)],
  [/^integer$/, () => integerRange(32, false)],
  [/^bigint$/, () => integerRange(64, false)],
  [/^oid$/, () => integerRange(32, true)],
  [/^numeric\((\d+),(-?\d+)\)$/, (m) => decimalDigits(Number(m[1]), Number(m[2]))],
  [/^numeric$/, () => unconstrainedNumeric],
  [/^real$/, () => ({ float: 'single' })],
  [/^double precision$/, () => ({ float: 'double' })],
  [/^(?:character varying|character)\((\d+)\)$/, (m) => ({ maxLength: Number(m[1]) })],
  // the one-byte internal type keeps only the first byte of what it is given
  [/^"char"$/, () => ({ maxBytes: 1 })],
  [/^(?:time|timestamp)(?:\((\d)\))? with(?:out)? time zone$/, (m) => ({ fractionDigits: Number(m[1] ?? 6) })],
];

export function postgresLimits(typeName: string): ValueLimits | undefined {
  return limitsFrom(postgresTypes, typeName);
}
