/**
 * Request bodies and success responses of the operations: JSON (the collection object), XML (request /
 * readResponse / writeResponse documents, with Request.xsd and Response.xsd named), form fields (one row,
 * inserted or updating rows) and, for a flat resource, CSV (rows read, or rows to insert). JSON and XML share one
 * example, data that fits both schemas (body-examples); the CSV example is the same row as CSV.
 * Pure; must not decide which operation takes which body (resource-paths does).
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { SqlResource } from '../resource';
import { csvText } from '../serial/serialize-csv';
import { type Audience, type Rows, rowsExample } from './body-examples';
import { type SchemaPart, schemaRef } from './component-names';

export interface BodyOptions {
  /** Which rows a JSON or XML body holds; undefined when the operation takes no JSON or XML body. */
  readonly rows?: Rows;
  readonly form?: boolean;
  /** The body may be CSV rows (inserts into a flat resource). */
  readonly csv?: boolean;
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

/**
 * A text/csv body: a string, its example the example's rows under a header row of `labels` (else the first row's
 * labels); a field with no example value is an empty field, as NULL is.
 */
function csvContent(example: Record<string, unknown>, labels?: readonly string[]): OpenAPIV3_1.MediaTypeObject {
  const rows = Object.values(example)[0] as Record<string, unknown>[];
  const header = labels ?? Object.keys(rows[0] ?? {});
  const record = (row: Record<string, unknown>) =>
    header.map((label) => (row[label] === undefined ? null : String(row[label])));
  return { schema: { type: 'string' }, example: csvText([header, ...rows.map(record)]) };
}

const csvRule =
  'a header row of field labels, then one record per row (RFC 4180); NULL is an empty field, "" the empty string.';

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
  if (options.csv) content['text/csv'] = csvContent(rowsExample(resource, 'parents', audience));
  return {
    description: `${options.description}${rows ? bodyText(resource, rows) : ''}${options.csv ? ` CSV: ${csvRule}` : ''}`,
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

/** The media type of a CSV read, as the service names it in Content-Type. */
const csvResponseType = 'text/csv';

/** `paged`: a read of rows, which says where its page is (Content-Range, Link); a read by key does not. */
export function readResponse(resource: SqlResource, paged = false): OpenAPIV3_1.ResponseObject {
  const example = rowsExample(resource, 'parents', 'response');
  const content = jsonAndXml(resource, 'Collection', 'ReadResponseXml', example);
  const flat = resource.kind === 'flat';
  if (flat)
    content[csvResponseType] = csvContent(
      example,
      resource.fields.map((field) => field.label),
    );
  return {
    description:
      `The matching ${resource.rowName} rows, ordered by key; none is an empty collection, still 200.` +
      ` JSON: the collection object. XML: a \`readResponse\` document (described by ${xsd('Response')}), one \`${resource.rowName}\` element per row, NULL fields omitted.` +
      (flat ? ` CSV (asked for by Accept: text/csv or _output=text/csv): ${csvRule}` : ''),
    headers: paged ? { ...cacheControl, ...entityTag, ...pageHeaders } : { ...cacheControl, ...entityTag },
    content,
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
