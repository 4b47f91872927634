/**
 * Decimal numbers as digits, never through a JS float: reads `-1.50`, `.5`, `1.5e2`, `1e-999999` into a sign,
 * significant digits and a power of ten, tells how many digits a value has before and after the decimal point,
 * and writes it back as plain digits. Sizes are counted before any text is built, so an exponent of a million
 * costs nothing. Pure.
 */

export interface ExactDecimal {
  readonly negative: boolean;
  /** The significant digits, without leading or trailing zeros; empty for zero. */
  readonly digits: string;
  /**
   * value = digits × 10^exponent (0 for zero). Infinite for an exponent too long to count: no column holds
   * such a value, so it is refused before any text is built.
   */
  readonly exponent: number;
  /** Digits after the decimal point as written, trailing zeros included (`1.50` 2, `1.5e2` 0, `1e-3` 3). */
  readonly scale: number;
}

const decimalText = /^([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;

/** The decimal written in `text` (surrounding spaces ignored), or undefined when it is not one. */
export function parseDecimal(text: string): ExactDecimal | undefined {
  const m = decimalText.exec(text.trim());
  if (!m) return undefined;
  const whole = m[2] ?? '';
  const fraction = m[3] ?? m[4] ?? '';
  const written = Number(m[5] ?? '0');
  const all = `${whole}${fraction}`.replace(/^0+/, '');
  const digits = all.replace(/0+$/, '');
  return {
    negative: m[1] === '-' && digits !== '',
    digits,
    exponent: digits === '' ? 0 : written - fraction.length + (all.length - digits.length),
    scale: Math.max(0, fraction.length - written),
  };
}

/** How many digits the value has before the decimal point: it is below 10^digitsBefore in size (0 for zero). */
export function digitsBefore(value: ExactDecimal): number {
  return value.digits === '' ? Number.NEGATIVE_INFINITY : value.digits.length + value.exponent;
}

/** How many digits the value needs after the decimal point (negative: it is a multiple of 10^-n). */
export function digitsAfter(value: ExactDecimal): number {
  return value.digits === '' ? Number.NEGATIVE_INFINITY : 0 - value.exponent; // never -0
}

/**
 * The value in plain digits with `fractionDigits` digits after the point, at least as many as it needs.
 * The caller has checked its size, so the text is as long as the column allows and no longer.
 */
export function plainDecimal(value: ExactDecimal, fractionDigits: number): string {
  const { digits, exponent } = value;
  const after = Math.max(fractionDigits, -exponent, 0);
  let whole: string;
  let fraction: string;
  if (exponent >= 0) {
    whole = digits === '' ? '0' : digits + '0'.repeat(exponent);
    fraction = '';
  } else {
    const point = digits.length + exponent;
    whole = point > 0 ? digits.slice(0, point) : '0';
    fraction = point > 0 ? digits.slice(point) : '0'.repeat(-point) + digits;
  }
  fraction = fraction.padEnd(after, '0');
  return `${value.negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}
