/**
 * Table tests of validatedAttribute enforcement (D1): every rule, passing and breaking values. Pure.
 */
import { validateValue } from '../../lib/plan/validate-value';
import type { RawValue } from '../../lib/request/resource-request';
import type { ValidationRule } from '../../lib/resource';
import { serviceErrorOf } from '../support/resources';

const maxLength5: ValidationRule = { name: 'title', type: 'String', maxLength: 5 };
const minLength2: ValidationRule = { name: 'title', type: 'String', minLength: 2 };
const code: ValidationRule = { name: 'code', type: 'String', regex: '[A-Z]{3}' };
const either: ValidationRule = { name: 'kind', type: 'String', regex: 'a|b' };
const percent: ValidationRule = { name: 'rate', type: 'Numeric', minValue: 0, maxValue: 100 };
const numeric: ValidationRule = { name: 'qty', type: 'Numeric' };
const shortNumber: ValidationRule = { name: 'qty', type: 'Numeric', maxLength: 3 };
const noRules: ValidationRule = { name: 'note', type: 'String' };

const passing: { rule: ValidationRule; raw: RawValue }[] = [
  { rule: maxLength5, raw: 'abcde' },
  { rule: maxLength5, raw: '' },
  { rule: maxLength5, raw: '😀😀😀😀😀' }, // five characters, ten UTF-16 units
  { rule: maxLength5, raw: 12345 },
  { rule: maxLength5, raw: null },
  { rule: minLength2, raw: 'ab' },
  { rule: minLength2, raw: null }, // NULL is left to the database's NOT NULL constraints
  { rule: code, raw: 'ABC' },
  { rule: either, raw: 'a' },
  { rule: either, raw: 'b' },
  { rule: percent, raw: '0' },
  { rule: percent, raw: '100' },
  { rule: percent, raw: '50.5' },
  { rule: percent, raw: ' 7 ' },
  { rule: percent, raw: 42 },
  { rule: percent, raw: '1e2' },
  { rule: numeric, raw: '-12.5' },
  { rule: shortNumber, raw: '999' },
  { rule: noRules, raw: 'anything at all' },
];

const breaking: { rule: ValidationRule; raw: RawValue; message: string }[] = [
  { rule: maxLength5, raw: 'abcdef', message: 'Field title value "abcdef" breaks the rule maxLength=5' },
  { rule: maxLength5, raw: '😀😀😀😀😀😀', message: 'Field title value "😀😀😀😀😀😀" breaks the rule maxLength=5' },
  { rule: maxLength5, raw: 123456, message: 'Field title value "123456" breaks the rule maxLength=5' },
  { rule: minLength2, raw: 'a', message: 'Field title value "a" breaks the rule minLength=2' },
  { rule: minLength2, raw: '', message: 'Field title value "" breaks the rule minLength=2' },
  { rule: code, raw: 'ABCD', message: 'Field code value "ABCD" breaks the rule regex=[A-Z]{3}' },
  { rule: code, raw: 'xABC', message: 'Field code value "xABC" breaks the rule regex=[A-Z]{3}' },
  { rule: code, raw: 'abc', message: 'Field code value "abc" breaks the rule regex=[A-Z]{3}' },
  // The whole value must match: the alternation is grouped before anchoring.
  { rule: either, raw: 'ab', message: 'Field kind value "ab" breaks the rule regex=a|b' },
  { rule: either, raw: 'xb', message: 'Field kind value "xb" breaks the rule regex=a|b' },
  { rule: percent, raw: '-1', message: 'Field rate value "-1" breaks the rule minValue=0' },
  { rule: percent, raw: '100.01', message: 'Field rate value "100.01" breaks the rule maxValue=100' },
  { rule: percent, raw: 101, message: 'Field rate value "101" breaks the rule maxValue=100' },
  { rule: percent, raw: 'abc', message: 'Field rate value "abc" breaks the rule type=Numeric' },
  { rule: numeric, raw: '', message: 'Field qty value "" breaks the rule type=Numeric' },
  { rule: percent, raw: '0x10', message: 'Field rate value "0x10" breaks the rule type=Numeric' },
  { rule: percent, raw: '0b11', message: 'Field rate value "0b11" breaks the rule type=Numeric' },
  { rule: numeric, raw: '  ', message: 'Field qty value "  " breaks the rule type=Numeric' },
  { rule: numeric, raw: 'Infinity', message: 'Field qty value "Infinity" breaks the rule type=Numeric' },
  { rule: numeric, raw: '12abc', message: 'Field qty value "12abc" breaks the rule type=Numeric' },
  { rule: numeric, raw: true, message: 'Field qty value "true" breaks the rule type=Numeric' },
  { rule: shortNumber, raw: '1000', message: 'Field qty value "1000" breaks the rule maxLength=3' },
];

describe('validateValue', () => {
  it.each(passing)('$rule.name $raw passes', ({ rule, raw }) => {
    expect(validateValue(rule, raw)).toBeUndefined();
  });

  it.each(breaking)('$rule.name $raw is a 400', ({ rule, raw, message }) => {
    expect(serviceErrorOf(() => validateValue(rule, raw))).toEqual({
      name: 'BadRequestError',
      status: 400,
      code: 'validation_failed',
      message,
    });
  });
});
