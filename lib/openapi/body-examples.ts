/**
 * Example bodies for the OpenAPI document, as data that fits the body's schema: the same object is the JSON body
 * and, written out by the schema's `xml` annotations (fields as attributes, rows as elements named after the row),
 * the XML document. Request, read and write bodies show one row (a hierarchical one holding one child row) with
 * every field the audience sees, each with its example value. Pure; the values are illustrations, never data from
 * the database.
 */
import type { Field, SqlResource } from '../resource';
import { fieldsAt, type Level } from '../resource-levels';
import { exampleValue } from './example-values';
import { writable } from './field-schemas';

/** What a row shows: every field in a response; the writable fields in a request; the key to delete. */
export type Audience = 'request' | 'response' | 'keys';

/** Which rows a body holds: the parent rows, or the child rows of the parent in the path. */
export type Rows = 'parents' | 'children';

type Row = Record<string, unknown>;

function levelFields(resource: SqlResource, level: Level, audience: Audience): Field[] {
  const fields = fieldsAt(resource, level);
  if (audience === 'response') return fields;
  const written = fields.filter((f) => writable(resource, f));
  return audience === 'keys' ? written.filter((f) => f.primaryKey) : written;
}

function row(resource: SqlResource, level: Level, audience: Audience): Row {
  const values = levelFields(resource, level, audience).map((f) => [f.label, exampleValue(resource, f)] as const);
  return Object.fromEntries(values.filter(([, value]) => value !== undefined));
}

/** The child rows of the example: one, or none when this audience sees no child field (children not written here). */
function childRows(resource: SqlResource, audience: Audience): Row[] {
  const child = row(resource, 'child', audience);
  return Object.keys(child).length > 0 ? [child] : [];
}

/**
 * `{"books": [{...}]}`: one row of the level; a parent row of a hierarchical resource holds its child rows. A
 * request shows the fields a write may set, and a key only a key of a table written here.
 */
export function rowsExample(resource: SqlResource, rows: Rows, audience: Audience): Row {
  const children = resource.childCollectionName;
  if (rows === 'children') return children ? { [children]: childRows(resource, audience) } : {};
  const parent = row(resource, 'parent', audience);
  if (children) parent[children] = childRows(resource, audience);
  return { [resource.collectionName]: [parent] };
}
