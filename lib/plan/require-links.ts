/**
 * The links a write needs. Reads never need links, so a definition whose links the catalog does not show
 * still loads and serves reads; a write that needs a missing link, or that would change a table its owner only
 * looks up (many-to-one), is refused here with a 400 that names the table and why. Pure.
 */
import { BadRequestError } from '../errors';
import type { ResourceTable, SqlResource, TableRole } from '../resource';

/** Every table of these roles that the write must reach through its link (lookups are never written). */
export function requireLinked(resource: SqlResource, roles: readonly TableRole[], action: string): void {
  for (const table of Object.values(resource.tables)) {
    if (!roles.includes(table.role) || table.lookup || !table.unlinked) continue;
    throw new BadRequestError('unlinked_table', `Resource ${resource.name} cannot ${action}: ${table.unlinked}`);
  }
}

/** A field may be written only when its table is: not a lookup, and linked to its owner. */
export function requireWritableTable(resource: SqlResource, table: ResourceTable, label: string): void {
  if (table.lookup) {
    const { owner, columns, references } = table.lookup;
    throw new BadRequestError(
      'read_only_field',
      `Field ${label} of resource ${resource.name} is read-only: it belongs to ${table.name}, which ${owner} looks up ` +
        `many-to-one (${owner}.${columns.join(', ')} → ${table.name}.${references.join(', ')}); change it through a resource of ${table.name}`,
    );
  }
  if (table.unlinked) {
    throw new BadRequestError(
      'unlinked_table',
      `Resource ${resource.name} cannot write field ${label}: ${table.unlinked}`,
    );
  }
}

/** The tables that deleting rows at a level also deletes from: whose links the delete needs. */
export function deletedAlongWith(resource: SqlResource, level: 'parent' | 'child'): TableRole[] {
  if (level === 'child') return resource.kind === 'many-to-many' ? ['Join'] : ['Child', 'ChildExtension'];
  if (resource.kind === 'many-to-many') return ['ParentExtension', 'Join'];
  return resource.kind === 'one-to-many' ? ['ParentExtension', 'Child', 'ChildExtension'] : ['ParentExtension'];
}
