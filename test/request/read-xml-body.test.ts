/**
 * The two XML readers agree: whatever the fast reader (saxes) returns, the checked reader (fast-xml-parser) returns
 * too, and where the fast one declines, the checked one answers; so readXmlBody, in one go or a slice at a time,
 * gives exactly the tree or the 400 the checked reader gives. By a table of tricky bodies (entities, CDATA,
 * comments, whitespace, namespaces, names, malformed input and where it is malformed), by generated bodies
 * (fast-check, seeded), and at every slice boundary.
 */
import fc from 'fast-check';
import { ServiceError } from '../../lib/errors';
import { checkedReadLimit, readXmlBody, readXmlBodyInSlices, xmlSliceLength } from '../../lib/request/read-xml-body';
import { readXmlChecked } from '../../lib/request/read-xml-checked';
import { scanXmlBody, type XmlScanResult } from '../../lib/request/scan-xml-body';
import { loopTurnsDuring } from '../support/loop-turns';

/** The tree, or the error's status, code and message. */
async function outcome(read: () => unknown): Promise<unknown> {
  try {
    return { tree: await read() };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return { status: error.status, code: error.code, message: error.message };
  }
}

/** What the fast reader reads of `text` in slices of `length` characters. */
function scanInSlices(text: string, length: number): XmlScanResult {
  const scan = scanXmlBody(text);
  for (let end = length; end < text.length && scan.readTo(end); end += length) {}
  return scan.finish();
}

const rows = (inside: string) => `<request>${inside}</request>`;

/** Bodies the fast reader reads itself: the tree must be the checked reader's, at any slice boundary. */
const readFast: [string, string][] = [
  ['an empty request', '<request/>'],
  ['rows with attributes in order', rows('<item id="3" b="x"/><item id="1"></item>')],
  [
    'a declaration, comments, instructions and blank lines',
    '<?xml version="1.0" encoding="UTF-8"?>\n<!-- c -->\n<request>\n <?app x?>\n <item id="1"/>\n <!-- d -->\n</request>\n',
  ],
  ['a declaration with standalone', '<?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?><request/>'],
  ['a byte order mark', '\uFEFF<request><item id="1"/></request>'],
  ['whitespace before the root', ' \n<request/>'],
  ['CRLF line ends between rows', '<request>\r\n<item a="1"/>\r\n</request>\r\n'],
  ['a start tag over several lines', '<request><item\n  a="x y"\r\n  b=\'z\'\t/></request>'],
  ['spaces around =', rows('<item a = "1"/>')],
  ['a closing tag with a space', '<request></request >'],
  ['predefined entities', rows('<item a="&lt;&gt;&amp;&quot;&apos;"/>')],
  ['character references, decimal and hex', rows('<item a="&#65;&#x42;&#233;&#x1F600;&#10;&#9;&#13;&#000065;"/>')],
  ['a reference to & followed by entity-like text', rows('<item a="&#38;amp; &amp;lt;"/>')],
  ['quotes, > and ]]> inside values', rows(`<item a='say "hi" >' b="it's" c="]]>"/>`)],
  ['values as written: spaces, numbers, booleans, empty', rows('<item id=" 0012 " p="1e5" t="true" n="null" e=""/>')],
  ['astral and non-ASCII characters in values', rows('<item a="😀 Zoë 日本"/>')],
  ['blank CDATA and blank references as text', rows('<![CDATA[ \n]]>&#32;&#160;\u00A0')],
  [
    'namespace declarations left out, prefixes kept',
    '<request xmlns="urn:r"><x:item xmlns:x="urn:x" x:a="1" xml:lang="en"/></request>',
  ],
  ['names with : . - _ and digits', rows('<a:b:c _d.e-f1="1" g:h="2"/>')],
  ['names that are Object methods', rows('<item toString="1" valueOf="2" hasOwnProperty="3"/>')],
  ['hierarchical rows', rows('<lang langId="1"><movie filmId="9"/><movie filmId="2" title="B"/></lang><lang/>')],
  ['nesting deeper than any resource takes', rows(`${'<x>'.repeat(40)}${'</x>'.repeat(40)}`)],
  ['an instruction whose target starts with xml', rows('<?xml-stylesheet href="a"?>')],
  ['raw tabs and line breaks in values, kept (CRLF and CR as LF)', rows('<item a="x\ny" b="\tz\r\n" c="\r"/>')],
  [
    'raw line breaks between and inside values',
    rows('<item\n a="1\n2"\r\n b=\'&amp;\n&#10;\'\n/><item c="\t"></item>'),
  ],
  ['non-ASCII names', rows('<itém prénom="1" a·b="2" 日本="3"/>')],
  ['-- in a comment', rows('<!-- a -- b -->')],
  [
    '-- in comments before the root, in a row and after it',
    '<!-- a -- b --><request><item a="1"><!-- -- x -- --></item></request>\n<!-- c -- -->',
  ],
  ['-- before a line break in a comment', rows('<!-- a --\r\n b --\n-->')],
  ['-- before a character beyond the Basic Multilingual Plane', rows('<!-- a --😀 -->')],
];

/** Bodies the fast reader declines: the checked reader answers, with a tree or with its 400. */
const declined: [string, string][] = [
  ['a reference longer than fast-xml-parser decodes', rows(`<item a="&#${'0'.repeat(32)}65;"/>`)],
  ['XML 1.1', '<?xml version="1.1"?><request><item a="x\u0085y"/></request>'],
  ['--- ending a comment', rows('<!-- a --->')],
  ['---- in a comment', rows('<!-- a ---- b -->')],
  ['-- in an unclosed comment', rows('<item id="1"/><!-- a -- b')],
  ['-- in a comment of a DOCTYPE', '<!DOCTYPE request [<!-- a -- b -->]><request/>'],
  ['< in a value', rows('<item a="<"/>')],
  ['a control character', rows('<item a="\u0001"/>')],
  ['a non-character', rows('<item a="\uFFFE"/>')],
  ['a name beyond the Basic Multilingual Plane', rows('<item 𐀀="1"/>')],
  ['a declaration after whitespace', ' <?xml version="1.0"?><request/>'],
  ['a PI named xml inside', rows('<?xml x?>')],
  ['blank text after the root', '<request/>\u00A0'],
  ['a reference after the root', '<request/>&#32;'],
  ['nesting deeper than fast-xml-parser takes', rows(`${'<x>'.repeat(120)}${'</x>'.repeat(120)}`)],
  ['nesting a little deeper than the fast reader takes', rows(`${'<x>'.repeat(60)}${'</x>'.repeat(60)}`)],
  ['__proto__', rows('<item __proto__="1"/>')],
  ['constructor', rows('<item constructor="1"/>')],
  ['prototype as an element', rows('<prototype/>')],
  ['a DOCTYPE', '<!DOCTYPE request [<!ENTITY a "x">]>\n<request><item title="&a;"/></request>'],
  ['a lower-case doctype', '<!doctype request><request/>'],
  ['a DOCTYPE inside', rows('<!DOCTYPE x>')],
  ['an undefined entity', rows('<item title="&undefined;"/>')],
  ['an HTML entity', '<request>\n  <item title="&copy; 2024"/>\n</request>'],
  ['&#0;', rows('<item a="&#0;"/>')],
  ['&#X41; (upper-case X)', rows('<item a="&#X41;"/>')],
  ['a bare &', rows('<item a="a & b"/>')],
  ['text', rows('<item id="1"/>oops')],
  ['text in a row', rows('<item id="1"> 5 </item>')],
  ['CDATA text', rows('<![CDATA[x]]>')],
  [']]> in text', rows(']]>')],
  ['an unclosed element', '<request>\n  <item id="1">\n</request>'],
  ['an unclosed root', '<request>'],
  ['a repeated attribute', rows('<item id="1" id="2"/>')],
  ['an attribute without a value', rows('<item id/>')],
  ['attributes without a space between', rows('<item a="1"b="2"/>')],
  ['an invalid attribute name', rows('<item .b="1"/>')],
  ['text that is not XML', 'id=1'],
  ['no element', '<!-- nothing -->'],
  ['an empty body', ''],
  ['a blank body', ' \n '],
  ['a wrong root', '<items><item id="1"/></items>'],
  ['two roots', '<request/><request/>'],
  ['a mismatched closing tag on line 3', '<request>\n<item>\n</itemx>\n</request>'],
  ['an error at the end of a long body', `<request>\n${'<item id="1"/>\n'.repeat(3000)}<item id="2">\n</request>`],
  [
    'an error after rows, CRLF line ends',
    '<request>\r\n<item id="1"/>\r\n<item a="\r\n"/>\r\n<item>\r\n</itemx>\r\n</request>',
  ],
  ['an error on the line of the last row read whole', rows('\n<item id="1"/>\n<item id="2"/> <item a="1" a="2"/>')],
  ['an error after rows on one line', rows('<item id="1"/><item id="2"/><item a="1" a="2"/>')],
  [
    'an error inside a row after rows',
    rows('<lang a="1"><movie b="1"/></lang>\n<lang a="2"><movie b="2"/><movie c="1" c="2"/></lang>'),
  ],
  ['a DOCTYPE after rows', rows('<item id="1"/><!DOCTYPE x><item id="2"/>')],
  ['a bad reference after rows', rows('<item id="1"/>\n<item a="&copy;"/>')],
  ['__proto__ after rows', rows('<item id="1"/>\n<item __proto__="1"/>')],
  ['text after rows', rows('<item id="1"/>\n<item id="2"/>oops<item id="3"/>')],
  [
    'rows, what only the checked reader reads, rows',
    rows('<item id="1"/>\n<lang><x/></lang>\n<!-- a -- b -->\n<item a="<"/><item id="3"/>'),
  ],
  [
    'rows, then a row the checked reader reads deeper',
    rows(`<item id="1"/>${'<x>'.repeat(60)}${'</x>'.repeat(60)}<item id="2"/>`),
  ],
];

describe('readXmlBody', () => {
  it.each(readFast)('reads %s with the fast reader, as the checked reader does', (_what, text) => {
    const tree = readXmlChecked(text);
    expect(scanXmlBody(text).finish()).toEqual({ declined: false, root: tree });
    expect(readXmlBody(text)).toEqual(tree);
  });

  it.each([...readFast, ...declined])('reads %s in slices of any length alike', async (_what, text) => {
    const whole = scanXmlBody(text).finish();
    const expected = await outcome(() => readXmlChecked(text));
    for (const length of [1, 2, 3, 5, 7]) {
      expect(scanInSlices(text, length)).toEqual(whole);
      expect(await outcome(() => readXmlBodyInSlices(text, length))).toEqual(expected);
    }
  });

  it.each(declined)('leaves %s to the checked reader', async (_what, text) => {
    const expected = await outcome(() => readXmlChecked(text));
    expect(scanXmlBody(text).finish().declined).toBe(true);
    expect(await outcome(() => readXmlBody(text))).toEqual(expected);
    expect(await outcome(() => readXmlBodyInSlices(text))).toEqual(expected);
  });

  it('answers malformed bodies with the line and column of the error', async () => {
    const text = '<request>\n<item>\n</itemx>\n</request>';
    expect(await outcome(() => readXmlBody(text))).toEqual({
      status: 400,
      code: 'bad_body',
      message:
        "The XML body is malformed at line 3, column 1: Expected closing tag 'item' (opened in line 2, col 1) instead of closing tag 'itemx'.",
    });
  });

  it('reads generated bodies as the checked reader does, in one go and in slices', async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.integer({ min: 1, max: 40 }), async (text, length) => {
        const expected = await outcome(() => readXmlChecked(text));
        expect(await outcome(() => readXmlBody(text))).toEqual(expected);
        expect(await outcome(() => readXmlBodyInSlices(text))).toEqual(expected);
        const fast = scanInSlices(text, length);
        if (!fast.declined) expect({ tree: fast.root }).toEqual(expected);
        expect(await outcome(() => readXmlBodyInSlices(text, length))).toEqual(expected);
      }),
      { seed: 20261125, numRuns: 3000 },
    );
  });
});

describe('readXmlBodyInSlices', () => {
  const big = `<request>\n${'<item id="1" title="a &amp; b" note="x"/>\n'.repeat(5000)}</request>`;

  it('lets other work run between the slices of a big body', async () => {
    const { result: tree, turns } = await loopTurnsDuring(() => readXmlBodyInSlices(big));
    expect(tree.children).toHaveLength(5000);
    expect(big.length / xmlSliceLength).toBeGreaterThan(10);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(big.length / xmlSliceLength) - 1);
  });

  it('gives the tree readXmlBody gives', async () => {
    expect(await readXmlBodyInSlices(big)).toEqual(readXmlBody(big));
  });
});

// Generated bodies: mostly well-formed rows, now and then one of the pieces the two readers could read differently

/** Mostly one of `usual`, one time in `odds` one of `rare`. */
const mostly = (usual: string[], rare: string[], odds = 8) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...usual), weight: odds - 1 },
    { arbitrary: fc.constantFrom(...rare), weight: 1 },
  );

const names = mostly(
  ['item', 'lang', 'x:item', 'a.b', '_n', 'b-c', 'toString', 'xmlns:x'],
  ['itém', '__proto__', 'constructor', 'xmlns', '1a', 'a\u00B7b'],
  30,
);
const valueText = fc
  .array(
    mostly(
      [
        'a',
        ' ',
        '1',
        '&amp;',
        '&lt;',
        '&gt;',
        '&quot;',
        '&apos;',
        '&#65;',
        '&#x1F600;',
        '&#38;',
        '>',
        ']]>',
        '😀',
        'é',
      ],
      [
        '\n',
        '\t',
        '\r',
        '\r\n',
        '&#0;',
        '&#X41;',
        '&copy;',
        '&',
        '<',
        '\u0085',
        '\u2028',
        '\u0001',
        '\uFFFE',
        `&#${'0'.repeat(40)}1;`,
      ],
      60,
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));
const attribute = fc.tuple(names, mostly(['=', ' = ', '\n='], ['', '= '], 60), fc.constantFrom('"', "'"), valueText);
/** Attributes of distinct names, now and then one repeated. */
const attributes = (maxLength: number) =>
  fc
    .tuple(fc.uniqueArray(attribute, { maxLength, selector: ([name]) => name }), fc.nat(20))
    .map(([list, repeat]) => (repeat === 0 && list[0] ? [...list, list[0]] : list))
    .map((list) =>
      list.map(([name, eq, quote, value]) => ` ${name}${eq}${quote}${value.replaceAll(quote, '')}${quote}`),
    );
const between = mostly(
  ['', '\n', ' ', '\r\n', '\n  ', '<!-- c -->', '<?pi x?>', '<![CDATA[ ]]>', '&#32;', '\u00A0'],
  ['<!-- a -- b -->', '<![CDATA[x]]>', 'x', '<?xml x?>', '<!DOCTYPE x>', ']]>', '&#0;'],
  40,
);
const leaf = fc
  .tuple(names, attributes(4), fc.boolean())
  .map(([name, attributes, empty]) =>
    empty ? `<${name}${attributes.join('')}/>` : `<${name}${attributes.join('')}></${name}>`,
  );
const row = fc
  .tuple(names, attributes(3), fc.array(fc.tuple(between, leaf), { maxLength: 3 }))
  .map(([name, attributes, children]) => `<${name}${attributes.join('')}>${children.flat().join('')}</${name}>`);
const prolog = mostly(
  ['', '<?xml version="1.0"?>\n', '<?xml version="1.0" encoding="UTF-8"?>', '\uFEFF', ' \n', '<!-- c -->\n'],
  ['<?xml version="1.1"?>', '<!DOCTYPE request>', ' <?xml version="1.0"?>', 'x'],
);
const body = fc
  .tuple(
    prolog,
    mostly(['request'], ['items', 'x:request']),
    fc.array(fc.tuple(between, fc.oneof(leaf, row)), { maxLength: 5 }),
    between,
    mostly(['', '\n', '<!-- end -->'], ['<request/>', '</x>', 'x', '&#32;', '\u00A0']),
  )
  .map(([head, root, rows, tail, after]) => `${head}<${root}>${rows.flat().join('')}${tail}</${root}>${after}`);

describe('a big body the fast reader declines', () => {
  /** Rows enough that the body is past what the checked reader reads in one piece, with `at` before row 10. */
  const rowLine = (i: number) =>
    `  <book title="A book &amp; its title ${i}" isbn="${9_700_000_000_000 + i}" pages="123"/>\n`;
  const rowsNeeded = Math.ceil(checkedReadLimit / rowLine(0).length) + 10;
  const bigBody = (at: string, prolog = '<?xml version="1.0"?>') => {
    const rows = Array.from({ length: rowsNeeded }, (_, i) => rowLine(i));
    return `${prolog}\n<request>\n${rows.slice(0, 10).join('')}${at}${rows.slice(10).join('')}</request>\n`;
  };
  const lastLine = rowsNeeded + 4;

  it.each<[string, string, string]>([
    [
      'a comment ending in --->, which only the checked reader reads',
      bigBody('  <!-- a --->\n'),
      'The XML body is malformed at line 13, column 13: malformed comment',
    ],
    [
      'a repeated attribute',
      bigBody('  <book title="a" title="b"/>\n'),
      'The XML body is malformed at line 13, column 30: duplicate attribute: title',
    ],
    [
      'text between rows',
      bigBody('  hello\n'),
      'The XML body has text "hello" inside request at line 13, column 3; only elements and attributes are allowed',
    ],
    [
      'a row left open, found where its parent closes',
      bigBody('  <book title="x">\n'),
      `The XML body is malformed at line ${lastLine}, column 11: </request> where </book> belongs`,
    ],
    [
      'XML 1.1',
      bigBody('', '<?xml version="1.1"?>'),
      'The XML body declares XML 1.1; a body this big is read only as XML 1.0',
    ],
    [
      'a DOCTYPE',
      bigBody('', '<!DOCTYPE request>'),
      'The XML body declares a DOCTYPE at line 1, column 19; request bodies may not declare one',
    ],
    [
      'a character reference of more than 20 characters',
      bigBody('  <book title="&#000000000000000000065;"/>\n'),
      'The XML body has a character reference of more than 20 characters at line 13, column 16',
    ],
    [
      'a name beyond the Basic Multilingual Plane',
      bigBody('  <book t\u{10000}="1"/>\n'),
      'The XML body has the name "t\u{10000}" at line 13, column 16; a body this big may use only XML names of the Basic Multilingual Plane, and not __proto__, constructor or prototype',
    ],
    [
      'nesting deeper than the fast reader reads',
      bigBody(`  ${'<a>'.repeat(60)}${'</a>'.repeat(60)}\n`),
      'The XML body nests elements more than 50 deep, at line 13, column 153',
    ],
  ])('is refused with the reason it was declined, never read whole in one piece: %s', async (_, text, message) => {
    expect(text.length).toBeGreaterThan(checkedReadLimit);
    const refusal = { status: 400, code: 'bad_body', message };
    expect(await outcome(() => readXmlBody(text))).toEqual(refusal);
    expect(await outcome(() => readXmlBodyInSlices(text))).toEqual(refusal);
    expect(await outcome(() => readXmlBodyInSlices(text, 1000))).toEqual(refusal);
  });

  it('is read by the checked reader when what it leaves is small: the rows before are read already', async () => {
    const text = bigBody('').replace('</request>', '  <!-- a --->\n</request>');
    expect(text.length).toBeGreaterThan(checkedReadLimit);
    const tree = await readXmlBodyInSlices(text);
    expect(tree.children).toHaveLength(rowsNeeded);
    expect(await outcome(() => readXmlBody(text))).toEqual(await outcome(() => readXmlChecked(text)));
  });

  it('malformed near its end, gets the checked reader’s message', async () => {
    const text = bigBody('').replace('</request>', '<book title="unclosed">\n</request>');
    expect(await outcome(() => readXmlBodyInSlices(text))).toEqual(await outcome(() => readXmlChecked(text)));
  });
});
