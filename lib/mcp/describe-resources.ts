/**
 * What the `list_resources` and `describe_resource` tools answer: the resources a caller may use, and one
 * resource's fields, kind, read cap and the tools this caller has for it. Pure: the caller's resources are given.
 */
import { BadRequestError } from '../errors';
import { fieldDescription, writable } from '../openapi/field-schemas';
import type { SqlResource } from '../resource';
import { fieldLevels } from '../resource-levels';
import type { CatalogError } from '../serial/serialize-listing';
import { operationsHeld, readRows, type ToolResource, toolName } from './tool-definitions';

const toolsOf = (entry: ToolResource): string[] => operationsHeld(entry).map((op) => toolName(op, entry.resource.name));

function about(resource: SqlResource): Record<string, unknown> {
  return {
    name: resource.name,
    kind: resource.kind,
    ...(resource.documentation ? { documentation: resource.documentation.replace(/\s+/g, ' ').trim() } : {}),
  };
}

/** The caller's resources, and those that did not load, with the error a request to them would get. */
export function listResources(
  resources: readonly ToolResource[],
  unavailable: readonly { readonly name: string; readonly error: CatalogError }[],
): Record<string, unknown> {
  return {
    resources: resources.map((entry) => ({ ...about(entry.resource), tools: toolsOf(entry) })),
    ...(unavailable.length > 0 ? { unavailable } : {}),
  };
}

export function describeResource(resources: readonly ToolResource[], name: string): Record<string, unknown> {
  const entry = resources.find((r) => r.resource.name === name);
  if (!entry)
    throw new BadRequestError('bad_argument', `No resource named ${name} is open to this caller; see list_resources`);
  const { resource } = entry;
  const levels = fieldLevels(resource);
  return {
    ...about(resource),
    rowName: resource.rowName,
    collectionName: resource.collectionName,
    ...(resource.childCollectionName
      ? { childRowName: resource.childRowName, childCollectionName: resource.childCollectionName }
      : {}),
    readCap: readRows(entry).most,
    fields: resource.fields.map((field) => ({
      label: field.label,
      level: levels.get(field.label) ?? 'parent',
      type: field.type,
      databaseType: field.dbType,
      primaryKey: field.primaryKey,
      nullable: field.nullable,
      generated: field.generated,
      writable: writable(resource, field),
      description: fieldDescription(resource, field),
    })),
    tools: toolsOf(entry),
  };
}
