/**
 * Table tests of decimals read as digits: sign, significant digits, power of ten and written scale; digits
 * before and after the point; plain digits written back. Never a JS float.
 */
import { digitsAfter, digitsBefore, parseDecimal, plainDecimal } from '../../lib/plan/exact-decimal';

describe('parseDecimal', () => {
  it.each([
    ['12', { negative: false, digits: '12', exponent: 0, scale: 0 }],
    ['-1.50', { negative: true, digits: '15', exponent: -1, scale: 2 }],
    ['+.5', { negative: false, digits: '5', exponent: -1, scale: 1 }],
    ['5.', { negative: false, digits: '5', exponent: 0, scale: 0 }],
    [' 007.0100 ', { negative: false, digits: '701', exponent: -2, scale: 4 }],
    ['1200', { negative: false, digits: '12', exponent: 2, scale: 0 }],
    ['1.5e2', { negative: false, digits: '15', exponent: 1, scale: 0 }],
    ['1.500E2', { negative: false, digits: '15', exponent: 1, scale: 1 }],
    ['25e-3', { negative: false, digits: '25', exponent: -3, scale: 3 }],
    ['-0.00', { negative: false, digits: '', exponent: 0, scale: 2 }],
    ['0e-999999', { negative: false, digits: '', exponent: 0, scale: 999999 }],
    ['1e-999999', { negative: false, digits: '1', exponent: -999999, scale: 999999 }],
  ])('%s', (text, expected) => {
    expect(parseDecimal(text)).toEqual(expected);
  });

  it.each(['', '.', '-', '1e', 'e5', '1.2.3', '1,5', '0x10', 'NaN', 'Infinity', '1 2', '--1', '1e+-2'])(
    '%j is not a decimal',
    (text) => {
      expect(parseDecimal(text)).toBeUndefined();
    },
  );

  it('an exponent too long to count is infinite, so no column holds the value', () => {
    const huge = parseDecimal(`1e${'9'.repeat(400)}`);
    expect(huge && digitsBefore(huge)).toBe(Number.POSITIVE_INFINITY);
    const tiny = parseDecimal(`1e-${'9'.repeat(400)}`);
    expect(tiny && digitsAfter(tiny)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('digitsBefore and digitsAfter', () => {
  it.each([
    ['999999.99', 6, 2],
    ['0.001', -2, 3],
    ['12300', 5, -2],
    ['1e-999999', -999998, 999999],
    ['-5', 1, 0],
  ])('%s has %d before and needs %d after', (text, before, after) => {
    const value = parseDecimal(text);
    if (!value) throw new Error(text);
    expect([digitsBefore(value), digitsAfter(value)]).toEqual([before, after]);
  });

  it('zero fits any column', () => {
    const zero = parseDecimal('0.000');
    if (!zero) throw new Error('0.000');
    expect([digitsBefore(zero), digitsAfter(zero)]).toEqual([Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY]);
  });
});

describe('plainDecimal', () => {
  it.each([
    ['1.5e2', 0, '150'],
    ['1.5e2', 2, '150.00'],
    ['-25e-3', 0, '-0.025'],
    ['-25e-3', 5, '-0.02500'],
    ['1.50', 1, '1.5'],
    ['.5', 1, '0.5'],
    ['007', 0, '7'],
    ['1234.5678', 4, '1234.5678'],
    ['1e-7', 0, '0.0000001'],
    ['-0.00', 2, '0.00'],
    ['0e5', 0, '0'],
  ])('%s with %d digits after the point is %s', (text, after, plain) => {
    const value = parseDecimal(text);
    if (!value) throw new Error(text);
    expect(plainDecimal(value, after)).toBe(plain);
  });
});
