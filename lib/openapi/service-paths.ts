/**
 * The service's own catalogue paths in the OpenAPI document: GET /res (the resource listing) and GET /openapi.json
 * (this document), with the listing's JSON schema. Pure; must not describe resources.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { componentRef } from './component-names';
import { errorRefs } from './error-responses';
import type { PathItem } from './path-item';
import { sharedRef } from './query-parameters';

export const listingSchemaName = 'ResourceListing';

const text: OpenAPIV3_1.SchemaObject = { type: 'string' };

export const listingSchema: OpenAPIV3_1.SchemaObject = {
  type: 'object',
  required: ['resources'],
  properties: {
    resources: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'links'],
        properties: {
          name: text,
          kind: { type: 'string', enum: ['flat', 'one-to-many', 'many-to-many'] },
          rowName: text,
          collectionName: text,
          childRowName: text,
          childCollectionName: text,
          links: {
            type: 'object',
            properties: { res: text, definition: text, metadata: text, documentation: text },
          },
          error: {
            type: 'object',
            description: 'A definition that fails to load: the error a request to it answers with, instead of kind',
            properties: { status: { type: 'integer' }, code: text, message: text },
          },
        },
      },
    },
  },
};

const listingXmlExample =
  '<?xml version="1.0" encoding="UTF-8"?><resources><resource name="Item" kind="flat" rowName="item" collectionName="items"><links res="/res/Item" definition="/conf/definition/Item" metadata="/conf/metadata/Item" documentation="/conf/documentation/Item"/></resource></resources>';

export const servicePaths: Readonly<Record<string, PathItem>> = {
  '/res': {
    get: {
      tags: ['catalog'],
      summary: 'List every SQL resource',
      description:
        'Name, kind, row and collection names and links of every definition; one that fails to load shows its error instead of its kind. HTML when the Accept header prefers text/html (a browser).',
      operationId: 'listResources',
      parameters: [sharedRef('Output')],
      responses: {
        '200': {
          description: 'The listing',
          content: {
            'application/json': { schema: componentRef('schemas', listingSchemaName) },
            'application/xml': { schema: { type: 'string' }, example: listingXmlExample },
            'text/html': { schema: { type: 'string' } },
          },
        },
        ...errorRefs([406, 500]),
      },
    },
  },
  '/openapi.json': {
    get: {
      tags: ['catalog'],
      summary: 'This OpenAPI document',
      description:
        'Generated from the definitions; those that fail to load are left out and listed in x-broken-resources.',
      operationId: 'describeApi',
      responses: {
        '200': { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } },
        ...errorRefs([500]),
      },
    },
  },
};
