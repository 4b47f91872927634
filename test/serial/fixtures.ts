/**
 * Hand-built SqlResources for the serialization tests: a flat one with a field of every value type (and a row
 * with a value of each), and a one-to-many one with child rows; and a reader that parses XML back for comparisons.
 * Test data only: no IO.
 */
import { XMLParser } from 'fast-xml-parser';
import type { Field, ResourceKind, SqlResource, ValueType } from '../../lib/resource';
import type { OutRow } from '../../lib/values';

function field(label: string, type: ValueType, table: string, primaryKey = false): Field {
  return {
    label,
    table,
    column: label,
    type,
    dbType: type,
    primaryKey,
    generated: primaryKey,
    readOnly: false,
    nullable: !primaryKey,
    hasDefault: primaryKey,
  };
}

function resource(
  name: string,
  kind: ResourceKind,
  names: Pick<SqlResource, 'rowName' | 'collectionName' | 'childRowName' | 'childCollectionName'>,
  fields: readonly Field[],
): SqlResource {
  return {
    name,
    file: `${name}.xml`,
    kind,
    database: 'test',
    engine: 'postgres',
    query: 'select 1',
    ...names,
    tables: {},
    fields,
    validations: [],
    cacheControl: 'no-cache, no-transform',
  };
}

/** Flat: one field per ValueType, in this select order. */
export const flat = resource('test.item', 'flat', { rowName: 'item', collectionName: 'items' }, [
  field('id', 'integer', 'item', true),
  field('price', 'decimal', 'item'),
  field('ratio', 'float', 'item'),
  field('active', 'boolean', 'item'),
  field('born', 'date', 'item'),
  field('opens', 'time', 'item'),
  field('updated', 'timestamp', 'item'),
  field('photo', 'binary', 'item'),
  field('title', 'string', 'item'),
]);

/** A row of `flat` with a value of every type, as the PostgreSQL and MySQL drivers hand them over. */
export const fullRow: OutRow = {
  values: {
    id: 12345678901234567890n,
    price: '20.10',
    ratio: 0.25,
    active: 't',
    born: '2024-02-29',
    opens: '08:30:00.5',
    updated: '2024-02-29 23:59:59.123456',
    photo: Buffer.from('hi'),
    title: 'Airport Pollock',
  },
};

/** One-to-many: parent `lang` (langs), child `movie` (movies). */
export const hierarchical = resource(
  'test.lang',
  'one-to-many',
  { rowName: 'lang', collectionName: 'langs', childRowName: 'movie', childCollectionName: 'movies' },
  [
    field('langId', 'integer', 'language', true),
    field('langName', 'string', 'language'),
    field('filmId', 'integer', 'film', true),
    field('title', 'string', 'film'),
    field('rate', 'decimal', 'film'),
  ],
);

/** An XML element read back: its name, attributes (entities decoded) and element children, in order. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
}

const reader = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
});

/** Parses a response document back, so tests compare structure and values rather than formatting. */
export function readXml(text: string): XmlElement[] {
  return toElements(reader.parse(text) as Record<string, unknown>[]);
}

function toElements(nodes: Record<string, unknown>[]): XmlElement[] {
  return nodes.flatMap((node) => {
    const name = Object.keys(node).find((key) => key !== ':@') ?? '';
    if (name === '#text' || name === '?xml') return [];
    const attributes = (node[':@'] ?? {}) as Record<string, string>;
    return [{ name, attributes, children: toElements(node[name] as Record<string, unknown>[]) }];
  });
}

/** Shorthand for an expected element. */
export function el(name: string, attributes: Record<string, string>, children: XmlElement[] = []): XmlElement {
  return { name, attributes, children };
}
