/**
 * Table tests of the Prefer header (RFC 7240) as the service reads it: `count=exact` among any other preferences,
 * in any letter case, quoted or with parameters; anything else is ignored. Pure.
 */
import { parseCountPreference } from '../../lib/request/parse-prefer';

describe('parseCountPreference', () => {
  it.each([
    ['count=exact', true],
    ['COUNT=Exact', true],
    [' count = exact ', true],
    ['count="exact"', true],
    ['count=exact; foo=bar', true],
    ['return=minimal, count=exact', true],
    ['respond-async,count=exact,wait=10', true],
    [undefined, false],
    ['', false],
    ['count', false],
    ['count=planned', false],
    ['count=estimated', false],
    ['count=exactly', false],
    ['return=representation', false],
    ['foo; count=exact', false],
    ['xcount=exact', false],
  ])('%p: %p', (header, wanted) => {
    expect(parseCountPreference(header)).toBe(wanted);
  });
});
