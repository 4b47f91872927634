/**
 * Which level of a hierarchical row each field belongs to: the parent (Parent and ParentExtension columns) or
 * the child (Child, ChildExtension and Join columns). A computed field takes the level of the table column
 * before it in select order (the parent when it comes first). Flat resources have only the parent level.
 * Pure; memoised per resource.
 */
import type { Field, ResourceTable, SqlResource, TableRole } from './resource';

export type Level = 'parent' | 'child';

const childRoles: readonly TableRole[] = ['Child', 'ChildExtension', 'Join'];
const cache = new WeakMap<SqlResource, ReadonlyMap<string, Level>>();

export function fieldLevels(resource: SqlResource): ReadonlyMap<string, Level> {
  let levels = cache.get(resource);
  if (!levels) {
    levels = levelsOf(resource);
    cache.set(resource, levels);
  }
  return levels;
}

function levelsOf(resource: SqlResource): Map<string, Level> {
  const levels = new Map<string, Level>();
  let previous: Level = 'parent';
  for (const field of resource.fields) {
    const role = field.table === null ? undefined : resource.tables[field.table]?.role;
    const level: Level = role === undefined ? previous : childRoles.includes(role) ? 'child' : 'parent';
    levels.set(field.label, resource.kind === 'flat' ? 'parent' : level);
    previous = level;
  }
  return levels;
}

export function fieldsAt(resource: SqlResource, level: Level): Field[] {
  const levels = fieldLevels(resource);
  return resource.fields.filter((f) => levels.get(f.label) === level);
}

export function tableWithRole(resource: SqlResource, role: TableRole): ResourceTable | undefined {
  return Object.values(resource.tables).find((t) => t.role === role);
}

/** The table of a role the resource's kind guarantees (Parent always; Child and Join where the kind has them). */
export function tableOf(resource: SqlResource, role: TableRole): ResourceTable {
  const table = tableWithRole(resource, role);
  if (!table) throw new Error(`Resource ${resource.name} has no ${role} table`);
  return table;
}

/** The labels of a table's primary key, in key order; undefined unless the query selects all of them. */
export function keyLabels(resource: SqlResource, table: ResourceTable | undefined): string[] | undefined {
  if (!table || table.primaryKey.length === 0) return undefined;
  const labels = table.primaryKey.map(
    (c) => resource.fields.find((f) => f.table === table.name && f.column === c)?.label,
  );
  return labels.every((l) => l !== undefined) ? (labels as string[]) : undefined;
}
