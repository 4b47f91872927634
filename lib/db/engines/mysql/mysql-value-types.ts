/**
 * MySQL's and MariaDB's types as the service's ValueType (from information_schema, or from the protocol's type
 * codes for computed columns), and the limits of what a column of a type holds (by its column_type). Pure.
 */
import type { ValueLimits, ValueType } from '../../../resource';
import { decimalDigits, integerRange, type LimitsOf, limitsFrom } from '../value-limits';

/** From information_schema.columns: data_type (e.g. `tinyint`) and column_type (e.g. `tinyint(1) unsigned`). */
export function mysqlValueType(dataType: string, columnType: string): ValueType {
  const data = dataType.toLowerCase();
  if (data === 'tinyint' && /^tinyint\(1\)/i.test(columnType)) return 'boolean';
  if (['tinyint', 'smallint', 'mediumint', 'int', 'integer', 'bigint', 'year'].includes(data)) return 'integer';
  if (data === 'decimal' || data === 'numeric') return 'decimal';
  if (data === 'float' || data === 'double' || data === 'real') return 'float';
  if (data === 'date') return 'date';
  if (data === 'time') return 'time';
  if (data === 'datetime' || data === 'timestamp') return 'timestamp';
  if (/binary|blob/.test(data)) return 'binary';
  return 'string';
}

/** MySQL protocol column type codes, for computed columns that have no catalog entry. */
const mysqlTypeCodes: Record<number, [ValueType, string]> = {
  0: ['decimal', 'decimal'],
  1: ['integer', 'tinyint'],
  2: ['integer', 'smallint'],
  3: ['integer', 'int'],
  4: ['float', 'float'],
  5: ['float', 'double'],
  7: ['timestamp', 'timestamp'],
  8: ['integer', 'bigint'],
  9: ['integer', 'mediumint'],
  10: ['date', 'date'],
  11: ['time', 'time'],
  12: ['timestamp', 'datetime'],
  13: ['integer', 'year'],
  246: ['decimal', 'decimal'],
};

/** charset 63 is `binary`: blobs and binary strings. */
export function mysqlProtocolType(code: number, charset: number): [ValueType, string] {
  const known = mysqlTypeCodes[code];
  if (known) return known;
  if (charset === 63 && code >= 249 && code <= 254) return ['binary', 'binary'];
  return ['string', code === 245 ? 'json' : 'varchar'];
}

const mysqlIntegerBits: Record<string, number> = {
  tinyint: 8,
  smallint: 16,
  mediumint: 24,
  int: 32,
  integer: 32,
  bigint: 64,
};

const textBytes: Record<string, number> = { tiny: 255, '': 65535, medium: 16777215, long: 4294967295 };

/**
 * What TIMESTAMP holds: seconds since 1970 in 32 bits. Values are written in the session's time zone, and these
 * are its bounds in UTC, the time zone of RDS and of a server set up as the README says.
 */
const mysqlTimestampRange = { earliest: '1970-01-01 00:00:01', latest: '2038-01-19 03:14:07.999999' };

const unsignedMin = (m: RegExpMatchArray, at: number): ValueLimits => (m[at] ? { min: '0' } : {});

/** information_schema.columns.column_type, e.g. `int(10) unsigned`, `decimal(8,2)`, `datetime(3)`. */
const mysqlTypes: readonly [RegExp, LimitsOf][] = [
  [
    /^(tinyint|smallint|mediumint|int|integer|bigint)(?:\(\d+\))?( unsigned)?(?: zerofill)?$/,
    (m) => integerRange(mysqlIntegerBits[m[1] as string] as number, m[2] !== undefined),
  ],
  // YEAR also takes 0 and two-digit years, which it turns into other years
  [/^year(?:\(\d\))?$/, () => ({ min: '1901', max: '2155' })],
  [
    /^(?:decimal|numeric)\((\d+),(\d+)\)( unsigned)?(?: zerofill)?$/,
    (m) => ({ ...decimalDigits(Number(m[1]), Number(m[2])), ...unsignedMin(m, 3) }),
  ],
  // float(M,D) and double(M,D) round to D digits after the point
  [
    /^(float|double|real)(?:\((\d+),(\d+)\))?( unsigned)?(?: zerofill)?$/,
    (m) => ({
      float: m[1] === 'float' ? 'single' : 'double',
      ...(m[2] !== undefined ? decimalDigits(Number(m[2]), Number(m[3])) : {}),
      ...unsignedMin(m, 4),
    }),
  ],
  [/^(?:var)?char\((\d+)\)$/, (m) => ({ maxLength: Number(m[1]) })],
  [/^(tiny|medium|long|)(?:text|blob)$/, (m) => ({ maxBytes: textBytes[m[1] as string] as number })],
  [/^(?:var)?binary\((\d+)\)$/, (m) => ({ maxBytes: Number(m[1]) })],
  [/^(?:datetime|time)(?:\((\d)\))?$/, (m) => ({ fractionDigits: Number(m[1] ?? 0) })],
  [/^timestamp(?:\((\d)\))?$/, (m) => ({ fractionDigits: Number(m[1] ?? 0), ...mysqlTimestampRange })],
];

/** tinyint(1) is a boolean: true and false need no limits. */
export function mysqlLimits(type: ValueType, columnType: string): ValueLimits | undefined {
  return type === 'boolean' ? undefined : limitsFrom(mysqlTypes, columnType.toLowerCase());
}
