import { parse as parseLossless } from 'lossless-json';
import { serializeRead } from '../../lib/serial/serialize-read';
import type { OutputType, OutRow } from '../../lib/values';
import { el, flat, fullRow, hierarchical, readXml } from './fixtures';

const declaration = '<?xml version="1.0" encoding="UTF-8"?>';

describe('serializeRead XML', () => {
  it('writes every value type as an attribute, in field order', async () => {
    expect(await serializeRead(flat, [fullRow], 'application/xml')).toEqual(
      `${declaration}<readResponse><item id="12345678901234567890" price="20.10" ratio="0.25" active="true" ` +
        'born="2024-02-29" opens="08:30:00.5" updated="2024-02-29 23:59:59.123456" photo="aGk=" ' +
        'title="Airport Pollock"/></readResponse>',
    );
  });

  it('omits NULL attributes but keeps empty strings', async () => {
    const rows: OutRow[] = [{ values: { id: 1, price: null, title: '', active: null } }];
    expect(readXml(await serializeRead(flat, rows, 'application/xml'))).toEqual([
      el('readResponse', {}, [el('item', { id: '1', title: '' })]),
    ]);
  });

  it('writes an empty result as <readResponse/>', async () => {
    expect(await serializeRead(flat, [], 'application/xml')).toEqual(`${declaration}<readResponse/>`);
  });

  it('keeps row order and the key order of each row', async () => {
    const rows: OutRow[] = [{ values: { title: 'b', id: 3 } }, { values: { id: 1, title: 'a' } }];
    const xml = await serializeRead(flat, rows, 'application/xml');
    expect(xml).toContain('<item title="b" id="3"/><item id="1" title="a"/>');
  });

  it('nests children under their parent and writes a childless parent self-closed', async () => {
    const rows: OutRow[] = [
      { values: { langId: 1, langName: 'English' }, children: [{ values: { filmId: 2, title: 'B', rate: '0.00' } }] },
      { values: { langId: 2, langName: 'Italian' }, children: [] },
      { values: { langId: 3, langName: 'Klingon' } },
    ];
    expect(await serializeRead(hierarchical, rows, 'application/xml')).toEqual(
      `${declaration}<readResponse><lang langId="1" langName="English"><movie filmId="2" title="B" rate="0.00"/>` +
        '</lang><lang langId="2" langName="Italian"/><lang langId="3" langName="Klingon"/></readResponse>',
    );
  });

  it('escapes markup, quotes and line breaks so the values survive a parse', async () => {
    const xml = await serializeRead(flat, [{ values: { title: 'a & <b> "c"\n\td\r' } }], 'application/xml');
    expect(xml).toContain('title="a &amp; &lt;b&gt; &quot;c&quot;&#10;&#9;d&#13;"');
  });

  it.each([
    ['ampersand', 'Tom & Jerry'],
    ['an entity-looking text', '&amp; &lt; &#10; &unknown;'],
    ['markup', '<script>alert(1)</script>'],
    ['double quotes', 'say "hi"'],
    ['single quotes', "it's"],
    ['a newline', 'line 1\nline 2'],
    ['a CRLF', 'line 1\r\nline 2'],
    ['a tab', 'a\tb'],
    ['surrounding spaces', '  padded  '],
    ['a CDATA end', ']]>'],
    ['non-ASCII', 'Zoë ♥ 日本 😀'],
    ['an empty string', ''],
  ])('round-trips %s through XML and JSON', async (_what, title) => {
    const rows: OutRow[] = [{ values: { id: 1, title } }];
    expect(readXml(await serializeRead(flat, rows, 'application/xml'))).toEqual([
      el('readResponse', {}, [el('item', { id: '1', title })]),
    ]);
    expect(JSON.parse(await serializeRead(flat, rows, 'application/json'))).toEqual({ items: [{ id: 1, title }] });
  });

  it('replaces characters XML cannot carry with U+FFFD, and JSON keeps them', async () => {
    const rows: OutRow[] = [{ values: { title: 'a\u0001b\u001fc' } }];
    expect(readXml(await serializeRead(flat, rows, 'application/xml'))[0]?.children[0]?.attributes).toEqual({
      title: 'a\uFFFDb\uFFFDc',
    });
    expect(await serializeRead(flat, rows, 'application/json')).toEqual('{"items":[{"title":"a\\u0001b\\u001fc"}]}');
  });
});

describe('serializeRead JSON', () => {
  it('writes numbers as raw tokens with the exact digits, booleans unquoted, the rest as strings', async () => {
    expect(await serializeRead(flat, [fullRow], 'application/json')).toEqual(
      '{"items":[{"id":12345678901234567890,"price":20.10,"ratio":0.25,"active":true,"born":"2024-02-29",' +
        '"opens":"08:30:00.5","updated":"2024-02-29 23:59:59.123456","photo":"aGk=","title":"Airport Pollock"}]}',
    );
  });

  it('keeps decimals and bigints exact for a lossless reader', async () => {
    const rows: OutRow[] = [{ values: { id: '9007199254740993', price: '0.00' } }];
    const parsed = parseLossless(await serializeRead(flat, rows, 'application/json'), null, (digits) => digits);
    expect(parsed).toEqual({ items: [{ id: '9007199254740993', price: '0.00' }] });
  });

  it('writes NULL as null', async () => {
    const rows: OutRow[] = [{ values: { id: 1, price: null, active: null, title: null } }];
    expect(await serializeRead(flat, rows, 'application/json')).toEqual(
      '{"items":[{"id":1,"price":null,"active":null,"title":null}]}',
    );
  });

  it('writes an empty result as an empty collection', async () => {
    expect(await serializeRead(flat, [], 'application/json')).toEqual('{"items":[]}');
    expect(await serializeRead(hierarchical, [], 'application/json')).toEqual('{"langs":[]}');
  });

  it('gives every hierarchical parent its child collection, [] when it has none', async () => {
    const rows: OutRow[] = [
      { values: { langId: 1 }, children: [{ values: { filmId: 2, rate: '4.99' } }, { values: { filmId: 3 } }] },
      { values: { langId: 2 } },
      { values: { langId: 3 }, children: [] },
    ];
    expect(await serializeRead(hierarchical, rows, 'application/json')).toEqual(
      '{"langs":[{"langId":1,"movies":[{"filmId":2,"rate":4.99},{"filmId":3}]},{"langId":2,"movies":[]},' +
        '{"langId":3,"movies":[]}]}',
    );
  });

  it('gives flat rows no child collection', async () => {
    expect(await serializeRead(flat, [{ values: { id: 1 } }], 'application/json')).toEqual('{"items":[{"id":1}]}');
  });

  it('decides on the child collection by the resource kind, not by the names alone', async () => {
    const odd = { ...flat, childRowName: 'part', childCollectionName: 'parts' };
    expect(await serializeRead(odd, [{ values: { id: 1 } }], 'application/json')).toEqual('{"items":[{"id":1}]}');
  });

  it('escapes property names too', async () => {
    expect(await serializeRead(flat, [{ values: { 'we"ird': 1 } }], 'application/json')).toEqual(
      '{"items":[{"we\\"ird":"1"}]}',
    );
  });
});

describe('serializeRead for any output type', () => {
  const types: OutputType[] = ['application/xml', 'application/json'];

  it.each(types)('%s: treats a label that is not a field as a string', async (type) => {
    const out = await serializeRead(flat, [{ values: { extra: 42 } }], type);
    expect(out).toContain(type === 'application/json' ? '"extra":"42"' : 'extra="42"');
  });

  it.each(types)('%s: refuses children on a flat resource instead of dropping them', async (type) => {
    const rows: OutRow[] = [{ values: { id: 1 }, children: [{ values: { id: 2 } }] }];
    await expect(serializeRead(flat, rows, type)).rejects.toThrow('Rows of resource test.item cannot carry children');
  });
});

describe('serializeRead of many rows, written a slice at a time', () => {
  const rows: OutRow[] = Array.from({ length: 700 }, (_, i) => ({
    values: { id: i, title: `t${i}` },
    ...(i % 2 === 0 ? { children: [{ values: { filmId: i } }, { values: { filmId: -i } }] } : {}),
  }));
  const hierarchicalRows = rows.map((row) => ({ ...row, children: row.children ?? [] }));

  it.each<OutputType>(['application/xml', 'application/json'])(
    '%s: every row once, in order, each as it is written alone',
    async (type) => {
      const whole = await serializeRead(hierarchical, hierarchicalRows, type);
      const alone = await Promise.all(hierarchicalRows.map((row) => serializeRead(hierarchical, [row], type)));
      const inner = (text: string) =>
        type === 'application/json' ? text.slice('{"langs":['.length, -2) : text.slice(text.indexOf('<lang'), -15);
      expect(inner(whole)).toEqual(alone.map(inner).join(type === 'application/json' ? ',' : ''));
    },
  );

  it('refuses children on a flat resource in a late slice too', async () => {
    const late = rows.map((row, i) => (i < 650 ? { values: row.values } : row));
    await expect(serializeRead(flat, late, 'application/json')).rejects.toThrow('cannot carry children');
  });
});
