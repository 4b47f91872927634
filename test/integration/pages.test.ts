/**
 * The pages a browser gets, through the real handlers on the demo bookstore (embedded PGlite, always run): a read's
 * rows as a table with paging links (flat and one-to-many), /conf/definition highlighted, /conf/metadata as tables,
 * the documentation's "required" and many-to-many examples; and, for the same requests, every client that does not
 * ask for HTML (XML, JSON, `*​/*`, no Accept) gets the XML or JSON it always got, each answer saying `Vary: Accept`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { handler as confHandler } from '../../handlers/conf';
import { handler as readHandler } from '../../handlers/read';
import { demoDefinitions, useDemoService } from '../support/demo-service';
import { invoke, parseXml } from '../support/service';

const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const get = (p: string, headers: Record<string, string> = {}, query = '') =>
  invoke({ method: 'GET', path: p, headers, query });
useDemoService();

const notesOf = (doc: { fields: { label: string; notes: string }[] }) =>
  Object.fromEntries(doc.fields.map((f) => [f.label, f.notes]));

describe('the rows of a read', () => {
  it('a browser gets a table with paging links that keep the other parameters, and links to the documentation', async () => {
    const reply = await get('/res/Book', browser, 'in_print=true&_limit=2&_offset=2');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.headers.vary).toBe('Accept, Prefer');
    expect(reply.body).toMatch(/^<!DOCTYPE html>/);
    expect(reply.body).toContain('<th>id</th><th>publisher_id</th><th>title</th>');
    expect(reply.body.match(/<tr><td>/g)).toHaveLength(2);
    expect(reply.body).toContain('<a href="?in_print=true&amp;_limit=2&amp;_offset=0">← previous</a>');
    expect(reply.body).toContain('<a href="?in_print=true&amp;_limit=2&amp;_offset=4">next →</a>');
    expect(reply.body).toContain('<a href="/conf/documentation/Book">documentation</a>');
    expect(reply.body).toContain('<a href="/explorer">');
    expect(reply.body).toContain('<a href="/openapi.json">');
  });

  it('a hierarchical resource: each parent row holds a table of its children; a NULL is marked', async () => {
    const reply = await get('/res/PublisherBooks/3', browser);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.body).toContain('<th>publisher_id</th><th>publisher_name</th><th>country</th><th>books</th>');
    expect(reply.body).toMatch(/<tr><td>3<\/td><td>Blue Heron Books<\/td><td>US<\/td><td><table><tr><th>book_id<\/th>/);
    const flat = await get('/res/Book', browser, 'published=null&_limit=1');
    expect(flat.body).toContain('<td class="null" title="NULL: no value">NULL</td>');
  });

  it.each([
    { accept: undefined, output: undefined, type: 'application/xml' },
    { accept: '*/*', output: undefined, type: 'application/xml' },
    { accept: 'application/xml', output: undefined, type: 'application/xml' },
    { accept: 'application/json', output: undefined, type: 'application/json' },
    { accept: 'text/html', output: 'json', type: 'application/json' },
  ])('Accept $accept, _output $output: $type as before, with Vary: Accept', async ({ accept, output, type }) => {
    const query = `_limit=3${output ? `&_output=${output}` : ''}`;
    const reply = await get('/res/PublisherBooks', accept ? { accept } : {}, query);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe(type);
    expect(reply.headers.vary).toBe('Accept, Prefer');
    const expected = await get(
      '/res/PublisherBooks',
      {},
      `_limit=3&_output=${type === 'application/json' ? 'json' : 'xml'}`,
    );
    expect(reply.body).toBe(expected.body);
    if (type === 'application/xml') expect(parseXml(reply.body).readResponse).toBeDefined();
  });

  it('a write answers XML or JSON to a browser too, with Vary: Accept', async () => {
    const headers = { ...browser, 'content-type': 'application/x-www-form-urlencoded' };
    const reply = await invoke({ method: 'PUT', path: '/res/Publisher/3', headers, body: 'founded=1979' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/xml');
    expect(reply.headers.vary).toBe('Accept');
  });
});

describe('/conf pages', () => {
  it('definition: highlighted for a browser, the file as stored for everyone else', async () => {
    const stored = readFileSync(path.join(demoDefinitions, 'Book.xml'), 'utf8');
    const page = await get('/conf/definition/Book', browser);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers.vary).toBe('Accept');
    expect(page.body).toContain(
      '<span class="hljs-keyword">select</span> book_id <span class="hljs-keyword">as</span> id',
    );
    expect(page.body).toContain('<span class="hljs-name">rs:sqlResource</span>');
    expect(page.body).toContain('<span class="hljs-symbol">&amp;amp;</span>_output=json');
    for (const accept of [undefined, '*/*', 'application/xml', 'application/json']) {
      const reply = await get('/conf/definition/Book', accept ? { accept } : {});
      expect([reply.headers['content-type'], reply.body]).toEqual(['application/xml', stored]);
    }
  });

  it('metadata: tables of the resource, its tables and its fields for a browser; XML and JSON as before', async () => {
    const page = await get('/conf/metadata/BookAuthors', browser);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(
      '<td>book_author</td><td>Join</td><td>public.book_author</td><td>book_id, author_id</td>',
    );
    expect(page.body).toContain('<td>book_id</td><td>book</td><td>book_id</td><td>integer</td>');
    const xml = await get('/conf/metadata/BookAuthors', { accept: 'application/xml' });
    expect([xml.headers['content-type'], xml.body]).toEqual([
      'application/xml',
      (await get('/conf/metadata/BookAuthors')).body,
    ]);
    expect(parseXml(xml.body).metadata).toBeDefined();
    expect(JSON.parse((await get('/conf/metadata/BookAuthors', { accept: 'application/json' })).body).kind).toBe(
      'many-to-many',
    );
  });

  it('documentation: required is what an insert must send; GET examples are links', async () => {
    const doc = JSON.parse((await get('/conf/documentation/Book', { accept: 'application/json' })).body);
    const notes = notesOf(doc);
    expect(notes).toMatchObject({
      id: 'primary key; generated on insert',
      publisher_id: 'required',
      title: expect.stringMatching(/^required; validated/),
      in_print: 'database default',
      added_at: 'database default',
      published: '',
    });
    const page = await get('/conf/documentation/Book', browser);
    expect(page.body).toContain(
      '<code>GET <a href="/res/Book?_limit=10&amp;_offset=10">/res/Book?_limit=10&amp;_offset=10</a></code>',
    );
    expect(page.body).toContain('<code>GET /res/Book/{id}</code>');
  });

  it('documentation of a many-to-many resource: children are associated by key', async () => {
    const doc = JSON.parse((await get('/conf/documentation/BookAuthors', { accept: 'application/json' })).body);
    const notes = notesOf(doc);
    expect(notes).toMatchObject({ author_id: 'primary key; generated on insert; required', last_name: '' });
    expect(doc.examples).toContain(
      'POST /res/BookAuthors/{book_id} <request><author author_id="{author_id}"/></request> or {"authors":[{"author_id":{author_id}}]} (associates an existing author by its key)',
    );
    expect(doc.examples.join('\n')).not.toContain('last_name');
  });
});

describe('Vary: Accept', () => {
  it.each([
    { path: '/res', status: 200 },
    { path: '/res/Book', status: 200 },
    { path: '/conf/definition/Book', status: 200 },
    { path: '/conf/metadata/Book', status: 200 },
    { path: '/conf/documentation/Book', status: 200 },
    { path: '/res/Nope', status: 404 },
  ])('$path: on every answer whose body Accept chooses ($status)', async ({ path, status }) => {
    for (const accept of [browser.accept, 'application/json', 'application/problem+json', undefined]) {
      const reply = await get(path, accept ? { accept } : {}, path === '/res/Book' ? '_limit=1' : '');
      // a read of rows varies by Prefer too (Prefer: count=exact)
      const vary = path === '/res/Book' ? 'Accept, Prefer' : 'Accept';
      expect([reply.status, reply.headers.vary]).toEqual([status, vary]);
    }
  });
});

describe('behind an API Gateway stage', () => {
  /** An HTTP API event whose path carries the stage, as API Gateway sends it to the function. */
  const staged = (path: string, rawQueryString = '') => ({
    version: '2.0',
    routeKey: `GET ${path}`,
    rawPath: path,
    rawQueryString,
    headers: browser,
    isBase64Encoded: false,
    requestContext: { http: { method: 'GET', path } },
  });
  /** The page's links, but for its empty icon (`data:,`, which loads nothing). */
  const hrefs = (body: string) =>
    [...body.replace('<link rel="icon" href="data:,">', '').matchAll(/href="([^"]*)"/g)].map((m) => m[1]);

  it.each([
    { name: 'rows', call: () => readHandler(staged('/dev/res/Book', '_limit=2') as never) },
    { name: 'definition', call: () => confHandler(staged('/dev/conf/definition/Book') as never) },
    { name: 'metadata', call: () => confHandler(staged('/dev/conf/metadata/Book') as never) },
    { name: 'documentation', call: () => confHandler(staged('/dev/conf/documentation/Book') as never) },
  ])('$name: every link keeps the stage, or is relative to the page', async ({ call }) => {
    const reply = await call();
    expect(reply.statusCode).toBe(200);
    expect(hrefs(reply.body).length).toBeGreaterThan(4);
    for (const href of hrefs(reply.body)) expect(href).toMatch(/^(\/dev\/|\?)/);
  });
});
