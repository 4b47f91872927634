/**
 * The definition and maintenance paths (/conf/...) on every database: definition as stored, metadata in XML and
 * JSON, documentation for browsers and programs, reload, and the 404 of an unknown resource on each.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, parseXml, testDefinitions } from '../support/service';

const get = (p: string, headers: Record<string, string> = {}, query = '') =>
  invoke({ method: 'GET', path: p, headers, query });

/** The notes of each field of a documentation, by label. */
const notesOf = (doc: { fields: { label: string; notes: string }[] }) =>
  Object.fromEntries(doc.fields.map((f) => [f.label, f.notes]));

describe.each(targets())('/conf on $name', (target) => {
  useFixture(target);

  it('definition: the file as stored, application/xml', async () => {
    const reply = await get('/conf/definition/Item');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/xml');
    expect(reply.body).toBe(readFileSync(path.join(testDefinitions, 'Item.xml'), 'utf8'));
    expect((await get('/conf/definition/shop.Widget')).body).toContain('widget_id as id');
  });

  it('metadata in JSON: kind, names, tables with keys and links, fields with their flags', async () => {
    const reply = await get('/conf/metadata/Item', { accept: 'application/json' });
    expect(reply.headers['content-type']).toBe('application/json');
    const meta = JSON.parse(reply.body);
    expect(meta).toMatchObject({
      name: 'Item',
      kind: 'flat',
      rowName: 'item',
      collectionName: 'items',
      dialect: target.engine,
    });
    expect(meta.tables).toEqual([
      expect.objectContaining({ name: 'item', role: 'Parent', table: 'item', primaryKey: ['item_id'], links: [] }),
      expect.objectContaining({
        name: 'item_ext',
        role: 'ParentExtension',
        links: [{ columns: ['item_id'], target: 'item', references: ['item_id'] }],
      }),
    ]);
    expect(meta.fields.find((f: { label: string }) => f.label === 'id')).toMatchObject({
      table: 'item',
      column: 'item_id',
      type: 'integer',
      primaryKey: true,
      generated: true,
      readOnly: false,
      nullable: false,
    });
    expect(meta.fields.find((f: { label: string }) => f.label === 'double_price')).toMatchObject({
      table: null,
      readOnly: true,
    });
  });

  it('metadata in XML by default, for a many-to-many resource', async () => {
    const reply = await get('/conf/metadata/TeamTags');
    expect(reply.headers['content-type']).toBe('application/xml');
    const [meta] = parseXml(reply.body).metadata as Record<string, unknown>[];
    expect(meta).toMatchObject({
      name: 'TeamTags',
      kind: 'many-to-many',
      childRowName: 'tag',
      childCollectionName: 'tags',
    });
    const join = ((meta?.table ?? []) as Record<string, unknown>[]).find((t) => t.role === 'Join');
    expect(join?.primaryKey).toBe('team_id,tag_id');
    expect(((join?.link ?? []) as Record<string, string>[]).map((l) => l.target)).toEqual(['team', 'tag']);
    expect(((meta?.field ?? []) as Record<string, string>[]).find((f) => f.label === 'since')).toMatchObject({
      table: 'team_tag',
      generated: 'false',
    });
  });

  it('documentation: HTML for a browser, XML or JSON otherwise, from the definition and the metadata', async () => {
    const browser = await get('/conf/documentation/Item', {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    });
    expect(browser.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(browser.body).toContain('<h1>Item</h1>');
    expect(browser.body).toContain('Items of every value type');
    expect(browser.body).toContain('validated: type=String, regex=[a-z]+');
    const doc = JSON.parse((await get('/conf/documentation/Item', {}, '_output=json')).body);
    // required: what an insert must send (NOT NULL, no default, not generated), as the service checks it
    expect(notesOf(doc)).toMatchObject({
      id: 'primary key; generated on insert',
      name: 'required; validated: type=String, minLength=1, maxLength=40',
      price: 'database default',
      qty: 'validated: type=Numeric, minValue=0, maxValue=1000',
      double_price: 'read-only (computed)',
    });
    const tags = JSON.parse((await get('/conf/documentation/TeamTags', {}, '_output=json')).body);
    expect(notesOf(tags)).toMatchObject({
      tid: 'primary key; generated on insert; required',
      label: '',
      since: 'database default',
      team_name: 'required',
    });
    expect(doc.examples).toContain('GET /res/Item/{id}');
    expect(doc.schemas).toEqual(['/xsd/Request.xsd', '/xsd/Response.xsd']);
    expect(browser.body).toContain('<a href="/xsd/Request.xsd">/xsd/Request.xsd</a>');
    const [xml] = parseXml((await get('/conf/documentation/TeamPlayers')).body).documentation as Record<
      string,
      unknown
    >[];
    expect(xml?.kind).toBe('one-to-many');
    expect(((xml?.field ?? []) as Record<string, string>[]).map((f) => `${f.label}:${f.level}`)).toContain('pid:child');
  });

  it('reload answers text/plain', async () => {
    const reply = await get('/conf/reload/Item');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/plain/);
    expect(reply.body).toBe('Reload of Item succeeded');
  });

  it.each(['definition', 'metadata', 'documentation', 'reload'])(
    '/conf/%s of an unknown name is the exact D3 404',
    async (what) => {
      const reply = await get(`/conf/${what}/Nope`);
      expect(reply.status).toBe(404);
      expect(reply.body).toBe(`SQL Resource Nope not found - expected ${testDefinitions}/Nope.xml`);
      const invalid = await get(`/conf/${what}/..%2Fx`);
      expect(invalid.body).toBe(`SQL Resource ../x not found - expected ${testDefinitions}////x.xml`);
    },
  );

  it('a broken definition answers /conf/metadata and /conf/reload as /res would; /conf/definition still shows it', async () => {
    expect((await get('/conf/metadata/Broken')).status).toBe(500);
    expect((await get('/conf/reload/Broken')).body).toMatch(/Broken\.xml.*not declared/);
    expect((await get('/conf/definition/Broken')).status).toBe(200);
  });

  it('other methods are a 405 with Allow: GET, HEAD', async () => {
    const reply = await invoke({ method: 'POST', path: '/conf/reload/Item' });
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('GET, HEAD');
  });
});
