/**
 * The component schemas of one resource: its rows, the JSON collection object, the write result (rowsAffected,
 * plus the inserted rows on inserts), the form fields, and the XML documents modelled with OpenAPI's `xml`
 * annotations. Pure; must not describe operations.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { SqlResource } from '../resource';
import { type SchemaPart, schemaName, schemaRef } from './component-names';
import { formSchema, rowSchema } from './field-schemas';

type Schemas = Partial<Record<SchemaPart, OpenAPIV3_1.SchemaObject>>;

function arrayOf(items: OpenAPIV3_1.ReferenceObject, description?: string): OpenAPIV3_1.ArraySchemaObject {
  return { type: 'array', items, ...(description ? { description } : {}) };
}

function objectOf(
  properties: Record<string, OpenAPIV3_1.SchemaObject>,
  required: readonly string[],
  extra: Pick<OpenAPIV3_1.BaseSchemaObject, 'description' | 'xml'> = {},
): OpenAPIV3_1.NonArraySchemaObject {
  return { type: 'object', properties, required: [...required], additionalProperties: false, ...extra };
}

function jsonSchemas(resource: SqlResource): Schemas {
  const rows = resource.collectionName;
  return {
    Collection: objectOf({ [rows]: arrayOf(schemaRef(resource, 'Row')) }, [rows], {
      description: `The JSON collection of ${resource.name}: the ${resource.rowName} rows under "${rows}", ordered by key.`,
    }),
    WriteResult: objectOf(
      {
        rowsAffected: { type: 'integer', minimum: 0, description: 'Rows inserted, updated or deleted in every table' },
        [rows]: arrayOf(
          schemaRef(resource, 'Row'),
          'Inserts only: the inserted rows as stored, generated values filled in; a parent that was not inserted appears by its key only',
        ),
      },
      ['rowsAffected'],
    ),
    Form: formSchema(resource),
  };
}

function xmlSchemas(resource: SqlResource): Schemas {
  const rows = { [resource.collectionName]: arrayOf(schemaRef(resource, 'Row')) };
  return {
    ReadResponseXml: objectOf(rows, [], { xml: { name: 'readResponse' } }),
    WriteResponseXml: objectOf(
      { rowsAffected: { type: 'integer', minimum: 0, xml: { attribute: true } }, ...rows },
      ['rowsAffected'],
      { xml: { name: 'writeResponse' } },
    ),
    RequestXml: objectOf(rows, [], { xml: { name: 'request' } }),
  };
}

function childSchemas(resource: SqlResource): Schemas {
  const children = resource.childCollectionName;
  if (!children) return {};
  const childRows = { [children]: arrayOf(schemaRef(resource, 'ChildRow')) };
  return {
    ChildRow: rowSchema(resource, 'child'),
    ChildCollection: objectOf(childRows, [children], {
      description: `${resource.childRowName} rows of the ${resource.rowName} in the path`,
    }),
    ChildRequestXml: objectOf(childRows, [], { xml: { name: 'request' } }),
  };
}

/** Keyed by component name (`Item.Row`, `Item.Collection`, ...). */
export function resourceSchemas(resource: SqlResource): Record<string, OpenAPIV3_1.SchemaObject> {
  const children = resource.childCollectionName ? schemaRef(resource, 'ChildRow') : undefined;
  const parts: Schemas = {
    Row: rowSchema(resource, 'parent', children),
    ...childSchemas(resource),
    ...jsonSchemas(resource),
    ...xmlSchemas(resource),
  };
  return Object.fromEntries(
    Object.entries(parts).map(([part, schema]) => [schemaName(resource, part as SchemaPart), schema]),
  );
}
