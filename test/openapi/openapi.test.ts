/**
 * The OpenAPI generator and the listing serializers on hand-built resources (D24), no database: field types,
 * compound and missing keys, hierarchical children, operationIds kept unique, a mount prefix, broken definitions;
 * and the validator used by the integration tests rejects what is not OpenAPI 3.1.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { XMLParser } from 'fast-xml-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Privilege } from '../../lib/auth/caller';
import { buildOpenApi } from '../../lib/openapi/build-openapi';
import { rowSchema } from '../../lib/openapi/field-schemas';
import type { Field, SqlResource } from '../../lib/resource';
import { type CatalogEntry, listingHtml, listingOf, serializeListing } from '../../lib/serial/serialize-listing';
import { bookResource, editionResource, field, languageResource, logResource } from '../support/resources';
import { xmlOfExample } from './xml-of-example';

// biome-ignore lint/suspicious/noExplicitAny: the generated document is walked freely; the assertions check its shape
type Json = Record<string, any>;

const broken: CatalogEntry = {
  name: 'Broken',
  error: { status: 500, code: 'definition_invalid', message: 'Definition /d/Broken.xml is invalid: a <b> & "c"' },
};
const entries: CatalogEntry[] = [
  { name: 'shop.Book', resource: bookResource('postgres') },
  broken,
  { name: 'Edition', resource: editionResource('mysql') },
  { name: 'Lang', resource: languageResource('postgres') },
  { name: 'Log', resource: logResource('postgres') },
];
const doc = buildOpenApi(entries, { serverUrl: '/dev', maxRows: 10_000 }) as Json;
const validate = (api: Json) => SwaggerParser.validate(structuredClone(api) as never);

describe('buildOpenApi', () => {
  it('is valid OpenAPI 3.1, and the validator rejects documents that are not', async () => {
    await expect(validate(doc)).resolves.toBeDefined();
    const { version: _, ...info } = doc.info;
    await expect(validate({ ...doc, info })).rejects.toThrow(/version/);
    const schemas = { ...doc.components.schemas, 'a row': { type: 'object' } };
    await expect(validate({ ...doc, components: { ...doc.components, schemas } })).rejects.toThrow();
    await expect(
      validate({ ...doc, paths: { '/res/X': { get: { responses: { 200: { $ref: '#/nope' } } } } } }),
    ).rejects.toThrow();
  });

  it('serves relative to the mount prefix and leaves a broken definition out, naming it', () => {
    expect(doc.servers).toEqual([{ url: '/dev', description: 'This service' }]);
    expect(doc['x-broken-resources']).toEqual([
      { name: 'Broken', status: 500, code: 'definition_invalid', error: broken.error?.message },
    ]);
    expect(doc.info.description).toContain('1 definition(s) failed to load and are left out of this document');
    expect(Object.keys(doc.paths).filter((p) => p.includes('Broken'))).toEqual([]);
    expect(buildOpenApi(entries.slice(0, 1), { serverUrl: '/', maxRows: 10_000 }).info).not.toHaveProperty(
      'description',
      expect.stringContaining('left out'),
    );
  });

  it('addresses rows by the Parent key in key order, typed; without a selected key, no key path but U2 and D2', () => {
    const edition = doc.paths['/res/Edition/{isbn}/{editionNo}'];
    expect(edition.parameters.map((p: Json) => [p.name, p.in, p.schema])).toEqual([
      ['isbn', 'path', { type: 'string' }],
      ['editionNo', 'path', { type: 'integer' }],
    ]);
    expect(Object.keys(doc.paths['/res/Log'])).toEqual(['get', 'post', 'put', 'delete']);
    expect(doc.paths['/res/Log'].put.summary).toBe('U2: update the rows a filter matches');
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/res/Log/'))).toEqual([]);
    expect(Object.keys(doc.paths['/res/shop.Book/{id}']).sort()).toEqual(['delete', 'get', 'parameters', 'put']);
    expect(Object.keys(doc.paths['/res/Lang/{langId}']).sort()).toEqual(['delete', 'get', 'parameters', 'post', 'put']);
  });

  it('nests child rows in hierarchical schemas and takes child rows under a parent in the path', () => {
    const schemas = doc.components.schemas;
    expect(schemas['Lang.Row'].properties.movies).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/Lang.ChildRow' },
    });
    expect(Object.keys(schemas['Lang.ChildRow'].properties)).toEqual(['filmId', 'title']);
    expect(schemas['Lang.ChildCollection'].required).toEqual(['movies']);
    expect(schemas['Edition.ChildRow']).toBeUndefined();
    const body = doc.paths['/res/Lang/{langId}'].post.requestBody.content;
    expect(Object.keys(body)).toEqual(['application/json', 'application/xml']);
    expect(body['application/xml'].example).toEqual({ movies: [{ filmId: 1, title: 'text' }] });
    expect(body['application/json'].example).toEqual(body['application/xml'].example);
    expect(xmlOfExample(doc, body['application/xml'].schema, body['application/xml'].example)).toBe(
      '<request><movie filmId="1" title="text"/></request>',
    );
    expect(doc.paths['/res/shop.Book/{id}'].delete.requestBody).toBeUndefined();
  });

  it("bounds _limit by MAX_ROWS, or by a definition's own cap on its reads (D26)", async () => {
    const capped: CatalogEntry = {
      name: 'Capped',
      resource: { ...bookResource('postgres'), name: 'Capped', maxRows: 50 },
    };
    const both = buildOpenApi([entries[0] as CatalogEntry, capped], { serverUrl: '/', maxRows: 700 }) as Json;
    await expect(validate(both)).resolves.toBeDefined();
    const limitOf = (path: string) => both.paths[path].get.parameters.find((p: Json) => p.$ref.endsWith('_limit'));
    expect(both.components.parameters.Limit.schema).toEqual({ type: 'integer', minimum: 0, maximum: 700 });
    expect(both.components.parameters.Limit.description).toContain('more than 700 rows is a 413 `too_many_rows`');
    expect(both.paths['/res/shop.Book'].get.parameters).toContainEqual({ $ref: '#/components/parameters/Limit' });
    expect(limitOf('/res/Capped')).toEqual({ $ref: '#/components/parameters/Capped._limit' });
    expect(both.components.parameters['Capped._limit'].schema.maximum).toBe(50);
    expect(both.components.parameters).not.toHaveProperty('shop.Book._limit');
  });

  it('offers _order on reads of rows: every orderable label, up or down, comma-separated', () => {
    expect(doc.paths['/res/Log'].get.parameters).toContainEqual({ $ref: '#/components/parameters/Log._order' });
    expect(doc.paths['/res/Log/{id}']?.get.parameters ?? []).not.toContainEqual({
      $ref: '#/components/parameters/Log._order',
    });
    const order = doc.components.parameters['Log._order'];
    expect(order).toMatchObject({ name: '_order', in: 'query', style: 'form', explode: false });
    // binary and JSON fields have no order
    expect(order.schema.items.enum).toEqual(['message', '-message', 'at', '-at', 'level', '-level']);
    expect(doc.components.parameters['Lang._order'].description).toContain('child fields the children');
  });

  it('offers _after and Prefer on reads of rows, whose 200 declares Content-Range, Link and Preference-Applied', () => {
    const rows = doc.paths['/res/shop.Book'].get;
    expect(rows.parameters).toContainEqual({ $ref: '#/components/parameters/After' });
    expect(rows.parameters).toContainEqual({ $ref: '#/components/parameters/Prefer' });
    expect(doc.components.parameters.After).toMatchObject({ name: '_after', in: 'query' });
    expect(doc.components.parameters.Prefer).toMatchObject({ name: 'Prefer', in: 'header' });
    expect(Object.keys(rows.responses['200'].headers)).toEqual([
      'Cache-Control',
      'ETag',
      'Content-Range',
      'Link',
      'Preference-Applied',
    ]);
    const one = doc.paths['/res/shop.Book/{id}'].get;
    expect(one.parameters).not.toContainEqual({ $ref: '#/components/parameters/After' });
    expect(Object.keys(one.responses['200'].headers)).toEqual(['Cache-Control', 'ETag']);
  });

  it('offers text/csv on reads of flat resources and on their inserts: a string, its example the example row', () => {
    const book = doc.paths['/res/shop.Book'];
    const json = book.get.responses['200'].content['application/json'].example.books[0];
    const read = book.get.responses['200'].content['text/csv'];
    expect(read.schema).toEqual({ type: 'string' });
    expect(read.example).toBe(`${Object.keys(json).join(',')}\r\n${Object.values(json).join(',')}\r\n`);
    expect(doc.paths['/res/shop.Book/{id}'].get.responses['200'].content['text/csv']).toEqual(read);
    const insert = book.post.requestBody.content['text/csv'];
    const row = book.post.requestBody.content['application/json'].example.books[0];
    expect(insert).toEqual({
      schema: { type: 'string' },
      example: `${Object.keys(row).join(',')}\r\n${Object.values(row).join(',')}\r\n`,
    });
    expect(book.post.requestBody.description).toMatch(/CSV: a header row of field labels/);
    expect(Object.keys(book.put.requestBody.content)).not.toContain('text/csv');
    expect(Object.keys(book.delete.requestBody.content)).not.toContain('text/csv');
    expect(Object.keys(doc.paths['/res/Lang'].get.responses['200'].content)).toEqual([
      'application/json',
      'application/xml',
    ]);
    expect(Object.keys(doc.paths['/res/Lang'].post.requestBody.content)).not.toContain('text/csv');
    expect(doc.components.parameters.Output.schema.enum).toEqual(
      expect.arrayContaining(['text/csv', 'csv', 'application/xml', 'application/json', 'xml', 'json']),
    );
  });

  it('keeps operationIds unique when names differ only in punctuation', () => {
    const a = { ...bookResource('postgres'), name: 'a.b' };
    const b = { ...bookResource('postgres'), name: 'a_b' };
    const ids = Object.values(
      buildOpenApi(
        [
          { name: 'a.b', resource: a },
          { name: 'a_b', resource: b },
        ],
        { serverUrl: '/', maxRows: 10_000 },
      ).paths as Json,
    )
      .flatMap((item: Json) => Object.values(item).map((op: Json) => op.operationId))
      .filter(Boolean);
    expect(ids).toContain('readA_b');
    expect(ids).toContain('readA_b2');
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('buildOpenApi with sign-in', () => {
  const held: Record<string, Privilege[]> = { 'shop.Book': ['select', 'delete'], Lang: ['select'] };
  const granted = (name: string) => held[name] ?? [];
  const signedIn = buildOpenApi(entries, { serverUrl: '/', granted, maxRows: 10_000 }) as Json;
  const operations = (api: Json) =>
    Object.entries(api.paths as Json).flatMap(([p, item]) =>
      Object.keys(item as Json)
        .filter((key) => ['get', 'post', 'put', 'delete'].includes(key))
        .map((method) => `${method} ${p}`),
    );

  it('is valid OpenAPI 3.1, requires the bearer token everywhere and documents 401 and 403', async () => {
    await expect(validate(signedIn)).resolves.toBeDefined();
    expect(signedIn.security).toEqual([{ bearer: [] }]);
    expect(signedIn.components.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    });
    expect(signedIn.components.responses.Unauthorized.headers).toHaveProperty('WWW-Authenticate');
    for (const [p, item] of Object.entries(signedIn.paths as Json))
      for (const [method, operation] of Object.entries(item as Json).filter(([m]) => m !== 'parameters'))
        expect([method, p, Object.keys(operation.responses).filter((s) => s === '401' || s === '403')]).toEqual([
          method,
          p,
          p.startsWith('/health') ? [] : ['401', '403'],
        ]);
    expect(signedIn.paths['/health'].get.security).toEqual([]);
  });

  it('describes only the operations the caller may use', () => {
    const described = operations(signedIn).filter((o) => o.includes(' /res/'));
    expect(described.length).toBeGreaterThan(0);
    for (const operation of described) expect(operation).toMatch(/^(get|delete) \/res\/shop\.Book|^get \/res\/Lang/);
    expect(described.some((o) => o.startsWith('delete /res/shop.Book'))).toBe(true);
    expect(operations(signedIn).filter((o) => !o.includes(' /res/'))).toEqual(
      operations(doc).filter((o) => !o.includes(' /res/')),
    );
  });

  it('says nothing of sign-in without it, but that no operation needs a token', () => {
    expect(doc.security).toEqual([]);
    expect(doc.components).not.toHaveProperty('securitySchemes');
    expect(Object.keys(doc.components.responses)).not.toContain('Unauthorized');
  });
});

describe('the schema of each field of a row', () => {
  const resource: SqlResource = bookResource('postgres');
  /** The schema of the field `label` in the book row, with `fields` as the resource's fields. */
  const schemaOf = (label: string, fields: readonly Field[] = resource.fields) =>
    rowSchema({ ...resource, fields }, 'parent').properties?.[label] as OpenAPIV3_1.SchemaObject;
  const schema = (type: Parameters<typeof field>[1], options: Parameters<typeof field>[4] = {}) =>
    schemaOf('f', [...resource.fields, field('f', type, 'book', 'f', options)]);

  it.each([
    ['integer', ['integer', 'null'], undefined],
    ['decimal', ['number', 'null'], undefined],
    ['float', ['number', 'null'], undefined],
    ['boolean', ['boolean', 'null'], undefined],
    ['date', ['string', 'null'], 'date'],
    // RFC 3339's time and date-time have a time zone offset, which the service neither writes nor takes
    ['time', ['string', 'null'], undefined],
    ['timestamp', ['string', 'null'], undefined],
    ['binary', ['string', 'null'], 'byte'],
    ['string', ['string', 'null'], undefined],
  ] as const)('%s is %j with format %s', (type, json, format) => {
    const out = schema(type);
    expect(out.type).toEqual(json);
    expect(out.format).toBe(format);
  });

  it('marks keys non-null, computed fields read-only, extension fields nullable, and applies validation rules', () => {
    expect(schema('integer', { primaryKey: true }).type).toBe('integer');
    expect(schemaOf('titleLength')).toMatchObject({ readOnly: true, type: ['integer', 'null'] });
    const summaryNotNull = resource.fields.map((f) => (f.label === 'summary' ? { ...f, nullable: false } : f));
    expect(schemaOf('summary', summaryNotNull).type).toEqual(['string', 'null']);
    expect(schemaOf('title')).toMatchObject({
      maxLength: 20,
      description: expect.stringContaining('validated: type=String, maxLength=20'),
    });
  });
});

describe('listing serializers', () => {
  const listing = listingOf(entries, '/dev');

  it('links each resource under the mount prefix and carries the error of a broken one', () => {
    expect(listing[0]).toEqual({
      name: 'shop.Book',
      kind: 'flat',
      rowName: 'book',
      collectionName: 'books',
      links: {
        res: '/dev/res/shop.Book',
        definition: '/dev/conf/definition/shop.Book',
        metadata: '/dev/conf/metadata/shop.Book',
        documentation: '/dev/conf/documentation/shop.Book',
      },
    });
    expect(listing[1]).toMatchObject({ name: 'Broken', error: broken.error });
    expect(listing[3]).toMatchObject({ kind: 'one-to-many', childRowName: 'movie', childCollectionName: 'movies' });
  });

  it('escapes error text in XML and HTML', () => {
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(serializeListing(listing, 'application/xml'));
    expect(parsed.resources.resource[1].error).toMatchObject({
      '#text': broken.error?.message,
      '@_code': 'definition_invalid',
    });
    const html = listingHtml(listing, '/dev');
    expect(html).toContain('a &lt;b&gt; &amp; &quot;c&quot;');
    expect(html).toContain('<a href="/dev/openapi.json">');
  });
});

describe('the health checks in the document', () => {
  const signedIn = buildOpenApi(entries, { serverUrl: '/', granted: () => [], maxRows: 10_000 }) as Json;

  it.each([
    { path: '/health', statuses: ['200'] },
    { path: '/health/db', statuses: ['200', '503', '500'] },
  ])('GET $path is described, answering $statuses, with and without sign-in', ({ path, statuses }) => {
    for (const api of [doc, signedIn]) {
      expect(Object.keys(api.paths[path])).toEqual(['get']);
      expect(Object.keys(api.paths[path].get.responses)).toEqual(expect.arrayContaining(statuses));
      expect(api.paths[path].get.responses['200'].headers['Cache-Control'].schema.const).toBe('no-store');
    }
  });

  it('needs no token with sign-in on: their security is empty, overriding the document’s bearer', async () => {
    await expect(validate(signedIn)).resolves.toBeDefined();
    expect(signedIn.security).toEqual([{ bearer: [] }]);
    expect([signedIn.paths['/health'].get.security, signedIn.paths['/health/db'].get.security]).toEqual([[], []]);
    expect(signedIn.paths['/res'].get).not.toHaveProperty('security');
  });

  it('the database check names databases by variable, with a time or an error', () => {
    const schema = doc.paths['/health/db'].get.responses['503'].content['application/json'].schema;
    expect(Object.keys(schema.properties.databases.items.properties)).toEqual(['name', 'status', 'ms', 'error']);
  });
});
