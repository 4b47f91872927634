/**
 * Request bodies and success responses of the operations: JSON (the collection object), XML (request /
 * readResponse / writeResponse documents, with Request.xsd and Response.xsd named) and form fields (one row,
 * inserted or updating rows). JSON and XML share one example, data that fits both schemas (body-examples).
 * Pure; must not decide which operation takes which body (resource-paths does).
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { SqlResource } from '../resource';
import { type Audience, type Rows, rowsExample } from './body-examples';
import { type SchemaPart, schemaRef } from './component-names';

export interface BodyOptions {
  /** Which rows a JSON or XML body holds; undefined when the operation takes no JSON or XML body. */
  readonly rows?: Rows;
  readonly form?: boolean;
  readonly required: boolean;
  readonly audience?: Audience;
  readonly description: string;
}

const xsd = (name: string) => `/xsd/${name}.xsd`;

/** The JSON and XML media types of one body: each its schema, both the same example. */
function jsonAndXml(
  resource: SqlResource,
  json: SchemaPart,
  xml: SchemaPart,
  example: Record<string, unknown>,
): Record<string, OpenAPIV3_1.MediaTypeObject> {
  return {
    'application/json': { schema: schemaRef(resource, json), example },
    'application/xml': { schema: schemaRef(resource, xml), example },
  };
}

function bodyText(resource: SqlResource, rows: Rows): string {
  const collection = rows === 'parents' ? resource.collectionName : resource.childCollectionName;
  const row = rows === 'parents' ? resource.rowName : resource.childRowName;
  return (
    ` JSON: {"${collection}": [...]}, one object per ${row} row.` +
    ` XML: a \`request\` document (described by ${xsd('Request')}) holding one \`${row}\` element per row, every field an attribute` +
    (rows === 'parents' && resource.childRowName
      ? `, child rows nested as \`${resource.childRowName}\` elements.`
      : '.')
  );
}

export function requestBody(resource: SqlResource, options: BodyOptions): OpenAPIV3_1.RequestBodyObject {
  const { rows, audience = 'request' } = options;
  const parents = rows === 'parents';
  const content = rows
    ? jsonAndXml(
        resource,
        parents ? 'Collection' : 'ChildCollection',
        parents ? 'RequestXml' : 'ChildRequestXml',
        rowsExample(resource, rows, audience),
      )
    : {};
  if (options.form) content['application/x-www-form-urlencoded'] = { schema: schemaRef(resource, 'Form') };
  return {
    description: `${options.description}${rows ? bodyText(resource, rows) : ''}`,
    required: options.required,
    content,
  };
}

const cacheControl: Record<string, OpenAPIV3_1.HeaderObject> = {
  'Cache-Control': {
    description: "The definition's cacheControl (default no-cache, no-transform)",
    schema: { type: 'string' },
  },
};

const entityTag: Record<string, OpenAPIV3_1.HeaderObject> = {
  ETag: {
    description:
      "A strong validator of the answer's bytes; send it as If-None-Match (reads) or If-Match (writes by key)",
    schema: { type: 'string' },
  },
};

/** What a read of rows (not one by key) says about its page. */
const pageHeaders: Record<string, OpenAPIV3_1.HeaderObject> = {
  'Content-Range': {
    description:
      '`first-last/total`: the 0-based positions of the rows returned and the total of rows the read pages through, `*` unless asked for with `Prefer: count=exact` (`50-74/*`, `0-24/3573`). `*` in place of the positions on an empty page and on a page after `_after` (`*/3573`).',
    schema: { type: 'string', pattern: '^(\\d+-\\d+|\\*)/(\\d+|\\*)$' },
  },
  Link: {
    description:
      '`<...>; rel="next"` when `_limit` left rows for a next page: this request with `_after` set to the token of its last row, or with `_offset` moved on by `_limit` when it pages by `_offset`.',
    schema: { type: 'string' },
  },
  'Preference-Applied': {
    description: '`count=exact` when the request asked for it with Prefer (the total is in Content-Range).',
    schema: { type: 'string', enum: ['count=exact'] },
  },
};

/** `paged`: a read of rows, which says where its page is (Content-Range, Link); a read by key does not. */
export function readResponse(resource: SqlResource, paged = false): OpenAPIV3_1.ResponseObject {
  return {
    description:
      `The matching ${resource.rowName} rows, ordered by key; none is an empty collection, still 200.` +
      ` JSON: the collection object. XML: a \`readResponse\` document (described by ${xsd('Response')}), one \`${resource.rowName}\` element per row, NULL fields omitted.`,
    headers: paged ? { ...cacheControl, ...entityTag, ...pageHeaders } : { ...cacheControl, ...entityTag },
    content: jsonAndXml(resource, 'Collection', 'ReadResponseXml', rowsExample(resource, 'parents', 'response')),
  };
}

/** The answer of a read when If-None-Match names its version. */
export const notModifiedResponse: OpenAPIV3_1.ResponseObject = {
  description: 'Not Modified: If-None-Match names the version the answer would have; no body.',
  headers: { ...cacheControl, ...entityTag },
};

/** `taggedRow`: a PUT by key, which answers a conditional write with the row's new ETag. */
export function writeResponse(resource: SqlResource, insert: boolean, taggedRow = false): OpenAPIV3_1.ResponseObject {
  const echo = insert ? rowsExample(resource, 'parents', 'response') : {};
  return {
    description:
      `rowsAffected counts every row inserted, updated or deleted in every table` +
      (insert ? '; inserts also return the inserted rows as stored, generated values filled in.' : '.') +
      ` XML: a \`writeResponse\` document (described by ${xsd('Response')}).`,
    ...(taggedRow
      ? {
          headers: {
            ETag: { ...entityTag.ETag, description: 'With If-Match: the ETag a read of the row now carries' },
          },
        }
      : {}),
    content: jsonAndXml(resource, 'WriteResult', 'WriteResponseXml', { rowsAffected: 1, ...echo }),
  };
}
