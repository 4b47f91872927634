/**
 * Checks every definition of the configured source the way the service would load it (parse, catalog, build)
 * plus what a resource needs to be written to: its Parent's primary key, selected by the query (and, for a
 * hierarchical resource, its Child's). Used by `npm run validate` and its tests; never changes anything.
 */
import type { Config } from '../config';
import { ServiceError } from '../errors';
import type { SqlResource } from '../resource';
import { keyLabels, tableWithRole } from '../resource-levels';
import { definitionSource, forgetResource, resolveResource } from './resolve-resource';

export interface ValidationResult {
  readonly name: string;
  readonly ok: boolean;
  /** `kind, N fields` when ok; the problem otherwise (the file and what is wrong). */
  readonly detail: string;
}

/** What loads but still cannot be served in full. */
function incompleteness(resource: SqlResource): string | undefined {
  const parent = tableWithRole(resource, 'Parent');
  if (parent?.primaryKey.length === 0) {
    return `table ${parent.name} has no primary key, so its rows cannot be addressed by key (R2, U1, U3, D1, D3)`;
  }
  if (!keyLabels(resource, parent))
    return `the query does not select the primary key of ${parent?.name} (${parent?.primaryKey.join(', ')})`;
  const child = tableWithRole(resource, 'Child');
  if (child && !keyLabels(resource, child)) {
    return `the query does not select the primary key of ${child.name} (${child.primaryKey.join(', ') || 'none'})`;
  }
  return undefined;
}

export async function validateDefinition(config: Config, name: string): Promise<ValidationResult> {
  forgetResource(name);
  try {
    const { resource } = await resolveResource(config, name);
    const problem = incompleteness(resource);
    if (problem) return { name, ok: false, detail: `Definition ${resource.file} is incomplete: ${problem}` };
    return { name, ok: true, detail: `${resource.kind}, ${resource.fields.length} fields` };
  } catch (error) {
    const message = error instanceof ServiceError ? error.message : `unexpected failure: ${String(error)}`;
    return { name, ok: false, detail: message };
  }
}

export async function validateDefinitions(config: Config): Promise<ValidationResult[]> {
  const names = await definitionSource(config).list();
  const results: ValidationResult[] = [];
  for (const name of names) results.push(await validateDefinition(config, name));
  return results;
}
