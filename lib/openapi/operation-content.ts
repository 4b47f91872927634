/**
 * Request bodies and success responses of the operations: JSON (the collection object), XML (request /
 * readResponse / writeResponse documents, with Request.xsd and Response.xsd named and an example) and form fields
 * (one row, inserted or updating rows). Pure; must not decide which operation takes which body (resource-paths does).
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { SqlResource } from '../resource';
import { schemaRef } from './component-names';
import { type Audience, xmlChildRow, xmlDocument, xmlRow } from './xml-examples';

export type Rows = 'parents' | 'children';

export interface BodyOptions {
  /** Which rows a JSON or XML body holds; undefined when the operation takes no JSON or XML body. */
  readonly rows?: Rows;
  readonly form?: boolean;
  readonly required: boolean;
  readonly audience?: Audience;
  readonly description: string;
}

const xsd = (name: string) => `/xsd/${name}.xsd`;

function xmlRequest(resource: SqlResource, rows: Rows, audience: Audience): OpenAPIV3_1.MediaTypeObject {
  const row = rows === 'parents' ? xmlRow(resource, audience) : xmlChildRow(resource, audience);
  return {
    schema: schemaRef(resource, rows === 'parents' ? 'RequestXml' : 'ChildRequestXml'),
    example: xmlDocument('request', row),
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
  const content: Record<string, OpenAPIV3_1.MediaTypeObject> = {};
  const { rows, audience = 'request' } = options;
  if (rows) {
    content['application/json'] = {
      schema: schemaRef(resource, rows === 'parents' ? 'Collection' : 'ChildCollection'),
    };
    content['application/xml'] = xmlRequest(resource, rows, audience);
  }
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

export function readResponse(resource: SqlResource): OpenAPIV3_1.ResponseObject {
  return {
    description:
      `The matching ${resource.rowName} rows, ordered by key; none is an empty collection, still 200.` +
      ` JSON: the collection object. XML: a \`readResponse\` document (described by ${xsd('Response')}), one \`${resource.rowName}\` element per row, NULL fields omitted.`,
    headers: cacheControl,
    content: {
      'application/json': { schema: schemaRef(resource, 'Collection') },
      'application/xml': {
        schema: schemaRef(resource, 'ReadResponseXml'),
        example: xmlDocument('readResponse', xmlRow(resource, 'response')),
      },
    },
  };
}

export function writeResponse(resource: SqlResource, insert: boolean): OpenAPIV3_1.ResponseObject {
  const echo = insert ? xmlRow(resource, 'response') : '';
  return {
    description:
      `rowsAffected counts every row inserted, updated or deleted in every table` +
      (insert ? '; inserts also return the inserted rows as stored, generated values filled in.' : '.') +
      ` XML: a \`writeResponse\` document (described by ${xsd('Response')}).`,
    content: {
      'application/json': { schema: schemaRef(resource, 'WriteResult') },
      'application/xml': {
        schema: schemaRef(resource, 'WriteResponseXml'),
        example: xmlDocument('writeResponse', echo, ' rowsAffected="1"'),
      },
    },
  };
}
