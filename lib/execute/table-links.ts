/**
 * How the tables of a resource hang together for a write: which extension rows belong to their owner, how a
 * table links to its owner, and the matches that find rows by key or by link. Pure.
 */
import type { Key } from '../plan/plan';
import type { ResourceTable, SqlResource, TableLink } from '../resource';
import type { Match } from '../sql/match';
import type { Value } from '../values';

/** The extension tables whose rows belong to their owner's row; a lookup's rows are shared, never written. */
export function ownedExtensions(resource: SqlResource, role: 'ParentExtension' | 'ChildExtension'): ResourceTable[] {
  return Object.values(resource.tables).filter((t) => t.role === role && !t.lookup);
}

/** How `table` points at `target` (its columns, in the order of the target's key). */
export function linkTo(table: ResourceTable, target: ResourceTable): TableLink {
  return table.links.find((l) => l.target === target.name) as TableLink;
}

/** The link columns of a row of `table`, taken from the row of its target. */
export function linkValues(link: TableLink, targetRow: Readonly<Record<string, Value>>): Record<string, Value> {
  return Object.fromEntries(link.columns.map((c, i) => [c, targetRow[link.references[i] as string] ?? null]));
}

export function keyRow(columns: readonly string[], key: Key): Record<string, Value> {
  return Object.fromEntries(columns.map((c, i) => [c, key[i] ?? null]));
}

export const byKey = (table: ResourceTable, keys: readonly Key[]): Match => ({ columns: table.primaryKey, keys });
export const byLink = (link: TableLink, keys: readonly Key[]): Match => ({ columns: link.columns, keys });
