/**
 * Names and references inside the generated OpenAPI document: component keys per resource, `$ref`s, operation
 * ids. Pure; must not build schemas or operations itself.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { SqlResource } from '../resource';

/** The schemas generated for each resource; hierarchical ones add the child row and child collection. */
export type SchemaPart =
  | 'Row'
  | 'ChildRow'
  | 'Collection'
  | 'ChildCollection'
  | 'WriteResult'
  | 'Form'
  | 'ReadResponseXml'
  | 'WriteResponseXml'
  | 'RequestXml'
  | 'ChildRequestXml';

/** Component keys may hold letters, digits, `.`, `-` and `_` (OpenAPI 3.1 4.8.7), which resource names use. */
export function schemaName(resource: SqlResource, part: SchemaPart): string {
  return `${resource.name}.${part}`;
}

export function schemaRef(resource: SqlResource, part: SchemaPart): OpenAPIV3_1.ReferenceObject {
  return { $ref: `#/components/schemas/${schemaName(resource, part)}` };
}

export function componentRef(kind: 'parameters' | 'responses' | 'schemas', name: string): OpenAPIV3_1.ReferenceObject {
  return { $ref: `#/components/${kind}/${name}` };
}

/** The reusable filter parameter of one field. */
export function filterParameterName(resource: SqlResource, label: string): string {
  return `${resource.name}.${label.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}

/** `readItem`, `insertShop_WidgetChildren`: an identifier code generators can use, unique per document. */
export function operationId(verb: string, resource: SqlResource, suffix = ''): string {
  const name = resource.name.replace(/[^A-Za-z0-9]/g, '_');
  return `${verb}${name.charAt(0).toUpperCase()}${name.slice(1)}${suffix}`;
}
