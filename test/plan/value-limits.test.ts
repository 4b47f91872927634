/**
 * Table tests of the column limits every converted value is checked against (Field.limits, as the catalog gives
 * them for each database's types): values at each limit convert, values beyond it are a 400 that names the field
 * and says what the column holds, and nothing is rounded or cut on the way.
 */
import { convertValue } from '../../lib/plan/convert-value';
import type { RawValue } from '../../lib/request/resource-request';
import type { ValueLimits, ValueType } from '../../lib/resource';
import type { Value } from '../../lib/values';
import { field, serviceErrorOf } from '../support/resources';

interface Case {
  readonly type: ValueType;
  readonly limits: ValueLimits;
  readonly raw: RawValue;
}

const smallint: ValueLimits = { min: '-32768', max: '32767' };
const bigintUnsigned: ValueLimits = { min: '0', max: '18446744073709551615' };
const numeric8x2: ValueLimits = { digitsBefore: 6, digitsAfter: 2 };
const numeric8x1: ValueLimits = { digitsBefore: 7, digitsAfter: 1 };
const numeric10x0: ValueLimits = { digitsBefore: 10, digitsAfter: 0 };
/** PostgreSQL's numeric(3,-2) (multiples of 100 below 100000) and numeric(2,5) (below 0.001). */
const numeric3xMinus2: ValueLimits = { digitsBefore: 5, digitsAfter: -2 };
const numeric2x5: ValueLimits = { digitsBefore: -3, digitsAfter: 5 };
const unsignedDecimal: ValueLimits = { digitsBefore: 3, digitsAfter: 2, min: '0' };
const single: ValueLimits = { float: 'single' };
const floatMxD: ValueLimits = { float: 'single', digitsBefore: 3, digitsAfter: 4 };
const timestamp3: ValueLimits = { fractionDigits: 3 };
const mysqlTimestamp: ValueLimits = {
  fractionDigits: 0,
  earliest: '1970-01-01 00:00:01',
  latest: '2038-01-19 03:14:07.999999',
};

const converted = ({ type, limits, raw }: Case) => convertValue(field('v', type, 't', 'v', { limits }), raw);

const accepted: (Case & { value: Value })[] = [
  { type: 'integer', limits: smallint, raw: '-32768', value: -32768n },
  { type: 'integer', limits: smallint, raw: '32767', value: 32767n },
  { type: 'integer', limits: bigintUnsigned, raw: '18446744073709551615', value: 18446744073709551615n },
  { type: 'decimal', limits: numeric8x2, raw: '999999.99', value: '999999.99' },
  { type: 'decimal', limits: numeric8x2, raw: '-999999.99', value: '-999999.99' },
  { type: 'decimal', limits: numeric8x2, raw: '1.50', value: '1.50' },
  { type: 'decimal', limits: numeric8x2, raw: '1.5000', value: '1.50' },
  { type: 'decimal', limits: numeric8x2, raw: '0.0001e2', value: '0.01' },
  { type: 'decimal', limits: numeric8x2, raw: '9.9999999e5', value: '999999.99' },
  { type: 'decimal', limits: numeric8x2, raw: '0e-999999', value: '0.00' },
  { type: 'decimal', limits: numeric8x1, raw: '1.50', value: '1.5' },
  { type: 'decimal', limits: numeric10x0, raw: '12.000', value: '12' },
  { type: 'decimal', limits: numeric10x0, raw: '9999999999', value: '9999999999' },
  { type: 'decimal', limits: numeric3xMinus2, raw: '99900', value: '99900' },
  { type: 'decimal', limits: numeric3xMinus2, raw: '1.23e4', value: '12300' },
  { type: 'decimal', limits: numeric2x5, raw: '0.00099', value: '0.00099' },
  { type: 'decimal', limits: unsignedDecimal, raw: '-0.00', value: '0.00' },
  { type: 'float', limits: single, raw: '3.4028234e38', value: '3.4028234e38' },
  { type: 'float', limits: single, raw: '1e-45', value: '1e-45' },
  { type: 'float', limits: single, raw: '-0', value: '-0' },
  { type: 'float', limits: {}, raw: '5e-324', value: '5e-324' },
  { type: 'float', limits: floatMxD, raw: '-999.9999', value: '-999.9999' },
  { type: 'string', limits: { maxLength: 3 }, raw: 'é€😀', value: 'é€😀' },
  { type: 'string', limits: { maxBytes: 5 }, raw: 'é€', value: 'é€' },
  { type: 'binary', limits: { maxBytes: 2 }, raw: 'AP8=', value: Buffer.from([0, 255]) },
  { type: 'time', limits: { fractionDigits: 0 }, raw: '10:00:00.000', value: '10:00:00' },
  { type: 'time', limits: { fractionDigits: 0 }, raw: '24:00:00.0', value: '24:00:00' },
  { type: 'time', limits: { fractionDigits: 2 }, raw: '10:00:00.1200', value: '10:00:00.12' },
  { type: 'timestamp', limits: timestamp3, raw: '2024-01-01T10:00:00.1230', value: '2024-01-01 10:00:00.123' },
  { type: 'timestamp', limits: timestamp3, raw: '2024-01-01 10:00:00.5', value: '2024-01-01 10:00:00.5' },
  { type: 'timestamp', limits: mysqlTimestamp, raw: '1970-01-01 00:00:01', value: '1970-01-01 00:00:01' },
  { type: 'timestamp', limits: mysqlTimestamp, raw: '2038-01-19 03:14:07', value: '2038-01-19 03:14:07' },
  { type: 'timestamp', limits: mysqlTimestamp, raw: '2038-01-19', value: '2038-01-19' },
];

const words: Record<string, string> = {
  integer: 'number',
  decimal: 'number',
  float: 'number',
  string: 'text',
  binary: 'base64 binary',
  time: 'time (HH:MM[:SS[.ffffff]])',
  timestamp: 'timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]])',
};

const refused: (Case & { reason: string })[] = [
  { type: 'integer', limits: smallint, raw: '32768', reason: 'v holds integers from -32768 to 32767' },
  { type: 'integer', limits: smallint, raw: -32769, reason: 'v holds integers from -32768 to 32767' },
  { type: 'integer', limits: bigintUnsigned, raw: '-1', reason: 'v holds integers from 0 to 18446744073709551615' },
  { type: 'decimal', limits: numeric8x2, raw: '1.234', reason: 'v holds at most 2 digits after the decimal point' },
  { type: 'decimal', limits: numeric8x2, raw: '1e-999999', reason: 'v holds at most 2 digits after the decimal point' },
  { type: 'decimal', limits: numeric8x2, raw: '1000000', reason: 'v holds at most 6 digits before the decimal point' },
  {
    type: 'decimal',
    limits: numeric8x2,
    raw: '999999.995',
    reason: 'v holds at most 2 digits after the decimal point',
  },
  { type: 'decimal', limits: numeric8x2, raw: '1e999999', reason: 'v holds at most 6 digits before the decimal point' },
  { type: 'decimal', limits: numeric8x1, raw: '1.55', reason: 'v holds at most 1 digit after the decimal point' },
  { type: 'decimal', limits: numeric10x0, raw: '0.5', reason: 'v holds only whole numbers' },
  { type: 'decimal', limits: numeric3xMinus2, raw: '12345', reason: 'v holds only whole multiples of 100' },
  {
    type: 'decimal',
    limits: numeric3xMinus2,
    raw: '100000',
    reason: 'v holds at most 5 digits before the decimal point',
  },
  { type: 'decimal', limits: numeric2x5, raw: '0.001', reason: 'v holds only numbers below 0.001' },
  { type: 'decimal', limits: numeric2x5, raw: '0.000001', reason: 'v holds at most 5 digits after the decimal point' },
  { type: 'decimal', limits: unsignedDecimal, raw: '-0.01', reason: 'v holds no numbers below 0' },
  {
    type: 'float',
    limits: single,
    raw: '3.5e38',
    reason: 'v holds single-precision floats, at most 3.4028234663852886e+38 in size',
  },
  {
    type: 'float',
    limits: single,
    raw: '1e-46',
    reason: 'v holds single-precision floats; this value is not 0 but would be stored as 0',
  },
  {
    type: 'float',
    limits: {},
    raw: '2e-324',
    reason: 'v holds double-precision floats; this value is not 0 but would be stored as 0',
  },
  { type: 'float', limits: floatMxD, raw: '1.23456', reason: 'v holds at most 4 digits after the decimal point' },
  { type: 'float', limits: floatMxD, raw: '1e3', reason: 'v holds at most 3 digits before the decimal point' },
  { type: 'float', limits: { float: 'double', min: '0' }, raw: '-1.5', reason: 'v holds no numbers below 0' },
  { type: 'string', limits: { maxLength: 3 }, raw: 'abcd', reason: 'v holds at most 3 characters' },
  { type: 'string', limits: { maxLength: 3 }, raw: 'ab  ', reason: 'v holds at most 3 characters' },
  { type: 'string', limits: { maxBytes: 4 }, raw: 'é€', reason: 'v holds at most 4 bytes (UTF-8)' },
  { type: 'binary', limits: { maxBytes: 2 }, raw: 'AAAA', reason: 'v holds at most 2 bytes' },
  { type: 'time', limits: { fractionDigits: 0 }, raw: '10:00:00.5', reason: 'v keeps whole seconds only' },
  {
    type: 'time',
    limits: { fractionDigits: 1 },
    raw: '10:00:00.05',
    reason: 'v keeps at most 1 digit of fractional seconds',
  },
  {
    type: 'timestamp',
    limits: timestamp3,
    raw: '2024-01-01 10:00:00.0001',
    reason: 'v keeps at most 3 digits of fractional seconds',
  },
  {
    type: 'timestamp',
    limits: mysqlTimestamp,
    raw: '1970-01-01',
    reason: 'v holds 1970-01-01 00:00:01 to 2038-01-19 03:14:07.999999',
  },
  {
    type: 'timestamp',
    limits: mysqlTimestamp,
    raw: '2038-01-19 03:14:08',
    reason: 'v holds 1970-01-01 00:00:01 to 2038-01-19 03:14:07.999999',
  },
];

describe('convertValue against column limits', () => {
  it.each(accepted)('$type $raw converts to $value within $limits', (c) => {
    expect(converted(c)).toEqual(c.value);
  });

  it.each(refused)('$type $raw is a 400 beyond $limits', (c) => {
    expect(serviceErrorOf(() => converted(c))).toEqual({
      name: 'BadRequestError',
      status: 400,
      code: 'bad_value',
      message: `Could not convert v value "${String(c.raw)}" to ${words[c.type]}: ${c.reason}`,
    });
  });

  it('NULL passes whatever the limits', () => {
    expect(converted({ type: 'string', limits: { maxLength: 0 }, raw: null })).toBeNull();
  });

  it('names a long value by its start and its length', () => {
    const raw = `${'x'.repeat(199)}😀${'y'.repeat(800)}`;
    expect(serviceErrorOf(() => converted({ type: 'string', limits: { maxLength: 10 }, raw })).message).toBe(
      `Could not convert v value "${'x'.repeat(199)}😀..." (1000 characters) to text: v holds at most 10 characters`,
    );
  });

  it('a decimal written with a huge exponent is refused before its digits are built', () => {
    expect(() => converted({ type: 'decimal', limits: {}, raw: '1e-999999999' })).toThrow(/16383 digits after/);
    expect(() => converted({ type: 'decimal', limits: {}, raw: `1e${'9'.repeat(400)}` })).toThrow(
      /131072 digits before/,
    );
  });
});
