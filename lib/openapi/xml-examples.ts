/**
 * Example values and example XML documents for the OpenAPI document: one made-up value per ValueType in the
 * service's own spelling, and request, readResponse and writeResponse documents shaped as the service reads and
 * writes them. Pure; the values are illustrations, never data from the database.
 */
import type { Field, SqlResource, ValueType } from '../resource';
import { fieldsAt, type Level } from '../resource-levels';
import { escapeXmlAttribute } from '../text';

const examples: Readonly<Record<ValueType, string | number | boolean>> = {
  integer: 1,
  decimal: 9.99,
  float: 0.5,
  boolean: true,
  date: '2024-01-31',
  time: '12:30:00',
  timestamp: '2024-01-31 12:30:00',
  binary: 'AP8Q',
  string: 'text',
};

function exampleValue(field: Field): string | number | boolean {
  return examples[field.type];
}

/** What a row shows: every field in a response; the writable fields in a request; the key to delete. */
export type Audience = 'request' | 'response' | 'keys';

function element(name: string, fields: readonly Field[], content = ''): string {
  const attributes = fields.map((f) => ` ${f.label}="${escapeXmlAttribute(String(exampleValue(f)))}"`).join('');
  return content === '' ? `<${name}${attributes}/>` : `<${name}${attributes}>${content}</${name}>`;
}

function levelFields(resource: SqlResource, level: Level, audience: Audience): Field[] {
  const fields = fieldsAt(resource, level);
  if (audience === 'keys') return fields.filter((f) => f.primaryKey);
  return audience === 'response' ? fields : fields.filter((f) => !f.readOnly);
}

/** One row of the parent level; a hierarchical one holds one child row. */
export function xmlRow(resource: SqlResource, audience: Audience): string {
  const parent = levelFields(resource, 'parent', audience);
  if (!resource.childRowName) return element(resource.rowName, parent);
  const child = element(resource.childRowName, levelFields(resource, 'child', audience));
  return element(resource.rowName, parent, child);
}

/** A child row alone, for the bodies under the parent in the path. */
export function xmlChildRow(resource: SqlResource, audience: Audience): string {
  return resource.childRowName ? element(resource.childRowName, levelFields(resource, 'child', audience)) : '';
}

const declaration = '<?xml version="1.0" encoding="UTF-8"?>';

export function xmlDocument(root: string, content: string, attributes = ''): string {
  return `${declaration}${content === '' ? `<${root}${attributes}/>` : `<${root}${attributes}>${content}</${root}>`}`;
}
