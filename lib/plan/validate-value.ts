/**
 * Enforces a definition's validatedAttribute rules on every value written to that field; a violation is a
 * 400 naming the field and the rule. Pure.
 */
import { BadRequestError } from '../errors';
import type { RawValue } from '../request/resource-request';
import type { ValidationRule } from '../resource';

function broken(rule: ValidationRule, value: string, what: string): never {
  throw new BadRequestError('validation_failed', `Field ${rule.name} value "${value}" breaks the rule ${what}`);
}

function validateNumber(rule: ValidationRule, value: string): void {
  const n = Number(value.trim());
  // decimal notation only: Number() alone would take 0x10 and 0b11
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.trim()) || !Number.isFinite(n))
    broken(rule, value, 'type=Numeric');
  if (rule.minValue !== undefined && n < rule.minValue) broken(rule, value, `minValue=${rule.minValue}`);
  if (rule.maxValue !== undefined && n > rule.maxValue) broken(rule, value, `maxValue=${rule.maxValue}`);
}

export function validateValue(rule: ValidationRule, raw: RawValue): void {
  if (raw === null) return;
  const value = String(raw);
  if (rule.type === 'Numeric') validateNumber(rule, value);
  const length = [...value].length;
  if (rule.minLength !== undefined && length < rule.minLength) broken(rule, value, `minLength=${rule.minLength}`);
  if (rule.maxLength !== undefined && length > rule.maxLength) broken(rule, value, `maxLength=${rule.maxLength}`);
  if (rule.regex !== undefined && !new RegExp(`^(?:${rule.regex})$`, 'u').test(value)) {
    broken(rule, value, `regex=${rule.regex}`);
  }
}
