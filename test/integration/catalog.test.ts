/**
 * The catalogue paths (D24) on every database: GET /res lists every test resource in XML, JSON and HTML, the
 * Broken definition with its error; GET /openapi.json validates as OpenAPI 3.1 (@apidevtools/swagger-parser,
 * offline: every $ref is internal), describes every resource that loads with its operations, fields and both
 * media types, names Broken as left out, and its JSON schemas accept what the service really answers. The demo
 * definitions get the same checks on a PGlite seeded with the demo data.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020';
import { XMLValidator } from 'fast-xml-parser';
import { handler as catalogHandler } from '../../handlers/catalog';
import { deref, xmlOfExample } from '../openapi/xml-of-example';
import { targets } from '../support/databases';
import { useDemoService } from '../support/demo-service';
import { useFixture } from '../support/fixture';
import { invoke, parseXml } from '../support/service';

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON documents are walked freely; the assertions check their shape
type Json = Record<string, any>;

const get = (p: string, headers: Record<string, string> = {}, query = '') =>
  invoke({ method: 'GET', path: p, headers, query });

const loading = [
  'Events',
  'Item',
  'Loose',
  'Pair',
  'PlayerMotto',
  'PlayerTeam',
  'TeamByWeight',
  'TeamPlayers',
  'TeamRoster',
  'TeamTags',
  'shop.Widget',
];
const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const links = (name: string) => ({
  res: `/res/${name}`,
  definition: `/conf/definition/${name}`,
  metadata: `/conf/metadata/${name}`,
  documentation: `/conf/documentation/${name}`,
});

async function openApi(): Promise<Json> {
  const reply = await get('/openapi.json');
  expect(reply.status).toBe(200);
  expect(reply.headers['content-type']).toBe('application/json');
  return JSON.parse(reply.body);
}

/**
 * OpenAPI 3.1 validity: the document against the OAS 3.1 schema, every $ref resolved (swagger-parser), plus what
 * that schema cannot check: unique operationIds, path templates matching their path parameters, and every
 * component schema compiling as JSON Schema 2020-12.
 */
async function expectValidOpenApi(doc: Json): Promise<void> {
  await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  const ids: string[] = [];
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    const inTemplate = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(item as Json)) {
      if (method === 'parameters') continue;
      ids.push(op.operationId);
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => deref(doc, p));
      expect({ [`${method} ${template}`]: params.filter((p) => p.in === 'path').map((p) => p.name) }).toEqual({
        [`${method} ${template}`]: inTemplate,
      });
    }
  }
  expect(new Set(ids).size).toBe(ids.length);
  const ajv = schemaValidator(doc);
  for (const name of Object.keys(doc.components.schemas)) expect(ajv.getSchema(schemaId(name))).toBeDefined();
}

const schemaId = (name: string) => `openapi#/components/schemas/${name}`;

function schemaValidator(doc: Json): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false, allErrors: true });
  for (const keyword of ['xml', 'components']) ajv.addKeyword(keyword);
  ajv.addSchema({ $id: 'openapi', components: { schemas: doc.components.schemas } });
  return ajv;
}

/** The body of a real JSON response conforms to the named component schema. */
function expectConforms(ajv: Ajv2020, schema: string, body: string): void {
  const validate = ajv.getSchema(schemaId(schema));
  if (!validate) throw new Error(`no schema ${schema}`);
  const valid = validate(JSON.parse(body));
  expect({ schema, errors: validate.errors ?? [] }).toEqual({ schema, errors: [] });
  expect(valid).toBe(true);
}

const parameterNames = (doc: Json, op: Json) => (op.parameters as Json[]).map((p) => deref(doc, p).name);

describe.each(targets())('GET /res and /openapi.json on $name', (target) => {
  useFixture(target);

  it('lists every resource in JSON: kind, row and collection names, links; Broken with its error', async () => {
    const reply = await get('/res', { accept: 'application/json' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    const { resources } = JSON.parse(reply.body);
    expect(resources.map((r: Json) => r.name)).toEqual(['Broken', ...loading]);
    expect(resources[2]).toEqual({
      name: 'Item',
      kind: 'flat',
      rowName: 'item',
      collectionName: 'items',
      links: links('Item'),
    });
    const byName = Object.fromEntries(resources.map((r: Json) => [r.name, r]));
    expect(byName.TeamPlayers).toMatchObject({
      kind: 'one-to-many',
      childRowName: 'player',
      childCollectionName: 'players',
    });
    expect(byName.TeamTags).toMatchObject({ kind: 'many-to-many', childRowName: 'tag', childCollectionName: 'tags' });
    expect(byName.Pair).toMatchObject({ rowName: 'pair', collectionName: 'pairList' });
    expect(byName['shop.Widget']).toMatchObject({ rowName: 'widget', links: links('shop.Widget') });
    expect(byName.Broken).toEqual({
      name: 'Broken',
      links: links('Broken'),
      error: { status: 500, code: 'definition_invalid', message: expect.stringMatching(/Broken\.xml.*not declared/) },
    });
  });

  it('lists in XML by default, and in JSON by _output on /res/', async () => {
    const reply = await get('/res');
    expect(reply.headers['content-type']).toBe('application/xml');
    const [doc] = parseXml(reply.body).resources as Json[];
    const resources = doc?.resource as Json[];
    expect(resources.map((r) => r.name)).toEqual(['Broken', ...loading]);
    expect(resources[8]).toMatchObject({ name: 'TeamPlayers', kind: 'one-to-many', childRowName: 'player' });
    expect(resources[8]?.links).toEqual([links('TeamPlayers')]);
    expect(resources[0]?.kind).toBeUndefined();
    expect(resources[0]?.error).toEqual([
      { status: '500', code: 'definition_invalid', '#text': expect.stringMatching(/Broken\.xml.*not declared/) },
    ]);
    const json = await get('/res/', {}, '_output=json');
    expect(json.headers['content-type']).toBe('application/json');
    expect(JSON.parse(json.body).resources).toHaveLength(loading.length + 1);
  });

  it('lists in HTML for a browser, with links and the broken definition’s error', async () => {
    const reply = await get('/res', browser);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.body).toMatch(/^<!DOCTYPE html>/);
    expect(reply.body).toContain('<a href="/res/shop.Widget">rows</a>');
    expect(reply.body).toContain('<a href="/conf/documentation/TeamTags">documentation</a>');
    expect(reply.body).toContain('<a href="/openapi.json">');
    expect(reply.body).toMatch(
      /<td><code>Broken<\/code><\/td><td colspan="2" class="error">500 definition_invalid: Definition [^<]*Broken\.xml[^<]*not declared/,
    );
  });

  it('answers 406 for an Accept it cannot meet, and 405 with Allow: GET, HEAD to other methods', async () => {
    expect((await get('/res', { accept: 'text/csv' })).status).toBe(406);
    for (const p of ['/res', '/openapi.json']) {
      const reply = await invoke({ method: 'POST', path: p });
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('GET, HEAD');
    }
    const direct = await catalogHandler({
      version: '2.0',
      rawPath: '/openapi.json',
      rawQueryString: '',
      headers: {},
      requestContext: { http: { method: 'DELETE', path: '/openapi.json' } },
    } as never);
    expect(direct.statusCode).toBe(405);
    expect(direct.headers?.Allow).toBe('GET, HEAD');
  });

  it('serves an OpenAPI 3.1 document that validates, relative to "/", leaving Broken out and naming it', async () => {
    const doc = await openApi();
    await expectValidOpenApi(doc);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/', description: 'This service' }]);
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/res',
        '/openapi.json',
        '/health',
        '/health/db',
        '/res/Events',
        '/res/PlayerMotto',
        '/res/PlayerMotto/{pid}',
        '/res/PlayerTeam',
        '/res/PlayerTeam/{pid}',
        '/res/TeamByWeight',
        '/res/TeamByWeight/{team_no}',
        '/res/TeamRoster',
        '/res/TeamRoster/{team_no}',
        '/res/Item',
        '/res/Item/{id}',
        '/res/Loose',
        '/res/Pair',
        '/res/Pair/{code}/{num}',
        '/res/TeamPlayers',
        '/res/TeamPlayers/{team_no}',
        '/res/TeamTags',
        '/res/TeamTags/{team_no}',
        '/res/shop.Widget',
        '/res/shop.Widget/{id}',
      ].sort(),
    );
    expect(doc['x-broken-resources']).toEqual([
      { name: 'Broken', status: 500, code: 'definition_invalid', error: expect.stringMatching(/not declared/) },
    ]);
    expect(doc.info.description).toMatch(/left out of this document.*: Broken \(500 definition_invalid: /);
    expect(JSON.stringify(doc.components.schemas)).not.toContain('Broken');
  });

  it('gives every resource its operations; keyless ones update and delete by filter only; children only where hierarchical', async () => {
    const doc = await openApi();
    const methods = (p: string) =>
      Object.keys(doc.paths[p])
        .filter((k) => k !== 'parameters')
        .sort();
    for (const name of loading) expect(methods(`/res/${name}`)).toEqual(['delete', 'get', 'post', 'put']);
    const loose = doc.paths['/res/Loose'];
    expect(loose.put.summary).toMatch(/^U2: /);
    expect(Object.keys(loose.put.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    expect(loose.delete.summary).toMatch(/^D2: /);
    expect(loose.delete.requestBody).toBeUndefined();
    expect(doc.paths['/res/Events/{happened_at}']).toBeUndefined();
    expect(methods('/res/Item/{id}')).toEqual(['delete', 'get', 'put']);
    expect(methods('/res/TeamPlayers/{team_no}')).toEqual(['delete', 'get', 'post', 'put']);
    const pair = doc.paths['/res/Pair/{code}/{num}'];
    expect(pair.parameters).toEqual([
      expect.objectContaining({ name: 'code', in: 'path', required: true, schema: { type: 'string' } }),
      expect.objectContaining({ name: 'num', in: 'path', required: true, schema: { type: 'integer' } }),
    ]);
    const children = doc.paths['/res/TeamTags/{team_no}'].post.requestBody.content;
    expect(children['application/json'].schema).toEqual({ $ref: '#/components/schemas/TeamTags.ChildCollection' });
    const tags = children['application/xml'];
    expect(tags.example).toEqual({ tags: [{ tid: 1 }] });
    expect(xmlOfExample(doc, tags.schema, tags.example)).toBe('<request><tag tid="1"/></request>');
  });

  it('describes the fields as query filters with the D6 grammar, plus _limit, _offset, _order, _after, _output and Prefer on GET', async () => {
    const doc = await openApi();
    const fields = [
      'id',
      'name',
      'price',
      'qty',
      'big',
      'ratio',
      'active',
      'born',
      'at_time',
      'stamp',
      'data',
      'note',
      'color',
      'tag',
    ];
    const item = doc.paths['/res/Item'];
    expect(parameterNames(doc, item.get)).toEqual([
      ...fields,
      '_limit',
      '_offset',
      '_order',
      '_after',
      '_output',
      'Prefer',
      'If-None-Match',
    ]);
    expect(parameterNames(doc, item.put)).toEqual([...fields, '_output', 'If-Match']);
    expect(parameterNames(doc, item.delete)).toEqual([...fields, '_output', 'If-Match']);
    const price = deref(doc, item.get.parameters[2]);
    expect(price).toMatchObject({ name: 'price', in: 'query', required: false, schema: { type: 'string' } });
    for (const rule of ['`null`', '`!null`', '`!v`', '%3C%3D', '%3E', '`(a,b,c)`', 'LIKE', '`\\,`', 'equals'])
      expect(price.description).toContain(rule);
    expect(deref(doc, item.get.parameters[14])).toMatchObject({ schema: { type: 'integer', minimum: 0 } });
    expect(parameterNames(doc, doc.paths['/res/Item/{id}'].get)).toEqual(['_output', 'If-None-Match']);
  });

  it('gives request bodies in JSON, XML and form fields, and responses in JSON and XML with every error', async () => {
    const doc = await openApi();
    const post = doc.paths['/res/TeamPlayers'].post;
    expect(Object.keys(post.requestBody.content)).toEqual([
      'application/json',
      'application/xml',
      'application/x-www-form-urlencoded',
    ]);
    expect(post.requestBody.description).toContain('/xsd/Request.xsd');
    const body = post.requestBody.content['application/xml'];
    const xml = xmlOfExample(doc, body.schema, body.example);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<team team_no="1" team_name="text" motto="text"><player pid="1"');
    expect(
      Object.keys(deref(doc, post.requestBody.content['application/x-www-form-urlencoded'].schema).properties),
    ).toEqual(['team_no', 'team_name', 'motto']);
    expect(Object.keys(post.responses)).toEqual(['200', '400', '404', '406', '409', '413', '415', '500']);
    expect(Object.keys(doc.paths['/res/Item'].get.responses)).toEqual([
      '200',
      '304',
      '400',
      '404',
      '406',
      '413',
      '500',
    ]);
    expect(Object.keys(doc.paths['/res/Item/{id}'].put.responses)).toEqual([
      '200',
      '400',
      '404',
      '406',
      '409',
      '412',
      '413',
      '415',
      '500',
    ]);
    expect(Object.keys(doc.paths['/res/Item/{id}'].put.responses['200'].headers)).toEqual(['ETag']);
    const ok = doc.paths['/res/Item'].get.responses['200'].content;
    expect(ok['application/json'].schema).toEqual({ $ref: '#/components/schemas/Item.Collection' });
    expect(XMLValidator.validate(xmlOfExample(doc, ok['application/xml'].schema, ok['application/xml'].example))).toBe(
      true,
    );
    const written = post.responses['200'].content['application/xml'];
    expect(xmlOfExample(doc, written.schema, written.example)).toMatch(/<writeResponse rowsAffected="1"><team /);
    for (const name of [
      'BadRequest',
      'NotFound',
      'NotAcceptable',
      'Conflict',
      'ContentTooLarge',
      'UnsupportedMediaType',
      'ServerError',
    ]) {
      const content = doc.components.responses[name].content;
      expect(Object.keys(content)).toEqual(['text/plain', 'application/problem+json']);
    }
    expect(doc.components.schemas.Problem.required).toEqual(['type', 'title', 'status', 'detail', 'code']);
    // no operation described answers 405 (other methods do), so the document has no such response
    expect(doc.components.responses).not.toHaveProperty('MethodNotAllowed');
  });

  it('types each field from its value type: nullable, formats, read-only, validation rules, children', async () => {
    const schemas = (await openApi()).components.schemas;
    const item = schemas['Item.Row'].properties;
    expect(item.id).toMatchObject({ type: 'integer', xml: { attribute: true } });
    expect(item.price.type).toBe('number');
    expect(item.ratio.type).toEqual(['number', 'null']);
    expect(item.active.type).toEqual(['boolean', 'null']);
    expect(item.born).toMatchObject({ type: ['string', 'null'], format: 'date' });
    // no time or date-time format: RFC 3339's have a time zone offset, which the service neither writes nor takes
    expect(item.at_time).not.toHaveProperty('format');
    expect(item.stamp).not.toHaveProperty('format');
    expect(item.data).toMatchObject({ format: 'byte', contentEncoding: 'base64' });
    expect(item.double_price).toMatchObject({ readOnly: true });
    expect(item.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 40 });
    expect(item.color).toMatchObject({ type: ['string', 'null'], pattern: '^(?:[a-z]+)$' });
    expect(item.qty).toMatchObject({ minimum: 0, maximum: 1000 });
    expect(schemas['Item.Collection'].required).toEqual(['items']);
    expect(schemas['Pair.Collection'].properties.pairList.items).toEqual({ $ref: '#/components/schemas/Pair.Row' });
    expect(schemas['TeamPlayers.Row'].properties.players.items).toEqual({
      $ref: '#/components/schemas/TeamPlayers.ChildRow',
    });
    expect(Object.keys(schemas['TeamPlayers.ChildRow'].properties)).toEqual([
      'pid',
      'player_name',
      'shirt',
      'nickname',
    ]);
    expect(schemas['TeamPlayers.ChildRow'].properties.shirt).toMatchObject({ minimum: 0, maximum: 99 });
    expect(schemas['TeamTags.ChildRow'].xml).toEqual({ name: 'tag' });
  });

  it('has JSON schemas that the real responses conform to: reads, and inserts with their echo', async () => {
    const doc = await openApi();
    const ajv = schemaValidator(doc);
    for (const name of loading)
      expectConforms(ajv, `${name}.Collection`, (await get(`/res/${name}`, {}, '_output=json')).body);
    const insert = await invoke({
      method: 'POST',
      path: '/res/TeamPlayers/1',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ players: [{ player_name: 'Eve', shirt: 5 }] }),
    });
    expect(insert.status).toBe(200);
    expectConforms(ajv, 'TeamPlayers.WriteResult', insert.body);
    const broken = JSON.stringify({ items: [{ id: 'one', price: true }] });
    expect(ajv.getSchema(schemaId('Item.Collection'))?.(JSON.parse(broken))).toBe(false);
  });
});

describe('GET /openapi.json and /res for the demo definitions on PGlite', () => {
  const demo = [
    'Book',
    'BookAuthors',
    'BookReviews',
    'BookWithDetail',
    'Inventory',
    'PriceHistory',
    'Publisher',
    'PublisherBooks',
    'bookstore.Author',
  ];
  useDemoService();

  it('lists every demo resource, none broken', async () => {
    const { resources } = JSON.parse((await get('/res', { accept: 'application/json' })).body);
    expect(resources.map((r: Json) => r.name)).toEqual(demo);
    expect(resources.filter((r: Json) => r.error || !r.kind)).toEqual([]);
  });

  it('validates as OpenAPI 3.1 and describes every demo resource, whose reads conform to their schemas', async () => {
    const doc = await openApi();
    await expectValidOpenApi(doc);
    expect(doc['x-broken-resources']).toEqual([]);
    expect(doc.info.description).not.toContain('left out');
    expect(doc.tags.map((t: Json) => t.name)).toEqual(['catalog', 'health', ...demo]);
    expect(doc.paths['/res/Inventory/{store_code}/{book_id}']).toBeDefined();
    expect(doc.paths['/res/BookAuthors/{book_id}'].post).toBeDefined();
    const ajv = schemaValidator(doc);
    for (const name of demo) {
      expect(doc.paths[`/res/${name}`].get.operationId).toBeDefined();
      const reply = await get(`/res/${name}`, {}, '_limit=50&_output=json');
      expect(reply.status).toBe(200);
      expectConforms(ajv, `${name}.Collection`, reply.body);
    }
  });
});
