/**
 * Request.xsd and Response.xsd on their own, with libxml2 (xmllint-wasm): both compile as XML Schema 1.0, accept the generic
 * shapes (any row names, two levels), and refuse what XSD 1.0 can describe as wrong. Pure: no handler, no
 * database; documents from the real handlers, and what XSD 1.0 cannot refuse, are in documents.test.ts.
 */
import { expectInvalid, expectValid, validate } from './xmllint';

const declaration = '<?xml version="1.0" encoding="UTF-8"?>';

describe('the schemas themselves', () => {
  it.each([
    ['Request.xsd', '<request><r a="1"/></request>'],
    ['Response.xsd', '<readResponse/>'],
  ] as const)('%s compiles as XML Schema 1.0 without a warning', async (schema, document) => {
    expect(await validate(schema, document)).toEqual({ valid: true, output: 'document.xml validates' });
  });
});

describe('documents that must validate', () => {
  it.each([
    ['flat rows of any name, any attributes', '<request><anyRow a="1" b="x &amp; y"/><anyRow/></request>'],
    ['parents with nested child rows', '<request><team team_no="3"><player n="P1"/><player/></team><team/></request>'],
    ['child rows alone (C3, U4, D4)', `${declaration}<request>\n  <tag tid="2"/>\n  <tag tid="3"/>\n</request>`],
    [
      'rows named request (the declaration is looser for them)',
      '<request><request id="1"><request id="2"/></request></request>',
    ],
  ])('Request.xsd: %s', async (_title, document) => {
    await expectValid('Request.xsd', document);
  });

  it.each([
    ['an empty read', `${declaration}<readResponse/>`],
    ['a flat read', '<readResponse><item id="1" name="a &lt;b&gt; &quot;c&quot;"/><item id="2"/></readResponse>'],
    ['a hierarchical read', '<readResponse><team a="1"><player b="2"/><player/></team><team/></readResponse>'],
    ['a write count alone', '<writeResponse rowsAffected="0"/>'],
    ['a write with nested rows', '<writeResponse rowsAffected="4"><team t="3"><player p="1"/></team></writeResponse>'],
  ])('Response.xsd: %s', async (_title, document) => {
    await expectValid('Response.xsd', document);
  });
});

describe('documents that must not validate', () => {
  it.each([
    ['root foo', '<foo/>', /foo.*No matching global declaration/],
    ['root readResponse', '<readResponse/>', /readResponse.*No matching global declaration/],
    ['text directly inside request', '<request>text<r/></request>', /request.*element-only/],
    ['three levels of nesting', '<request><a><b><c x="1"/></b></a></request>', /'c'.*noRowsInsideChildRows/],
    ['a namespaced row', '<request><x:r xmlns:x="urn:x"/></request>', /\{urn:x\}r.*not expected/],
  ])('Request.xsd refuses %s', async (_title, document, reason) => {
    await expectInvalid('Request.xsd', document, reason);
  });

  it.each([
    ['root foo', '<foo/>', /foo.*No matching global declaration/],
    ['root request', '<request/>', /request.*No matching global declaration/],
    ['writeResponse without rowsAffected', '<writeResponse/>', /rowsAffected.*required/],
    ['rowsAffected="-1"', '<writeResponse rowsAffected="-1"/>', /rowsAffected.*'-1'/],
    ['rowsAffected="+3"', '<writeResponse rowsAffected="+3"/>', /rowsAffected.*'\+3'/],
    ['rowsAffected="many"', '<writeResponse rowsAffected="many"/>', /rowsAffected.*'many'/],
    ['an attribute on readResponse', '<readResponse rowsAffected="1"/>', /rowsAffected.*not allowed/],
    ['text directly inside readResponse', '<readResponse>text</readResponse>', /readResponse.*element-only/],
    ['text directly inside writeResponse', '<writeResponse rowsAffected="1"> x <r/></writeResponse>', /element-only/],
    ['three levels in a read', '<readResponse><a><b><c/></b></a></readResponse>', /'c'.*noRowsInsideChildRows/],
    ['four levels in a write', '<writeResponse rowsAffected="1"><a><b><c><d/></c></b></a></writeResponse>', /'c'/],
  ])('Response.xsd refuses %s', async (_title, document, reason) => {
    await expectInvalid('Response.xsd', document, reason);
  });
});
