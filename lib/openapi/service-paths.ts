/**
 * The service's own paths in the OpenAPI document: GET /res (the resource listing), GET /openapi.json (this
 * document), with the listing's JSON schema, and the health checks GET /health and GET /health/db, which need no
 * token. Pure; must not describe resources.
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

const databaseCheck: OpenAPIV3_1.SchemaObject = {
  type: 'object',
  required: ['name', 'status'],
  properties: {
    name: {
      type: 'string',
      description: 'The variable that names the database: DATABASE_URL, DATABASE_READ_URL_SHOP, ...',
    },
    status: { type: 'string', enum: ['ok', 'failed'] },
    ms: {
      type: 'number',
      description: 'With ok: the round trip of SELECT 1 in milliseconds (a first call includes connecting)',
    },
    error: { type: 'string', description: 'With failed: why, without host names, addresses or passwords' },
  },
};

const databasesSchema: OpenAPIV3_1.SchemaObject = {
  type: 'object',
  required: ['status', 'databases'],
  properties: {
    status: { type: 'string', enum: ['ok', 'failed'] },
    databases: { type: 'array', items: databaseCheck },
  },
};

const noStore = { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } } as const;

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
  '/health': {
    get: {
      tags: ['health'],
      summary: 'Liveness: the service runs',
      description: 'Answers without touching a database or a definition, and without a token even with sign-in on.',
      operationId: 'checkHealth',
      security: [],
      responses: {
        '200': {
          description: 'The service runs',
          headers: noStore,
          content: {
            'application/json': {
              schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', const: 'ok' } } },
              example: { status: 'ok' },
            },
          },
        },
      },
    },
  },
  '/health/db': {
    get: {
      tags: ['health'],
      summary: 'Readiness: every configured database answers',
      description:
        'Runs SELECT 1 on every database the configuration names (DATABASE_URL, each DATABASE_URL_<NAME>, DATABASE_READ_URL, each DATABASE_READ_URL_<NAME>), each within DB_CONNECT_TIMEOUT_MS, and names them by their variable only. No token is needed, even with sign-in on.',
      operationId: 'checkDatabases',
      security: [],
      responses: {
        '200': {
          description: 'Every database answered',
          headers: noStore,
          content: {
            'application/json': {
              schema: databasesSchema,
              example: { status: 'ok', databases: [{ name: 'DATABASE_URL', status: 'ok', ms: 1.3 }] },
            },
          },
        },
        '503': {
          description: 'A database failed: its entry says why',
          headers: noStore,
          content: {
            'application/json': {
              schema: databasesSchema,
              example: {
                status: 'failed',
                databases: [
                  { name: 'DATABASE_URL', status: 'ok', ms: 1.3 },
                  { name: 'DATABASE_READ_URL', status: 'failed', error: 'connect ECONNREFUSED ***' },
                ],
              },
            },
          },
        },
        ...errorRefs([500]),
      },
    },
  },
};
