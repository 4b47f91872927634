/** Table tests of the shared text helpers: XML attribute and HTML escaping, lenient decoding. Pure. */
import { decodeLenient, escapeHtml, escapeXmlAttribute } from '../../lib/text';

describe('escapeXmlAttribute', () => {
  it.each([
    ['plain', 'plain'],
    ['a & b <c> "q"', 'a &amp; b &lt;c&gt; &quot;q&quot;'],
    ["it's", "it's"],
    ['tab\there\nline\rreturn', 'tab&#9;here&#10;line&#13;return'],
    ['nul\u0000 and \u0001 and \uFFFE', 'nul\uFFFD and \uFFFD and \uFFFD'],
    ['dürüm 😀', 'dürüm 😀'],
  ])('%j → %j', (text, escaped) => {
    expect(escapeXmlAttribute(text)).toBe(escaped);
  });
});

describe('escapeHtml', () => {
  it.each([
    ['<b>x</b>', '&lt;b&gt;x&lt;/b&gt;'],
    [`"q" & 'a'`, '&quot;q&quot; &amp; &#39;a&#39;'],
    ['line\nbreak', 'line\nbreak'],
  ])('%j → %j', (text, escaped) => {
    expect(escapeHtml(text)).toBe(escaped);
  });
});

describe('decodeLenient', () => {
  it.each([
    ['Book', 'Book'],
    ['a%20b', 'a b'],
    ['%C3%A9', 'é'],
    ['50%', '50%'],
    ['%zz', '%zz'],
    ['a+b', 'a+b'],
  ])('%j → %j', (text, decoded) => {
    expect(decodeLenient(text)).toBe(decoded);
  });
});
