/**
 * Table tests of the HTML pages (lib/serial/*-html, html-page and the HTML of the listing, documentation and
 * metadata): hostile values, names and query strings come out escaped everywhere; paging links by _limit/_offset
 * keep the other parameters; hierarchical rows nest their children; NULL is marked apart from an empty text; every
 * link starts with the stage prefix; every page has the one frame (viewport, header, inline style) and loads
 * nothing. Pure.
 */
import type { Field, SqlResource } from '../../lib/resource';
import { definitionHtml, highlightDefinition } from '../../lib/serial/definition-html';
import { htmlPage } from '../../lib/serial/html-page';
import { type ReadPage, rowsHtml } from '../../lib/serial/rows-html';
import { documentationHtml, documentationOf } from '../../lib/serial/serialize-documentation';
import { listingHtml, listingOf } from '../../lib/serial/serialize-listing';
import { metadataHtml } from '../../lib/serial/serialize-metadata';
import type { OutRow } from '../../lib/values';

const hostile = `<script>alert("x")</script>&'`;
const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;';

function field(label: string, table: string, extra: Partial<Field> = {}): Field {
  const base = { type: 'string', dbType: 'text', primaryKey: false, generated: false, readOnly: false } as const;
  return { label, table, column: label, ...base, nullable: true, hasDefault: false, ...extra };
}

const table = (name: string, role: SqlResource['tables'][string]['role'], primaryKey: string[], links = []) => ({
  name,
  schema: 'public',
  table: name,
  role,
  primaryKey,
  generatedColumns: [],
  uniqueKeys: [],
  links,
});

/** A flat resource whose name, labels and documentation are hostile. */
const flat: SqlResource = {
  name: `Book${hostile}`,
  file: 'Book.xml',
  kind: 'flat',
  database: 'demo',
  engine: 'postgres',
  query: 'select 1',
  rowName: 'book',
  collectionName: 'books',
  tables: { book: table('book', 'Parent', ['id']) },
  fields: [
    field('id', 'book', { type: 'integer', primaryKey: true, generated: true, hasDefault: true, nullable: false }),
    field('title', 'book', { nullable: false }),
    field(`note${hostile}`, 'book'),
  ],
  validations: [],
  cacheControl: 'no-cache',
  documentation: `About ${hostile}`,
};

/** Teams holding players: one-to-many. */
const teams: SqlResource = {
  ...flat,
  name: 'TeamPlayers',
  kind: 'one-to-many',
  rowName: 'team',
  collectionName: 'teams',
  childRowName: 'player',
  childCollectionName: 'players',
  tables: { team: table('team', 'Parent', ['team_id']), player: table('player', 'Child', ['player_id']) },
  fields: [
    field('team_id', 'team', { type: 'integer', primaryKey: true }),
    field('name', 'team'),
    field('player_id', 'player', { type: 'integer', primaryKey: true }),
    field('nickname', 'player'),
  ],
};

const page = (extra: Partial<ReadPage> = {}): ReadPage => ({ base: '', rawQuery: '', rowsRead: 0, ...extra });

describe('the page frame', () => {
  const pages = [
    { name: 'rows', html: () => rowsHtml(flat, [], page({ base: '/dev' })) },
    { name: 'documentation', html: () => documentationHtml(documentationOf(flat), '/dev') },
    { name: 'metadata', html: () => metadataHtml(flat, '/dev') },
    { name: 'definition', html: () => definitionHtml(flat.name, '<query>select 1</query>', '/dev') },
    { name: 'listing', html: () => listingHtml(listingOf([{ name: 'Book', resource: flat }], '/dev'), '/dev') },
    { name: 'frame', html: () => htmlPage('t', '/dev', '') },
  ];

  it.each(pages)('$name: viewport, the header under the prefix, an inline stylesheet, nothing loaded', async (made) => {
    const page = await made.html();
    // the one link element: an empty icon, so that the browser asks for no /favicon.ico
    expect(page.match(/<link[^>]*>/g)).toEqual(['<link rel="icon" href="data:,">']);
    const html = page.replace('<link rel="icon" href="data:,">', '');
    expect(html).toMatch(/^<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">/);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain(
      '<a href="/dev/res">Resources</a><a href="/dev/explorer">Explorer</a><a href="/dev/openapi.json">OpenAPI document</a>',
    );
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link|<img|src=|@import|url\(/);
    // every link stays in the service, under its prefix, or is relative to the page (paging)
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^(\/dev\/|\?)/);
  });
});

describe('escaping of hostile values, names and query strings', () => {
  const rows: OutRow[] = [{ values: { id: 1, title: hostile, [`note${hostile}`]: 'a & b' } }];
  const cases = [
    { name: 'rows: values, labels, resource name', html: () => rowsHtml(flat, rows, page()) },
    {
      name: 'rows: the query string in paging links',
      html: () => rowsHtml(flat, rows, page({ rawQuery: `q=${hostile}`, limit: 1, rowsRead: 1 })),
    },
    { name: 'documentation: name, labels, description', html: () => documentationHtml(documentationOf(flat), '') },
    { name: 'metadata: name and labels', html: () => metadataHtml(flat, '') },
    {
      name: 'definition: name and file text',
      html: () => definitionHtml(flat.name, `<query>select '${hostile}'</query>`, ''),
    },
    {
      name: 'listing: name and error text',
      html: () =>
        listingHtml(listingOf([{ name: hostile, error: { status: 500, code: 'x', message: hostile } }], ''), ''),
    },
  ];

  it.each(cases)('$name', async (made) => {
    const html = await made.html();
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('alert("x")');
    expect(html).toMatch(/&lt;script&gt;|%3Cscript%3E/);
    // an attribute value never ends early: every quote in a tag's attribute is a closing one
    for (const [tag] of html.matchAll(/<a [^>]*>/g)) expect(tag).toMatch(/^<a href="[^"<>]*">$/);
  });

  it('a value is escaped once, never twice; & in a value and in a query string is &amp;', async () => {
    const html = await rowsHtml(flat, rows, page({ rawQuery: 'title=a%26b&x=1&y=2', limit: 1, rowsRead: 1 }));
    expect(html).toContain(`<td>${escaped}</td>`);
    expect(html).toContain('<td>a &amp; b</td>');
    expect(html).toContain(`<th>note${escaped}</th>`);
    expect(html).toContain('href="?title=a%26b&amp;x=1&amp;y=2&amp;_limit=1&amp;_offset=1"');
  });
});

describe('paging links', () => {
  const hrefs = (html: string) =>
    Object.fromEntries([...html.matchAll(/<a href="(\?[^"]*)">(← previous|next →)<\/a>/g)].map((m) => [m[2], m[1]]));
  const cases: { rawQuery: string; limit?: number; offset?: number; rowsRead: number; expected: object }[] = [
    // no _limit: every row came back, nothing to page
    { rawQuery: '', rowsRead: 5, expected: {} },
    { rawQuery: '_offset=3', offset: 3, rowsRead: 5, expected: {} },
    // the first page, full: a next page only
    { rawQuery: '_limit=2', limit: 2, rowsRead: 2, expected: { 'next →': '?_limit=2&amp;_offset=2' } },
    // a full page in the middle; the other parameters kept as sent, in their order
    {
      rawQuery: 'a=%3E5&_limit=2&b=x+y&_offset=4',
      limit: 2,
      offset: 4,
      rowsRead: 2,
      expected: {
        '← previous': '?a=%3E5&amp;b=x+y&amp;_limit=2&amp;_offset=2',
        'next →': '?a=%3E5&amp;b=x+y&amp;_limit=2&amp;_offset=6',
      },
    },
    // the last page (fewer rows than the limit): a previous page only, never below 0
    {
      rawQuery: '_limit=10&_offset=3',
      limit: 10,
      offset: 3,
      rowsRead: 1,
      expected: { '← previous': '?_limit=10&amp;_offset=0' },
    },
    // an encoded name is still _limit / _offset, and is replaced
    {
      rawQuery: '%5Flimit=2&%5foffset=2',
      limit: 2,
      offset: 2,
      rowsRead: 0,
      expected: { '← previous': '?_limit=2&amp;_offset=0' },
    },
    // _limit=0 asks for no rows: no pages
    { rawQuery: '_limit=0', limit: 0, rowsRead: 0, expected: {} },
  ];

  it.each(cases)('$rawQuery, $rowsRead rows read → $expected', async ({ expected, ...read }) => {
    expect(hrefs(await rowsHtml(flat, [], page(read)))).toEqual(expected);
  });

  it('hierarchical: a next page while the joined rows read fill the limit, whatever the parents', async () => {
    const one: OutRow[] = [{ values: { team_id: 1, name: 'a' }, children: [] }];
    const html = await rowsHtml(teams, one, page({ rawQuery: '_limit=3', limit: 3, rowsRead: 3 }));
    expect(hrefs(html)).toEqual({ 'next →': '?_limit=3&amp;_offset=3' });
    expect(html).toContain('<p>1 team: rows 1 to 3 of the joined rows (one per team and player). The same as');
  });
});

describe('cells', () => {
  it('NULL is marked, an empty text is an empty cell, the text "NULL" is a plain one', async () => {
    const html = await rowsHtml(
      flat,
      [{ values: { id: 1, title: '', [`note${hostile}`]: null } }, { values: { id: 2, title: 'NULL' } }],
      page(),
    );
    expect(html).toContain('<tr><td>1</td><td></td><td class="null" title="NULL: no value">NULL</td></tr>');
    expect(html).toContain('<tr><td>2</td><td>NULL</td><td class="null" title="NULL: no value">NULL</td></tr>');
  });

  it('hierarchical rows hold their children in a table in their last cell; a childless parent has an empty one', async () => {
    const rows: OutRow[] = [
      {
        values: { team_id: 1, name: 'Owls' },
        children: [{ values: { player_id: 7, nickname: null } }, { values: { player_id: 8, nickname: 'Ace' } }],
      },
      { values: { team_id: 2, name: 'Larks' }, children: [] },
    ];
    const html = await rowsHtml(teams, rows, page({ rowsRead: 3 }));
    expect(html).toContain('<tr><th>team_id</th><th>name</th><th>players</th></tr>');
    expect(html).toContain(
      '<tr><td>1</td><td>Owls</td><td><table><tr><th>player_id</th><th>nickname</th></tr><tr><td>7</td><td class="null" title="NULL: no value">NULL</td></tr><tr><td>8</td><td>Ace</td></tr></table></td></tr>',
    );
    expect(html).toContain('<tr><td>2</td><td>Larks</td><td></td></tr>');
  });

  it.each([
    { read: {}, rows: 2, says: '<p>2 books. The same as' },
    { read: { limit: 2, offset: 4, rowsRead: 2 }, rows: 2, says: '<p>2 books: rows 5 to 6. The same as' },
    { read: { offset: 4, rowsRead: 1 }, rows: 1, says: '<p>1 book: rows 5 to 5. The same as' },
    { read: { limit: 2, offset: 4, rowsRead: 0 }, rows: 0, says: '<p>0 books. The same as' },
  ])('says how many rows, and which: $says', async ({ read, rows, says }) => {
    const some = Array.from({ length: rows }, (_, i) => ({ values: { id: i } }));
    expect(await rowsHtml(flat, some, page(read))).toContain(says);
  });

  it('no rows: says so, with no table', async () => {
    const html = await rowsHtml(flat, [], page());
    expect(html).toContain('<p>No rows.</p>');
    expect(html).not.toContain('<table>');
  });
});

describe('the links of a resource page', () => {
  it('rows: the documentation, definition, metadata and explorer under the prefix; XML and JSON as before', async () => {
    const html = await rowsHtml(teams, [], page({ base: '/dev', rawQuery: 'name=Owls' }));
    expect(html).toContain('<a href="/dev/conf/documentation/TeamPlayers">documentation</a>');
    expect(html).toContain('<a href="/dev/explorer">try it in the explorer</a>');
    expect(html).toContain('<a href="?name=Owls&amp;_output=xml">XML</a>');
    expect(html).not.toContain('>rows</a>');
  });

  it('rows of a flat resource: CSV too; a hierarchical one has none', async () => {
    expect(await rowsHtml(flat, [], page({ rawQuery: 'id=1' }))).toContain(
      'The same as <a href="?id=1&amp;_output=xml">XML</a>, <a href="?id=1&amp;_output=json">JSON</a> or <a href="?id=1&amp;_output=csv">CSV</a>.',
    );
    expect(await rowsHtml(teams, [], page())).not.toContain('CSV');
  });

  it('documentation: GET examples are links under the prefix, unless a value must be filled in', () => {
    const html = documentationHtml(documentationOf(teams), '/dev');
    expect(html).toContain('<li><code>GET <a href="/dev/res/TeamPlayers">/res/TeamPlayers</a></code></li>');
    expect(html).toContain('<li><code>GET /res/TeamPlayers/{team_id}</code></li>');
    expect(html).toContain('<a href="/dev/xsd/Request.xsd">/xsd/Request.xsd</a>');
  });
});

describe('the definition, highlighted', () => {
  it.each([
    { name: 'plain', text: '<rs:sqlResource><query>select a from t</query></rs:sqlResource>' },
    { name: 'a prefixed query element', text: '<x><rs:query>select a from t</rs:query></x>' },
    { name: 'entities in the query', text: '<x><query>select a from t where a &lt; 5</query></x>' },
    { name: 'no query', text: '<x/>' },
  ])('$name: the text is all there, the query highlighted as SQL', ({ text }) => {
    const html = highlightDefinition(text);
    const shown = html
      .replace(/<[^>]+>/g, '')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&');
    expect(shown).toBe(text);
    if (text.includes('select')) expect(html).toContain('<span class="hljs-keyword">select</span> a');
  });
});
