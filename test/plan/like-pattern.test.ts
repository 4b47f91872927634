/** The LIKE patterns the database runs: wildcards, the three escapes, every other backslash literal. Pure. */
import { likePattern } from '../../lib/plan/like-pattern';

it.each([
  ['The%', 'The%'],
  ['%an_', '%an_'],
  ['100\\%', '100\\%'],
  ['a\\_b%', 'a\\_b%'],
  ['%\\\\%', '%\\\\%'],
  ['%\\', '%\\\\'],
  ['\\', '\\\\'],
  ['%\\x%', '%\\\\x%'],
  ['C:\\dir\\%', 'C:\\\\dir\\%'],
  ['\\\\\\', '\\\\\\\\'],
  ['', ''],
])('%j → %j', (value, pattern) => {
  expect(likePattern(value)).toBe(pattern);
});
