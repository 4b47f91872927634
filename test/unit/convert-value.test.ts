/**
 * Table tests of value conversion (D6, D9): every ValueType, accepted and rejected inputs, per dialect. Pure.
 */
import type { Param } from '../../lib/db/types';
import { convertValue } from '../../lib/plan/convert-value';
import type { RawValue } from '../../lib/request/types';
import type { ValueType } from '../../lib/resource';
import { dialects, field, serviceErrorOf } from './fixtures';

const labels: Record<ValueType, string> = {
  integer: 'id',
  decimal: 'price',
  float: 'ratio',
  boolean: 'active',
  date: 'published',
  time: 'opens',
  timestamp: 'updated',
  binary: 'photo',
  string: 'title',
};

const fieldOf = (type: ValueType) => field(labels[type], type, 'item', labels[type]);

const accepted: { type: ValueType; raw: RawValue; postgres: Param; mysql: Param }[] = [
  // integer: PostgreSQL takes the text, MySQL a BigInt that keeps every digit
  { type: 'integer', raw: '42', postgres: '42', mysql: 42n },
  { type: 'integer', raw: ' 42 ', postgres: '42', mysql: 42n },
  { type: 'integer', raw: '+7', postgres: '7', mysql: 7n },
  { type: 'integer', raw: '-3', postgres: '-3', mysql: -3n },
  { type: 'integer', raw: '0', postgres: '0', mysql: 0n },
  { type: 'integer', raw: '007', postgres: '007', mysql: 7n },
  { type: 'integer', raw: 42, postgres: '42', mysql: 42n },
  { type: 'integer', raw: '12345678901234567890', postgres: '12345678901234567890', mysql: 12345678901234567890n },
  // decimal and float: the text as given, without a leading plus
  { type: 'decimal', raw: '20.99', postgres: '20.99', mysql: '20.99' },
  { type: 'decimal', raw: '0.00', postgres: '0.00', mysql: '0.00' },
  { type: 'decimal', raw: '+1.5', postgres: '1.5', mysql: '1.5' },
  { type: 'decimal', raw: '-0.5', postgres: '-0.5', mysql: '-0.5' },
  { type: 'decimal', raw: '.5', postgres: '.5', mysql: '.5' },
  { type: 'decimal', raw: '5.', postgres: '5.', mysql: '5.' },
  { type: 'decimal', raw: ' 12 ', postgres: '12', mysql: '12' },
  {
    type: 'decimal',
    raw: '123456789012345678.123456789',
    postgres: '123456789012345678.123456789',
    mysql: '123456789012345678.123456789',
  },
  { type: 'decimal', raw: 20.5, postgres: '20.5', mysql: '20.5' },
  { type: 'float', raw: '1e3', postgres: '1e3', mysql: '1e3' },
  { type: 'float', raw: '-2.5E-3', postgres: '-2.5E-3', mysql: '-2.5E-3' },
  { type: 'float', raw: 0.25, postgres: '0.25', mysql: '0.25' },
  // boolean: PostgreSQL booleans, MySQL 1/0 (tinyint(1))
  { type: 'boolean', raw: 'true', postgres: true, mysql: 1 },
  { type: 'boolean', raw: 'false', postgres: false, mysql: 0 },
  { type: 'boolean', raw: 'TRUE', postgres: true, mysql: 1 },
  { type: 'boolean', raw: ' False ', postgres: false, mysql: 0 },
  { type: 'boolean', raw: '1', postgres: true, mysql: 1 },
  { type: 'boolean', raw: '0', postgres: false, mysql: 0 },
  { type: 'boolean', raw: true, postgres: true, mysql: 1 },
  { type: 'boolean', raw: false, postgres: false, mysql: 0 },
  { type: 'boolean', raw: 1, postgres: true, mysql: 1 },
  { type: 'boolean', raw: 0, postgres: false, mysql: 0 },
  // date: YYYY-MM-DD of a day that exists
  { type: 'date', raw: '2023-02-28', postgres: '2023-02-28', mysql: '2023-02-28' },
  { type: 'date', raw: '2024-02-29', postgres: '2024-02-29', mysql: '2024-02-29' },
  { type: 'date', raw: '2000-02-29', postgres: '2000-02-29', mysql: '2000-02-29' },
  { type: 'date', raw: '1999-12-31', postgres: '1999-12-31', mysql: '1999-12-31' },
  { type: 'date', raw: '0099-01-01', postgres: '0099-01-01', mysql: '0099-01-01' },
  { type: 'date', raw: '0001-01-01', postgres: '0001-01-01', mysql: '0001-01-01' },
  // time: HH:MM[:SS[.ffffff]]
  { type: 'time', raw: '10:30', postgres: '10:30', mysql: '10:30' },
  { type: 'time', raw: '00:00:00', postgres: '00:00:00', mysql: '00:00:00' },
  { type: 'time', raw: '23:59:59.123456', postgres: '23:59:59.123456', mysql: '23:59:59.123456' },
  { type: 'time', raw: '24:00:00', postgres: '24:00:00', mysql: '24:00:00' },
  // timestamp: space or T, optional zone; MySQL gets a space instead of the T
  { type: 'timestamp', raw: '2023-05-01 10:30:00', postgres: '2023-05-01 10:30:00', mysql: '2023-05-01 10:30:00' },
  { type: 'timestamp', raw: '2023-05-01', postgres: '2023-05-01', mysql: '2023-05-01' },
  { type: 'timestamp', raw: '2023-05-01 10:30', postgres: '2023-05-01 10:30', mysql: '2023-05-01 10:30' },
  { type: 'timestamp', raw: '2023-05-01T10:30:00', postgres: '2023-05-01T10:30:00', mysql: '2023-05-01 10:30:00' },
  {
    type: 'timestamp',
    raw: '2023-05-01T10:30:00.5+02:00',
    postgres: '2023-05-01T10:30:00.5+02:00',
    mysql: '2023-05-01 10:30:00.5+02:00',
  },
  { type: 'timestamp', raw: '2023-05-01T10:30:00Z', postgres: '2023-05-01T10:30:00Z', mysql: '2023-05-01 10:30:00Z' },
  {
    type: 'timestamp',
    raw: '2023-05-01 10:30-0500',
    postgres: '2023-05-01 10:30-0500',
    mysql: '2023-05-01 10:30-0500',
  },
  {
    type: 'timestamp',
    raw: '2024-02-29 23:59:59.999999',
    postgres: '2024-02-29 23:59:59.999999',
    mysql: '2024-02-29 23:59:59.999999',
  },
  // binary: base64 text becomes bytes
  { type: 'binary', raw: 'aGVsbG8=', postgres: Buffer.from('hello'), mysql: Buffer.from('hello') },
  { type: 'binary', raw: 'AP8=', postgres: Buffer.from([0, 255]), mysql: Buffer.from([0, 255]) },
  { type: 'binary', raw: 'AAAA', postgres: Buffer.from([0, 0, 0]), mysql: Buffer.from([0, 0, 0]) },
  { type: 'binary', raw: '', postgres: Buffer.alloc(0), mysql: Buffer.alloc(0) },
  // string: the text as it is; JSON numbers and booleans as their text
  { type: 'string', raw: 'Dune', postgres: 'Dune', mysql: 'Dune' },
  { type: 'string', raw: ' padded ', postgres: ' padded ', mysql: ' padded ' },
  { type: 'string', raw: '', postgres: '', mysql: '' },
  { type: 'string', raw: "47 or 1=1'--", postgres: "47 or 1=1'--", mysql: "47 or 1=1'--" },
  { type: 'string', raw: 42, postgres: '42', mysql: '42' },
  { type: 'string', raw: true, postgres: 'true', mysql: 'true' },
];

const types = Object.keys(labels) as ValueType[];

const rejected: { type: ValueType; raw: RawValue; message: string }[] = [
  { type: 'integer', raw: '47 or 1=1', message: 'Could not convert id value 47 or 1=1 to number' },
  { type: 'integer', raw: '4.5', message: 'Could not convert id value 4.5 to number' },
  { type: 'integer', raw: '1e3', message: 'Could not convert id value 1e3 to number' },
  { type: 'integer', raw: '', message: 'Could not convert id value  to number' },
  { type: 'integer', raw: 'abc', message: 'Could not convert id value abc to number' },
  { type: 'integer', raw: '0x10', message: 'Could not convert id value 0x10 to number' },
  { type: 'integer', raw: '1 2', message: 'Could not convert id value 1 2 to number' },
  { type: 'integer', raw: 4.5, message: 'Could not convert id value 4.5 to number' },
  { type: 'integer', raw: true, message: 'Could not convert id value true to number' },
  { type: 'decimal', raw: 'abc', message: 'Could not convert price value abc to number' },
  { type: 'decimal', raw: '1.2.3', message: 'Could not convert price value 1.2.3 to number' },
  { type: 'decimal', raw: '1,5', message: 'Could not convert price value 1,5 to number' },
  { type: 'decimal', raw: '', message: 'Could not convert price value  to number' },
  { type: 'decimal', raw: '.', message: 'Could not convert price value . to number' },
  { type: 'decimal', raw: 'NaN', message: 'Could not convert price value NaN to number' },
  { type: 'decimal', raw: false, message: 'Could not convert price value false to number' },
  { type: 'float', raw: 'Infinity', message: 'Could not convert ratio value Infinity to number' },
  { type: 'float', raw: '1e', message: 'Could not convert ratio value 1e to number' },
  { type: 'boolean', raw: 'yes', message: 'Could not convert active value yes to boolean (true, false, 1, 0)' },
  { type: 'boolean', raw: '2', message: 'Could not convert active value 2 to boolean (true, false, 1, 0)' },
  { type: 'boolean', raw: '', message: 'Could not convert active value  to boolean (true, false, 1, 0)' },
  { type: 'boolean', raw: 't', message: 'Could not convert active value t to boolean (true, false, 1, 0)' },
  { type: 'boolean', raw: 2, message: 'Could not convert active value 2 to boolean (true, false, 1, 0)' },
  { type: 'time', raw: '24:30', message: 'Could not convert opens value 24:30 to time (HH:MM[:SS[.ffffff]])' },
  { type: 'time', raw: '24:00:01', message: 'Could not convert opens value 24:00:01 to time (HH:MM[:SS[.ffffff]])' },
  { type: 'date', raw: '2023-02-30', message: 'Could not convert published value 2023-02-30 to date (YYYY-MM-DD)' },
  { type: 'date', raw: '2023-02-29', message: 'Could not convert published value 2023-02-29 to date (YYYY-MM-DD)' },
  { type: 'date', raw: '2023-04-31', message: 'Could not convert published value 2023-04-31 to date (YYYY-MM-DD)' },
  { type: 'date', raw: '2023-13-01', message: 'Could not convert published value 2023-13-01 to date (YYYY-MM-DD)' },
  { type: 'date', raw: '2023-00-10', message: 'Could not convert published value 2023-00-10 to date (YYYY-MM-DD)' },
  { type: 'date', raw: '2023-01-00', message: 'Could not convert published value 2023-01-00 to date (YYYY-MM-DD)' },
  { type: 'date', raw: '2023-1-01', message: 'Could not convert published value 2023-1-01 to date (YYYY-MM-DD)' },
  {
    type: 'date',
    raw: '2023-01-01 10:00',
    message: 'Could not convert published value 2023-01-01 10:00 to date (YYYY-MM-DD)',
  },
  { type: 'date', raw: '01/02/2023', message: 'Could not convert published value 01/02/2023 to date (YYYY-MM-DD)' },
  { type: 'time', raw: '25:00', message: 'Could not convert opens value 25:00 to time (HH:MM[:SS[.ffffff]])' },
  { type: 'time', raw: '10:60', message: 'Could not convert opens value 10:60 to time (HH:MM[:SS[.ffffff]])' },
  { type: 'time', raw: '10:30:60', message: 'Could not convert opens value 10:30:60 to time (HH:MM[:SS[.ffffff]])' },
  {
    type: 'time',
    raw: '10:30:15.1234567',
    message: 'Could not convert opens value 10:30:15.1234567 to time (HH:MM[:SS[.ffffff]])',
  },
  { type: 'time', raw: '1030', message: 'Could not convert opens value 1030 to time (HH:MM[:SS[.ffffff]])' },
  { type: 'time', raw: '9:30', message: 'Could not convert opens value 9:30 to time (HH:MM[:SS[.ffffff]])' },
  {
    type: 'timestamp',
    raw: '2023-02-30 10:00:00',
    message: 'Could not convert updated value 2023-02-30 10:00:00 to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]])',
  },
  {
    type: 'timestamp',
    raw: '2023-05-01T',
    message: 'Could not convert updated value 2023-05-01T to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]])',
  },
  {
    type: 'timestamp',
    raw: '2023-05-01X10:30',
    message: 'Could not convert updated value 2023-05-01X10:30 to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]])',
  },
  {
    type: 'timestamp',
    raw: '2023-05-01 10:30:00 UTC',
    message: 'Could not convert updated value 2023-05-01 10:30:00 UTC to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]])',
  },
  {
    type: 'timestamp',
    raw: '2023-05-01 25:00',
    message: 'Could not convert updated value 2023-05-01 25:00 to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]])',
  },
  { type: 'binary', raw: 'aGVsbG8', message: 'Could not convert photo value aGVsbG8 to base64 binary' },
  { type: 'binary', raw: 'a$b=', message: 'Could not convert photo value a$b= to base64 binary' },
  { type: 'binary', raw: 'aGVs bG8=', message: 'Could not convert photo value aGVs bG8= to base64 binary' },
  { type: 'binary', raw: '====', message: 'Could not convert photo value ==== to base64 binary' },
  { type: 'binary', raw: 1234, message: 'Could not convert photo value 1234 to base64 binary' },
  { type: 'binary', raw: true, message: 'Could not convert photo value true to base64 binary' },
];

describe('convertValue', () => {
  describe.each(dialects)('%s', (dialect) => {
    it.each(accepted)(`$type $raw converts`, ({ type, raw, ...expected }) => {
      expect(convertValue(fieldOf(type), raw, dialect)).toEqual(expected[dialect]);
    });

    it.each(types)('%s: null passes through as NULL', (type) => {
      expect(convertValue(fieldOf(type), null, dialect)).toBeNull();
    });

    it.each(rejected)('$type $raw is a 400', ({ type, raw, message }) => {
      expect(serviceErrorOf(() => convertValue(fieldOf(type), raw, dialect))).toEqual({
        name: 'BadRequestError',
        status: 400,
        code: 'bad_value',
        message,
      });
    });
  });

  it.each([
    ['integer', 'postgres', 'string'],
    ['integer', 'mysql', 'bigint'],
    ['boolean', 'postgres', 'boolean'],
    ['boolean', 'mysql', 'number'],
    ['binary', 'postgres', 'object'],
  ] as const)('%s on %s is bound as a %s', (type, dialect, jsType) => {
    const raw = type === 'binary' ? 'AA==' : '1';
    expect(typeof convertValue(fieldOf(type), raw, dialect)).toBe(jsType);
  });
});
