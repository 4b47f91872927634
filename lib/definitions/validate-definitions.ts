/**
 * Checks every definition of the configured source the way the service would load it (parse, catalog, build),
 * then what it can serve: a definition that loads always serves reads; warnings name the writes it cannot serve
 * (no primary key selected, a link the catalog does not show), and what reads or writes do otherwise than the
 * definition seems to say (the query's own ORDER BY or LIMIT, tables linked only by a column's name); notes say which
 * tables are only looked up and which claims a query uses. A query with claims refuses every request of a service
 * without sign-in: a warning.
 * Used by `npm run validate` and its tests; never changes anything.
 */
import type { Config } from '../config';
import type { QueryCatalog } from '../db/database';
import { ServiceError } from '../errors';
import type { ResourceTable, SqlResource } from '../resource';
import { keyLabels, tableWithRole } from '../resource-levels';
import { linksByName } from './build-resource';
import { orderingClauses } from './query-shape';
import { definitionSource, reloadResource, resolveResource } from './resolve-resource';

export interface ValidationResult {
  readonly name: string;
  /** failed: the resource cannot be served; warning: it serves reads, but some writes are refused. */
  readonly status: 'ok' | 'warning' | 'failed';
  /** `kind, N fields` and any notes; the warnings; or the problem (the file and what is wrong). */
  readonly detail: string;
  /** Each warning of `detail` alone, in its order. */
  readonly warnings: readonly string[];
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

/** What reads and writes do otherwise than the definition may seem to ask for. */
function shapeWarnings(resource: SqlResource, catalog: QueryCatalog): string[] {
  const clauses = orderingClauses(resource.query, resource.engine);
  const caps = clauses.filter((c) => c !== 'ORDER BY');
  const ignored = caps.length > 0 ? `${clauses.length > 1 ? 'do' : 'does'} not order or page` : 'does not order';
  const ordering = clauses.length === 0 ? [] : [`the query's ${clauses.join(' and ')} ${ignored} ${readsIgnore}`];
  if (caps.length > 0) ordering.push(`the query's ${caps.join(' and ')} only decides which rows there are to page`);
  const byName = linksByName(resource, catalog).map((link) => `${link} ${linkedByName}`);
  return [...ordering, ...byName];
}

const readsIgnore =
  'what clients get: the service reads the query as a table, returns its rows in key order and pages them itself (_limit, _offset)';
const linkedByName =
  'only because the columns have the same name (no foreign key links the tables): writes set the first from the second; if that is not the link, declare the foreign key, or the Join table between them';

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
    const { resource, catalog } = await resolveResource(config, name);
    const summary = [`${resource.kind}, ${resource.fields.length} fields`, ...notes(resource)].join('; ');
    if (resource.claimQuery && !config.authIssuer) {
      const refused = `refuses every request (403 claim_missing): its query uses claims, and the service runs without sign-in (AUTH_ISSUER is not set)`;
      return { name, status: 'warning', detail: `${summary}; ${refused}`, warnings: [refused] };
    }
    const writes = writeWarnings(resource);
    const others = shapeWarnings(resource, catalog);
    const detail = [summary, ...(writes.length > 0 ? [`serves reads, but ${writes.join('; ')}`] : []), ...others];
    const warnings = [...writes, ...others];
    return { name, status: warnings.length > 0 ? 'warning' : 'ok', detail: detail.join('; '), warnings };
  } catch (error) {
    const message = error instanceof ServiceError ? error.message : `unexpected failure: ${String(error)}`;
    return { name, status: 'failed', detail: message, warnings: [] };
  }
}

export async function validateDefinitions(config: Config): Promise<ValidationResult[]> {
  const names = await definitionSource(config).list();
  const results: ValidationResult[] = [];
  for (const name of names) results.push(await validateDefinition(config, name));
  return results;
}
