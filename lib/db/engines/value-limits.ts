/**
 * What engines' catalogs share when they say what a column holds (ValueLimits): integer ranges, decimal digits,
 * and a table of type-name patterns read in order. Each engine's value types (<engine>-value-types.ts) use them.
 * Pure.
 */
import type { ValueLimits } from '../../resource';

/** Signed integers of `bits` bits, or unsigned ones. */
export function integerRange(bits: number, unsigned: boolean): ValueLimits {
  const size = 2n ** BigInt(bits);
  return unsigned ? { min: '0', max: String(size - 1n) } : { min: String(-size / 2n), max: String(size / 2n - 1n) };
}

/** numeric(p,s): below 10^(p - s) in size, nothing after the s-th digit after the point. */
export function decimalDigits(precision: number, scale: number): ValueLimits {
  return { digitsBefore: precision - scale, digitsAfter: scale };
}

/** The limits of a type whose name matches the pattern, from what the pattern captured. */
export type LimitsOf = (m: RegExpMatchArray) => ValueLimits;

/** The limits of the first pattern of `types` that `name` matches, or undefined when none does. */
export function limitsFrom(types: readonly [RegExp, LimitsOf][], name: string): ValueLimits | undefined {
  for (const [pattern, limitsOf] of types) {
    const m = pattern.exec(name);
    if (m) return limitsOf(m);
  }
  return undefined;
}
