/**
 * Table tests of value conversion: every ValueType, accepted and rejected inputs, for fields whose column sets
 * no limit (the column limits are value-limits.test.ts's); the same for every database.
 */
import { convertListItem, convertValue } from '../../lib/plan/convert-value';
import type { RawValue } from '../../lib/request/resource-request';
import type { ValueType } from '../../lib/resource';
import type { Value } from '../../lib/values';
import { field, serviceErrorOf } from '../support/resources';

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

const accepted: { type: ValueType; raw: RawValue; value: Value }[] = [
  // integer: a bigint that keeps every digit
  { type: 'integer', raw: '42', value: 42n },
  { type: 'integer', raw: ' 42 ', value: 42n },
  { type: 'integer', raw: '+7', value: 7n },
  { type: 'integer', raw: '-3', value: -3n },
  { type: 'integer', raw: '0', value: 0n },
  { type: 'integer', raw: '007', value: 7n },
  { type: 'integer', raw: 42, value: 42n },
  { type: 'integer', raw: '12345678901234567890', value: 12345678901234567890n },
  // decimal: plain digits, exactly the value written, with the digits after the point as written
  { type: 'decimal', raw: '20.99', value: '20.99' },
  { type: 'decimal', raw: '0.00', value: '0.00' },
  { type: 'decimal', raw: '+1.5', value: '1.5' },
  { type: 'decimal', raw: '-0.5', value: '-0.5' },
  { type: 'decimal', raw: '-0.00', value: '0.00' },
  { type: 'decimal', raw: '.5', value: '0.5' },
  { type: 'decimal', raw: '5.', value: '5' },
  { type: 'decimal', raw: '007.50', value: '7.50' },
  { type: 'decimal', raw: ' 12 ', value: '12' },
  { type: 'decimal', raw: '123456789012345678.123456789', value: '123456789012345678.123456789' },
  { type: 'decimal', raw: 20.5, value: '20.5' },
  { type: 'decimal', raw: '1.5e2', value: '150' },
  { type: 'decimal', raw: '1.50E1', value: '15.0' },
  { type: 'decimal', raw: '-25e-3', value: '-0.025' },
  { type: 'decimal', raw: '1e-7', value: '0.0000001' },
  { type: 'decimal', raw: 1e-7, value: '0.0000001' },
  { type: 'decimal', raw: '0e-3', value: '0.000' },
  { type: 'decimal', raw: '0e99999999999999999999', value: '0' },
  // float: the text as given, without a leading plus; each database reads it into the same binary float
  { type: 'float', raw: '1e3', value: '1e3' },
  { type: 'float', raw: '-2.5E-3', value: '-2.5E-3' },
  { type: 'float', raw: 0.25, value: '0.25' },
  // boolean: true or false
  { type: 'boolean', raw: 'true', value: true },
  { type: 'boolean', raw: 'false', value: false },
  { type: 'boolean', raw: 'TRUE', value: true },
  { type: 'boolean', raw: ' False ', value: false },
  { type: 'boolean', raw: '1', value: true },
  { type: 'boolean', raw: '0', value: false },
  { type: 'boolean', raw: true, value: true },
  { type: 'boolean', raw: false, value: false },
  { type: 'boolean', raw: 1, value: true },
  { type: 'boolean', raw: 0, value: false },
  // date: YYYY-MM-DD of a day that exists
  { type: 'date', raw: '2023-02-28', value: '2023-02-28' },
  { type: 'date', raw: '2024-02-29', value: '2024-02-29' },
  { type: 'date', raw: '2000-02-29', value: '2000-02-29' },
  { type: 'date', raw: '1999-12-31', value: '1999-12-31' },
  { type: 'date', raw: '0099-01-01', value: '0099-01-01' },
  { type: 'date', raw: '0001-01-01', value: '0001-01-01' },
  // time: HH:MM[:SS[.ffffff]]
  { type: 'time', raw: '10:30', value: '10:30' },
  { type: 'time', raw: '00:00:00', value: '00:00:00' },
  { type: 'time', raw: '23:59:59.123456', value: '23:59:59.123456' },
  { type: 'time', raw: '24:00:00', value: '24:00:00' },
  { type: 'time', raw: '24:00', value: '24:00' },
  { type: 'time', raw: '24:00:00.000000', value: '24:00:00.000000' },
  // timestamp: space or T, never a time zone; always written with a space
  { type: 'timestamp', raw: '2023-05-01 10:30:00', value: '2023-05-01 10:30:00' },
  { type: 'timestamp', raw: '2023-05-01', value: '2023-05-01' },
  { type: 'timestamp', raw: '2023-05-01 10:30', value: '2023-05-01 10:30' },
  { type: 'timestamp', raw: '2023-05-01T10:30:00', value: '2023-05-01 10:30:00' },
  { type: 'timestamp', raw: '2024-02-29 23:59:59.999999', value: '2024-02-29 23:59:59.999999' },
  { type: 'timestamp', raw: '0001-01-01 00:00', value: '0001-01-01 00:00' },
  { type: 'timestamp', raw: '9999-12-31T23:59:59.999999', value: '9999-12-31 23:59:59.999999' },
  // binary: base64 text becomes bytes
  { type: 'binary', raw: 'aGVsbG8=', value: Buffer.from('hello') },
  { type: 'binary', raw: 'AP8=', value: Buffer.from([0, 255]) },
  { type: 'binary', raw: 'AAAA', value: Buffer.from([0, 0, 0]) },
  { type: 'binary', raw: '', value: Buffer.alloc(0) },
  // string: the text as it is; JSON numbers and booleans as their text
  { type: 'string', raw: 'Dune', value: 'Dune' },
  { type: 'string', raw: ' padded ', value: ' padded ' },
  { type: 'string', raw: '', value: '' },
  { type: 'string', raw: "47 or 1=1'--", value: "47 or 1=1'--" },
  { type: 'string', raw: 42, value: '42' },
  { type: 'string', raw: true, value: 'true' },
];

const types = Object.keys(labels) as ValueType[];

const rejected: { type: ValueType; raw: RawValue; message: string }[] = [
  { type: 'integer', raw: '47 or 1=1', message: 'Could not convert id value "47 or 1=1" to number' },
  { type: 'integer', raw: '4.5', message: 'Could not convert id value "4.5" to number' },
  { type: 'integer', raw: '1e3', message: 'Could not convert id value "1e3" to number' },
  { type: 'integer', raw: '', message: 'Could not convert id value "" to number' },
  { type: 'integer', raw: 'abc', message: 'Could not convert id value "abc" to number' },
  { type: 'integer', raw: '0x10', message: 'Could not convert id value "0x10" to number' },
  { type: 'integer', raw: '1 2', message: 'Could not convert id value "1 2" to number' },
  { type: 'integer', raw: 4.5, message: 'Could not convert id value "4.5" to number' },
  { type: 'integer', raw: true, message: 'Could not convert id value "true" to number' },
  { type: 'decimal', raw: 'abc', message: 'Could not convert price value "abc" to number' },
  { type: 'decimal', raw: '1.2.3', message: 'Could not convert price value "1.2.3" to number' },
  { type: 'decimal', raw: '1,5', message: 'Could not convert price value "1,5" to number' },
  { type: 'decimal', raw: '', message: 'Could not convert price value "" to number' },
  { type: 'decimal', raw: '.', message: 'Could not convert price value "." to number' },
  { type: 'decimal', raw: 'NaN', message: 'Could not convert price value "NaN" to number' },
  { type: 'decimal', raw: false, message: 'Could not convert price value "false" to number' },
  { type: 'float', raw: 'Infinity', message: 'Could not convert ratio value "Infinity" to number' },
  { type: 'float', raw: '1e', message: 'Could not convert ratio value "1e" to number' },
  { type: 'boolean', raw: 'yes', message: 'Could not convert active value "yes" to boolean (true, false, 1, 0)' },
  { type: 'boolean', raw: '2', message: 'Could not convert active value "2" to boolean (true, false, 1, 0)' },
  { type: 'boolean', raw: '', message: 'Could not convert active value "" to boolean (true, false, 1, 0)' },
  { type: 'boolean', raw: 't', message: 'Could not convert active value "t" to boolean (true, false, 1, 0)' },
  { type: 'boolean', raw: 2, message: 'Could not convert active value "2" to boolean (true, false, 1, 0)' },
  { type: 'time', raw: '24:30', message: 'Could not convert opens value "24:30" to time (HH:MM[:SS[.ffffff]])' },
  { type: 'time', raw: '24:00:01', message: 'Could not convert opens value "24:00:01" to time (HH:MM[:SS[.ffffff]])' },
  { type: 'date', raw: '2023-02-30', message: 'Could not convert published value "2023-02-30" to date (YYYY-MM-DD)' },
  { type: 'date', raw: '2023-02-29', message: 'Could not convert published value "2023-02-29" to date (YYYY-MM-DD)' },
  { type: 'date', raw: '2023-04-31', message: 'Could not convert published value "2023-04-31" to date (YYYY-MM-DD)' },
  { type: 'date', raw: '2023-13-01', message: 'Could not convert published value "2023-13-01" to date (YYYY-MM-DD)' },
  { type: 'date', raw: '2023-00-10', message: 'Could not convert published value "2023-00-10" to date (YYYY-MM-DD)' },
  { type: 'date', raw: '2023-01-00', message: 'Could not convert published value "2023-01-00" to date (YYYY-MM-DD)' },
  { type: 'date', raw: '2023-1-01', message: 'Could not convert published value "2023-1-01" to date (YYYY-MM-DD)' },
  {
    type: 'date',
    raw: '2023-01-01 10:00',
    message: 'Could not convert published value "2023-01-01 10:00" to date (YYYY-MM-DD)',
  },
  { type: 'date', raw: '01/02/2023', message: 'Could not convert published value "01/02/2023" to date (YYYY-MM-DD)' },
  { type: 'time', raw: '25:00', message: 'Could not convert opens value "25:00" to time (HH:MM[:SS[.ffffff]])' },
  { type: 'time', raw: '10:60', message: 'Could not convert opens value "10:60" to time (HH:MM[:SS[.ffffff]])' },
  { type: 'time', raw: '10:30:60', message: 'Could not convert opens value "10:30:60" to time (HH:MM[:SS[.ffffff]])' },
  {
    type: 'time',
    raw: '10:30:15.1234567',
    message:
      'Could not convert opens value "10:30:15.1234567" to time (HH:MM[:SS[.ffffff]]): at most 6 digits of fractional seconds',
  },
  {
    type: 'time',
    raw: '10:30+02:00',
    message:
      'Could not convert opens value "10:30+02:00" to time (HH:MM[:SS[.ffffff]]): a time is written without a time zone',
  },
  {
    type: 'time',
    raw: '24:00:00.5',
    message: 'Could not convert opens value "24:00:00.5" to time (HH:MM[:SS[.ffffff]])',
  },
  {
    type: 'date',
    raw: '0000-01-01',
    message: 'Could not convert published value "0000-01-01" to date (YYYY-MM-DD): years go from 0001 to 9999',
  },
  { type: 'date', raw: '10000-01-01', message: 'Could not convert published value "10000-01-01" to date (YYYY-MM-DD)' },
  { type: 'time', raw: '1030', message: 'Could not convert opens value "1030" to time (HH:MM[:SS[.ffffff]])' },
  { type: 'time', raw: '9:30', message: 'Could not convert opens value "9:30" to time (HH:MM[:SS[.ffffff]])' },
  {
    type: 'timestamp',
    raw: '2023-02-30 10:00:00',
    message: 'Could not convert updated value "2023-02-30 10:00:00" to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]])',
  },
  {
    type: 'timestamp',
    raw: '2023-05-01T',
    message: 'Could not convert updated value "2023-05-01T" to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]])',
  },
  {
    type: 'timestamp',
    raw: '2023-05-01X10:30',
    message: 'Could not convert updated value "2023-05-01X10:30" to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]])',
  },
  {
    type: 'timestamp',
    raw: '2023-05-01 10:30:00 UTC',
    message: 'Could not convert updated value "2023-05-01 10:30:00 UTC" to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]])',
  },
  {
    type: 'timestamp',
    raw: '2023-05-01 25:00',
    message: 'Could not convert updated value "2023-05-01 25:00" to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]])',
  },
  ...['2023-05-01T10:30:00.5+02:00', '2023-05-01T10:30:00Z', '2023-05-01 10:30-0500', '2024-01-01 10:00+99'].map(
    (raw) => ({
      type: 'timestamp' as const,
      raw,
      message: `Could not convert updated value "${raw}" to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]]): a timestamp is written without a time zone`,
    }),
  ),
  {
    type: 'timestamp',
    raw: '0000-12-31 23:59',
    message:
      'Could not convert updated value "0000-12-31 23:59" to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]]): years go from 0001 to 9999',
  },
  {
    type: 'timestamp',
    raw: '2023-05-01 24:00',
    message: 'Could not convert updated value "2023-05-01 24:00" to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]])',
  },
  {
    type: 'timestamp',
    raw: '2023-05-01 10:30:00.0000001',
    message:
      'Could not convert updated value "2023-05-01 10:30:00.0000001" to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]]): at most 6 digits of fractional seconds',
  },
  { type: 'decimal', raw: '1e', message: 'Could not convert price value "1e" to number' },
  { type: 'decimal', raw: '0x10', message: 'Could not convert price value "0x10" to number' },
  {
    type: 'decimal',
    raw: '1e-16384',
    message:
      'Could not convert price value "1e-16384" to number: price holds at most 16383 digits after the decimal point',
  },
  {
    type: 'decimal',
    raw: '1e99999999999999999999',
    message:
      'Could not convert price value "1e99999999999999999999" to number: price holds at most 131072 digits before the decimal point',
  },
  {
    type: 'float',
    raw: '1e309',
    message:
      'Could not convert ratio value "1e309" to number: ratio holds double-precision floats, at most 1.7976931348623157e+308 in size',
  },
  {
    type: 'float',
    raw: '-1e-330',
    message:
      'Could not convert ratio value "-1e-330" to number: ratio holds double-precision floats; this value is not 0 but would be stored as 0',
  },
  { type: 'binary', raw: 'aGVsbG8', message: 'Could not convert photo value "aGVsbG8" to base64 binary' },
  { type: 'binary', raw: 'a$b=', message: 'Could not convert photo value "a$b=" to base64 binary' },
  { type: 'binary', raw: 'aGVs bG8=', message: 'Could not convert photo value "aGVs bG8=" to base64 binary' },
  { type: 'binary', raw: '====', message: 'Could not convert photo value "====" to base64 binary' },
  { type: 'binary', raw: 1234, message: 'Could not convert photo value "1234" to base64 binary' },
  { type: 'binary', raw: true, message: 'Could not convert photo value "true" to base64 binary' },
];

describe('convertValue', () => {
  it.each(accepted)(`$type $raw converts`, ({ type, raw, value }) => {
    expect(convertValue(fieldOf(type), raw)).toEqual(value);
  });

  it.each(types)('%s: null passes through as NULL', (type) => {
    expect(convertValue(fieldOf(type), null)).toBeNull();
  });

  it.each(rejected)('$type $raw is a 400', ({ type, raw, message }) => {
    expect(serviceErrorOf(() => convertValue(fieldOf(type), raw))).toEqual({
      name: 'BadRequestError',
      status: 400,
      code: 'bad_value',
      message,
    });
  });

  it.each([
    ['integer', 'bigint'],
    ['boolean', 'boolean'],
    ['binary', 'object'],
  ] as const)('%s converts to a %s, whatever the database', (type, jsType) => {
    const raw = type === 'binary' ? 'AA==' : '1';
    expect(typeof convertValue(fieldOf(type), raw)).toBe(jsType);
  });
});

describe('convertListItem', () => {
  it.each([
    { type: 'integer', item: '', message: 'Could not convert id value "" to number: empty value in the list' },
    { type: 'integer', item: '  ', message: 'Could not convert id value "  " to number: empty value in the list' },
    {
      type: 'date',
      item: '',
      message: 'Could not convert published value "" to date (YYYY-MM-DD): empty value in the list',
    },
    {
      type: 'boolean',
      item: '',
      message: 'Could not convert active value "" to boolean (true, false, 1, 0): empty value in the list',
    },
    // an item that is not empty is refused as a single value is
    { type: 'integer', item: 'x', message: 'Could not convert id value "x" to number' },
    {
      type: 'timestamp',
      item: '2024-01-01 10:00Z',
      message:
        'Could not convert updated value "2024-01-01 10:00Z" to timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]]): a timestamp is written without a time zone',
    },
  ] as { type: ValueType; item: string; message: string }[])(
    '$type "$item" is a 400: $message',
    ({ type, item, message }) => {
      expect(serviceErrorOf(() => convertListItem(fieldOf(type), item))).toEqual({
        name: 'BadRequestError',
        status: 400,
        code: 'bad_value',
        message,
      });
    },
  );

  it.each([
    ['string', '', ''],
    ['binary', '', Buffer.alloc(0)],
    ['integer', ' 7 ', 7n],
  ] as [ValueType, string, Value][])('%s "%s" is a value of its own', (type, item, value) => {
    expect(convertListItem(fieldOf(type), item)).toEqual(value);
  });
});
