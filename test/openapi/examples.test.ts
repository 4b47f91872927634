/**
 * The examples of the OpenAPI document, on hand-built resources, no database: every JSON and XML body has the same
 * example data, which written out by its schema's xml annotations is a document Request.xsd or Response.xsd
 * accepts; each field's example value is one the service would take (its column's limits and the definition's
 * rules), made from a rule's regex when the type's usual value breaks it, and absent when nothing fits.
 */
import { buildOpenApi } from '../../lib/openapi/build-openapi';
import { exampleValue } from '../../lib/openapi/example-values';
import type { Field, SqlResource, ValidationRule } from '../../lib/resource';
import { bookResource, editionResource, field, languageResource, logResource } from '../support/resources';
import { expectValid } from '../xsd/xmllint';
import { xmlOfExample } from './xml-of-example';

// biome-ignore lint/suspicious/noExplicitAny: the generated document is walked freely; the assertions check its shape
type Json = Record<string, any>;

const doc = buildOpenApi(
  [
    { name: 'shop.Book', resource: bookResource('postgres') },
    { name: 'Edition', resource: editionResource('mysql') },
    { name: 'Lang', resource: languageResource('postgres') },
    { name: 'Log', resource: logResource('postgres') },
  ],
  { serverUrl: '/', maxRows: 10_000 },
) as Json;

describe('the example bodies', () => {
  const mediaTypes = (api: Json) =>
    Object.entries(api.paths as Json).flatMap(([p, item]) =>
      Object.entries(item as Json)
        .filter(([method]) => method !== 'parameters')
        .flatMap(([method, op]) => [
          ...Object.entries((op.requestBody?.content ?? {}) as Json).map(([type, media]) => ({
            at: `${method} ${p} request ${type}`,
            xsd: 'Request.xsd' as const,
            type,
            media,
          })),
          ...Object.entries((op.responses['200']?.content ?? {}) as Json).map(([type, media]) => ({
            at: `${method} ${p} 200 ${type}`,
            xsd: 'Response.xsd' as const,
            type,
            media,
          })),
        ]),
    );

  it('are XML documents the XML Schemas accept when written out as their schemas say, and JSON the same data', async () => {
    const xml = mediaTypes(doc).filter((m) => m.type === 'application/xml' && m.at.includes('/res/'));
    expect(xml.length).toBeGreaterThan(20);
    for (const { at, xsd, media } of xml) {
      const document = xmlOfExample(doc, media.schema, media.example);
      await expectValid(xsd, `<?xml version="1.0" encoding="UTF-8"?>${document}`).catch((error: Error) => {
        throw new Error(`${at}: ${error.message}`);
      });
    }
    const json = mediaTypes(doc).filter((m) => m.type === 'application/json' && m.at.includes('/res/'));
    expect(json.map((m) => [m.at.replace('json', 'xml'), m.media.example])).toEqual(
      xml.map((m) => [m.at, m.media.example]),
    );
  });

  it('show the rows as the service writes them: every field an attribute, child rows nested', () => {
    const lang = doc.paths['/res/Lang'].get.responses['200'].content['application/xml'];
    expect(xmlOfExample(doc, lang.schema, lang.example)).toBe(
      '<readResponse><lang langId="1" langName="text"><movie filmId="1" title="text"/></lang></readResponse>',
    );
    const insert = doc.paths['/res/Edition'].post.responses['200'].content['application/xml'];
    expect(xmlOfExample(doc, insert.schema, insert.example)).toMatch(/^<writeResponse rowsAffected="1"><edition /);
  });
});

describe('the example value of a field', () => {
  const resource: SqlResource = bookResource('postgres');
  const exampleOf = (type: Parameters<typeof field>[1], rule: Partial<ValidationRule>, limits?: Field['limits']) => {
    const f = field('f', type, 'book', 'f', limits ? { limits } : {});
    const validations = [{ name: 'f', type: type === 'string' ? 'String' : 'Numeric', ...rule } as ValidationRule];
    return exampleValue({ ...resource, fields: [...resource.fields, f], validations }, f);
  };

  it.each([
    ['string', {}, undefined, 'text'],
    ['string', { regex: '[0-9]{13}' }, undefined, '0000000000000'],
    ['string', { regex: '[A-Z]{2}' }, undefined, 'AA'],
    ['string', { regex: 'https?://\\S+', maxLength: 300 }, undefined, 'http://0'],
    ['string', { regex: '[a-z]+' }, { maxLength: 2 }, 'te'],
    ['string', { minLength: 6 }, undefined, 'textte'],
    ['string', { regex: '[!?]' }, undefined, '!'],
    ['string', { regex: '[0-9]{5}', maxLength: 3 }, undefined, undefined],
    // randexp throws on lookbehind and writes \p{L} as text: no example, and no error
    ['string', { regex: '(?<=a)b' }, undefined, undefined],
    ['string', { regex: '\\p{L}{5}' }, undefined, undefined],
    ['integer', { minValue: 1000 }, undefined, 1000],
    ['integer', { maxValue: 0 }, undefined, 0],
    ['decimal', { minValue: 0, maxValue: 5 }, undefined, 1],
    ['decimal', {}, { digitsBefore: 3, digitsAfter: 0 }, 1],
  ] as const)('%s with %j and limits %j is %j', (type, rule, limits, expected) => {
    expect(exampleOf(type, rule, limits)).toBe(expected);
  });

  it('is in the field schema, obeying its keywords', () => {
    const edition = doc.components.schemas['Edition.Row'].properties;
    expect(edition.editionNo.examples).toEqual([1]);
    const title = doc.components.schemas['shop.Book.Row'].properties.title;
    expect(title).toMatchObject({ maxLength: 20, examples: ['text'] });
  });
});
