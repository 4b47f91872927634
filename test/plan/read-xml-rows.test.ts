import type { BodyRow } from '../../lib/request/resource-request';
import { type BodyNames, badBody, failure, flatNames, hierarchicalNames, parseBody } from '../support/body-rows';

type Shape = 'parents' | 'children';

function parseXml(text: string, names: BodyNames = flatNames, shape: Shape = 'parents'): Promise<BodyRow[]> {
  return parseBody('xml', text, names, shape);
}

describe('parseBody XML', () => {
  it.each<[string, string, BodyRow[]]>([
    ['an empty request', '<request/>', []],
    ['an empty request with a closing tag', '<request>\n</request>', []],
    ['one row', '<request><item id="1" title="Zoë"/></request>', [{ values: { id: '1', title: 'Zoë' } }]],
    [
      'rows in document order',
      '<request><item id="3"/><item id="1"/><item id="2"/></request>',
      [{ values: { id: '3' } }, { values: { id: '1' } }, { values: { id: '2' } }],
    ],
    [
      'attribute values exactly as written: no trimming, no number or boolean parsing',
      '<request><item id=" 0012 " price="1e5" active="true" title="null" born=""/></request>',
      [{ values: { id: ' 0012 ', price: '1e5', active: 'true', title: 'null', born: '' } }],
    ],
    [
      'entities and character references decoded',
      '<request><item title="a &amp; b &lt;c&gt; &quot;q&quot; &apos;s&apos;&#10;&#x9;x&#13;&#233;&#x1F600;"/></request>',
      [{ values: { title: 'a & b <c> "q" \'s\'\n\tx\ré😀' } }],
    ],
    ['single-quoted attributes', `<request><item title='say "hi"'/></request>`, [{ values: { title: 'say "hi"' } }]],
    [
      'a declaration, comments, processing instructions and whitespace around rows',
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- rows -->\n<request>\n  <?app x?>\n  <item id="1"/>\n  <!-- c -->\n</request>\n',
      [{ values: { id: '1' } }],
    ],
    [
      'namespace declarations left out of the values',
      '<request xmlns="http://restsql.org/schema"><item xmlns:x="urn:x" id="1"/></request>',
      [{ values: { id: '1' } }],
    ],
    [
      'names that are Object methods kept as written',
      '<request><item toString="1" valueOf="2" hasOwnProperty="3"/></request>',
      [{ values: { toString: '1', valueOf: '2', hasOwnProperty: '3' } }],
    ],
  ])('reads %s', async (_what, text, rows) => {
    expect(await parseXml(text)).toEqual(rows);
  });

  it('reads hierarchical parents with their children nested, in order', async () => {
    const text =
      '<request><lang langId="1"><movie filmId="9"/><movie filmId="2" title="B"/></lang>' +
      '<lang langName="New"/><lang langId="3">\n</lang></request>';
    expect(await parseXml(text, hierarchicalNames)).toEqual([
      { values: { langId: '1' }, children: [{ values: { filmId: '9' } }, { values: { filmId: '2', title: 'B' } }] },
      { values: { langName: 'New' } },
      { values: { langId: '3' } },
    ]);
  });

  it('reads child rows directly under request for the children shape', async () => {
    const text = '<request><movie filmId="2"/><movie filmId="1"/></request>';
    expect(await parseXml(text, hierarchicalNames, 'children')).toEqual([
      { values: { filmId: '2' } },
      { values: { filmId: '1' } },
    ]);
  });

  it('takes row elements named by their table as well as by their row name (restSQL clients)', async () => {
    const names = { ...hierarchicalNames, rowTable: 'language', childTable: 'film' };
    const text =
      '<request><language langId="1"><film filmId="9"/><movie filmId="2"/></language><lang langId="2"/></request>';
    expect(await parseXml(text, names)).toEqual([
      { values: { langId: '1' }, children: [{ values: { filmId: '9' } }, { values: { filmId: '2' } }] },
      { values: { langId: '2' } },
    ]);
    expect(await parseXml('<request><film filmId="5"/><movie filmId="6"/></request>', names, 'children')).toEqual([
      { values: { filmId: '5' } },
      { values: { filmId: '6' } },
    ]);
    expect(await failure(() => parseXml('<request><film filmId="5"/></request>', names))).toEqual(
      badBody('The XML body has an element film inside request; expected lang or language'),
    );
    expect(await failure(() => parseXml('<request><language langId="1"/></request>', names, 'children'))).toEqual(
      badBody('The XML body has an element language inside request; expected movie or film'),
    );
  });

  it.each<[string, string, BodyNames, Shape, string]>([
    ['an empty body', '', flatNames, 'parents', 'The XML body is empty'],
    [
      'a DOCTYPE (a DTD could declare entities, expand them, or reach outside)',
      '<!DOCTYPE request [<!ENTITY a "x"><!ENTITY b "&a;&a;">]>\n<request><item title="&b;"/></request>',
      flatNames,
      'parents',
      'The XML body declares a DOCTYPE at line 1, column 1; request bodies may not declare one',
    ],
    [
      'an undefined entity',
      '<request><item title="&undefined;"/></request>',
      flatNames,
      'parents',
      'The XML body uses "&undefined;" at line 1, column 23, which is no reference XML defines; only &amp; &lt; &gt; &quot; &apos; and character references to XML characters (&#65; &#x41;) are allowed',
    ],
    [
      'an HTML entity, which XML does not define',
      '<request>\n  <item title="&copy; 2024"/>\n</request>',
      flatNames,
      'parents',
      'The XML body uses "&copy;" at line 2, column 16, which is no reference XML defines; only &amp; &lt; &gt; &quot; &apos; and character references to XML characters (&#65; &#x41;) are allowed',
    ],
    [
      'a character reference to a character XML cannot carry',
      '<request><item title="&#0;"/></request>',
      flatNames,
      'parents',
      'The XML body uses "&#0;" at line 1, column 23, which is no reference XML defines; only &amp; &lt; &gt; &quot; &apos; and character references to XML characters (&#65; &#x41;) are allowed',
    ],
    [
      'a bare ampersand',
      '<request><item title="a & b"/></request>',
      flatNames,
      'parents',
      'The XML body uses "&" at line 1, column 25, which is no reference XML defines; only &amp; &lt; &gt; &quot; &apos; and character references to XML characters (&#65; &#x41;) are allowed',
    ],
    ['a blank body', ' \n ', flatNames, 'parents', 'The XML body is empty'],
    [
      'an unclosed element',
      '<request>\n  <item id="1">\n</request>',
      flatNames,
      'parents',
      "The XML body is malformed at line 3, column 1: Expected closing tag 'item' (opened in line 2, col 3) instead of closing tag 'request'.",
    ],
    [
      'a repeated attribute',
      '<request><item id="1" id="2"/></request>',
      flatNames,
      'parents',
      "The XML body is malformed at line 1, column 23: Attribute 'id' is repeated.",
    ],
    [
      'an attribute without a value',
      '<request><item id/></request>',
      flatNames,
      'parents',
      "The XML body is malformed at line 1, column 16: boolean attribute 'id' is not allowed.",
    ],
    [
      'text that is not XML',
      'id=1',
      flatNames,
      'parents',
      "The XML body is malformed at line 1, column 1: char 'i' is not expected.",
    ],
    [
      'no element at all',
      '<!-- nothing -->',
      flatNames,
      'parents',
      'The XML body is malformed at line 1: Start tag expected.',
    ],
    [
      'a wrong root',
      '<items><item id="1"/></items>',
      flatNames,
      'parents',
      "The XML body's root element is items; expected request",
    ],
    [
      'two roots',
      '<request/><request/>',
      flatNames,
      'parents',
      'The XML body must have one root element, request; it has 2',
    ],
    [
      'an unknown row element',
      '<request><film id="1"/></request>',
      flatNames,
      'parents',
      'The XML body has an element film inside request; expected item',
    ],
    [
      'a child row at the top of a parents body',
      '<request><movie filmId="1"/></request>',
      hierarchicalNames,
      'parents',
      'The XML body has an element movie inside request; expected lang',
    ],
    [
      'an unknown element inside a parent',
      '<request><lang langId="1"><actor id="1"/></lang></request>',
      hierarchicalNames,
      'parents',
      'The XML body has an element actor inside lang; expected movie',
    ],
    [
      'an element inside a child row',
      '<request><lang langId="1"><movie filmId="1"><movie filmId="2"/></movie></lang></request>',
      hierarchicalNames,
      'parents',
      'The XML body has an element movie inside movie; no elements are allowed there',
    ],
    [
      'an element inside a flat row',
      '<request><item id="1"><item id="2"/></item></request>',
      flatNames,
      'parents',
      'The XML body has an element item inside item; no elements are allowed there',
    ],
    [
      'a parent row in a children body',
      '<request><lang langId="1"/></request>',
      hierarchicalNames,
      'children',
      'The XML body has an element lang inside request; expected movie',
    ],
    [
      'an element inside a child row of a children body',
      '<request><movie filmId="1"><x/></movie></request>',
      hierarchicalNames,
      'children',
      'The XML body has an element x inside movie; no elements are allowed there',
    ],
    [
      'child rows for a resource without any',
      '<request><item id="1"/></request>',
      flatNames,
      'children',
      'The body lists child rows, but this resource has no child rows',
    ],
    [
      'text between rows',
      '<request><item id="1"/>oops</request>',
      flatNames,
      'parents',
      'The XML body has text "oops" inside request; only elements and attributes are allowed',
    ],
    [
      'text inside a row',
      '<request><item id="1"> 5 </item></request>',
      flatNames,
      'parents',
      'The XML body has text "5" inside item; only elements and attributes are allowed',
    ],
    [
      'CDATA text',
      '<request><![CDATA[x]]></request>',
      flatNames,
      'parents',
      'The XML body has text "x" inside request; only elements and attributes are allowed',
    ],
    [
      'absurd nesting',
      `<request><item>${'<x>'.repeat(500)}${'</x>'.repeat(500)}</item></request>`,
      flatNames,
      'parents',
      'The XML body cannot be read: Maximum nested tags exceeded',
    ],
    [
      'a prototype-polluting attribute name',
      '<request><item __proto__="1"/></request>',
      flatNames,
      'parents',
      'The XML body cannot be read: [SECURITY] Invalid name: "__proto__" is a reserved JavaScript keyword that could cause prototype pollution',
    ],
  ])('refuses %s', async (_what, text, names, shape, message) => {
    expect(await failure(() => parseXml(text, names, shape))).toEqual(badBody(message));
  });

  it('shortens long stray text in the message', async () => {
    const text = `<request>${'x'.repeat(100)}</request>`;
    expect((await failure(() => parseXml(text)))?.message).toEqual(
      `The XML body has text "${'x'.repeat(40)}..." inside request; only elements and attributes are allowed`,
    );
  });
});
