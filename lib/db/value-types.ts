/**
 * Maps database type names/ids to the service's ValueType. Pure.
 */
import type { ValueType } from '../resource';

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
