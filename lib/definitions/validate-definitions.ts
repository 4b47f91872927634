/**
 * Checks every definition of the configured source the way the service would load it (parse, catalog, build),
 * then what it can serve: a definition that loads always serves reads; warnings name the writes it cannot serve
 * (no primary key selected, a link the catalog does not show) and notes say which tables are only looked up and
 * which claims a query uses. A query with claims refuses every request of a service without sign-in: a warning.
 * Used by `npm run validate` and its tests; never changes anything.
 */
import type { Config } from '../config';
import { ServiceError } from '../errors';
import type { ResourceTable, SqlResource } from '../resource';
import { keyLabels, tableWithRole } from '../resource-levels';
import { definitionSource, reloadResource, resolveResource } from './resolve-resource';

export interface ValidationResult {
  readonly name: string;
  /** failed: the resource cannot be served; warning: it serves reads, but some writes are refused. */
  readonly status: 'ok' | 'warning' | 'failed';
  /** `kind, N fields` and any notes; the warnings; or the problem (the file and what is wrong). */
  readonly detail: string;
}

/** What loads but cannot be written in full: each item names what is refused and why. */
function writeWarnings(resource: SqlResource): string[] {
  const warnings: string[] = [];
  const parent = tableWithRole(resource, 'Parent') as ResourceTable;
  if (parent.primaryKey.length === 0) {
    warnings.push(`table ${parent.name} has no primary key, so rows cannot be addressed by key (only filtered writes)`);
  } else if (!keyLabels(resource, parent)) {
    warnings.push(
      `the query does not select the primary key of ${parent.name} (${parent.primaryKey.join(', ')}), so rows cannot be addressed by key (only filtered writes)`,
    );
  }
  const child = tableWithRole(resource, 'Child');
  if (child && !keyLabels(resource, child)) {
    warnings.push(
      `the query does not select the primary key of ${child.name} (${child.primaryKey.join(', ') || 'none'}), so ${resource.childRowName} rows cannot be written`,
    );
  }
  for (const table of Object.values(resource.tables)) {
    if (table.unlinked) warnings.push(`${table.unlinked}, so the writes that need it are refused`);
  }
  const unkeyed = [parent, child].filter((t) => t && !keyLabels(resource, t)).map((t) => t?.name);
  if (resource.claimQuery && unkeyed.length > 0) {
    warnings.push(
      `its query uses claims and does not select the primary key of ${unkeyed.join(' and ')}, so it takes no writes at all`,
    );
  }
  return warnings;
}

function notes(resource: SqlResource): string[] {
  const lookups = Object.values(resource.tables).flatMap((t) =>
    t.lookup ? [`${t.name} is looked up by ${t.lookup.owner} (many-to-one), read-only here`] : [],
  );
  const claims = [...new Set((resource.claimQuery?.claims ?? []).map((claim) => claim.name))];
  return claims.length > 0
    ? [...lookups, `rows per caller by the claim${claims.length > 1 ? 's' : ''} ${claims.join(', ')}`]
    : lookups;
}

async function validateDefinition(config: Config, name: string): Promise<ValidationResult> {
  reloadResource(config, name);
  try {
    const { resource } = await resolveResource(config, name);
    const summary = [`${resource.kind}, ${resource.fields.length} fields`, ...notes(resource)].join('; ');
    if (resource.claimQuery && !config.authIssuer) {
      return {
        name,
        status: 'warning',
        detail: `${summary}; refuses every request (403 claim_missing): its query uses claims, and the service runs without sign-in (AUTH_ISSUER is not set)`,
      };
    }
    const warnings = writeWarnings(resource);
    if (warnings.length === 0) return { name, status: 'ok', detail: summary };
    return { name, status: 'warning', detail: `${summary}; serves reads, but ${warnings.join('; ')}` };
  } catch (error) {
    const message = error instanceof ServiceError ? error.message : `unexpected failure: ${String(error)}`;
    return { name, status: 'failed', detail: message };
  }
}

export async function validateDefinitions(config: Config): Promise<ValidationResult[]> {
  const names = await definitionSource(config).list();
  const results: ValidationResult[] = [];
  for (const name of names) results.push(await validateDefinition(config, name));
  return results;
}
