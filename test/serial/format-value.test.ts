import type { ValueType } from '../../lib/resource';
import { valueJson, valueText } from '../../lib/serial/format-value';
import type { Value } from '../../lib/values';

const valueTypes: ValueType[] = [
  'integer',
  'decimal',
  'float',
  'boolean',
  'date',
  'time',
  'timestamp',
  'binary',
  'string',
];

/** Both renderings of one value: its XML attribute text and its JSON token. */
const formatValue = (type: ValueType, value: Value) => ({ text: valueText(type, value), json: valueJson(type, value) });

describe('valueText and valueJson', () => {
  it.each(valueTypes)('give no text and the token null for NULL of type %s', (type) => {
    expect(formatValue(type, null)).toEqual({ text: null, json: 'null' });
  });

  it.each<[ValueType, Value, string, string]>([
    ['integer', 42, '42', '42'],
    ['integer', -7, '-7', '-7'],
    ['integer', '12345678901234567890', '12345678901234567890', '12345678901234567890'],
    ['integer', 12345678901234567890n, '12345678901234567890', '12345678901234567890'],
    ['integer', '-9223372036854775808', '-9223372036854775808', '-9223372036854775808'],
    ['decimal', '20.99', '20.99', '20.99'],
    ['decimal', '0.00', '0.00', '0.00'],
    ['decimal', '-0.50', '-0.50', '-0.50'],
    [
      'decimal',
      '123456789012345678901234567890.123456789',
      '123456789012345678901234567890.123456789',
      '123456789012345678901234567890.123456789',
    ],
    ['decimal', 1.5, '1.5', '1.5'],
    ['decimal', 'NaN', 'NaN', '"NaN"'],
    ['float', 0.1, '0.1', '0.1'],
    ['float', '1.5e+20', '1.5e+20', '1.5e+20'],
    ['float', 1e21, '1e+21', '1e+21'],
    ['float', 'Infinity', 'Infinity', '"Infinity"'],
    ['float', '-Infinity', '-Infinity', '"-Infinity"'],
    ['float', Number.NaN, 'NaN', '"NaN"'],
    ['float', Number.POSITIVE_INFINITY, 'Infinity', '"Infinity"'],
    ['date', '2024-02-29', '2024-02-29', '"2024-02-29"'],
    ['time', '23:59:59.123456', '23:59:59.123456', '"23:59:59.123456"'],
    ['timestamp', '2024-02-29 23:59:59.123456', '2024-02-29 23:59:59.123456', '"2024-02-29 23:59:59.123456"'],
    ['timestamp', '0000-00-00 00:00:00', '0000-00-00 00:00:00', '"0000-00-00 00:00:00"'],
    ['string', 'he said "hi"\n\t\\', 'he said "hi"\n\t\\', '"he said \\"hi\\"\\n\\t\\\\"'],
    ['string', '', '', '""'],
    ['string', '007', '007', '"007"'],
    ['string', 5, '5', '"5"'],
    ['string', 'I ♥ 😀', 'I ♥ 😀', '"I ♥ 😀"'],
  ])('%s %p → text %p, json %s', (type, value, text, json) => {
    expect(formatValue(type, value)).toEqual({ text, json });
  });

  it.each<[Value, boolean]>([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    [2, true],
    [1n, true],
    [0n, false],
    ['t', true],
    ['f', false],
    ['1', true],
    ['0', false],
    ['true', true],
    ['false', false],
    ['TRUE', true],
  ])('boolean %p → %p, unquoted in JSON', (value, truth) => {
    const text = String(truth);
    expect(formatValue('boolean', value)).toEqual({ text, json: text });
  });

  it('writes a boolean it cannot read as the string it is, rather than guessing', () => {
    expect(formatValue('boolean', 'maybe')).toEqual({ text: 'maybe', json: '"maybe"' });
  });

  it.each<[string, Uint8Array, string]>([
    ['a Buffer', Buffer.from([0, 1, 2, 255]), 'AAEC/w=='],
    ['an empty Buffer', Buffer.alloc(0), ''],
    ['a Uint8Array', new Uint8Array([104, 105]), 'aGk='],
    ['a view into a larger buffer', new Uint8Array([9, 9, 104, 105, 9]).subarray(2, 4), 'aGk='],
  ])('binary from %s → base64, quoted in JSON', (_what, value, base64) => {
    expect(formatValue('binary', value)).toEqual({ text: base64, json: `"${base64}"` });
  });
});
