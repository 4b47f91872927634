/**
 * What an insert answers with: the rows as stored, by the resource's labels (echoValues), and a many-to-many child
 * that was not inserted but related, read back by its key with its extension and lookup rows (readBack).
 */
import type { Executor } from '../db/database';
import type { Key } from '../plan/plan';
import type { SqlResource } from '../resource';
import { fieldsAt, tableOf } from '../resource-levels';
import type { Value } from '../values';
import { readLookups, type StoredRow, selectRow } from './stored-rows';
import { byKey, byLink, linkTo, ownedExtensions } from './table-links';

/** A many-to-many child as stored: its Child row and ChildExtension rows, read by key. */
export async function readBack(
  tx: Executor,
  resource: SqlResource,
  key: Key,
  stored: Map<string, StoredRow>,
): Promise<void> {
  const childTable = tableOf(resource, 'Child');
  const row = await selectRow(tx, resource, childTable, [byKey(childTable, [key])]);
  if (!row) return;
  stored.set(childTable.name, row);
  for (const ext of ownedExtensions(resource, 'ChildExtension')) {
    const extRow = await selectRow(tx, resource, ext, [byLink(linkTo(ext, childTable), [key])]);
    if (extRow) stored.set(ext.name, extRow);
  }
  await readLookups(tx, resource, childTable, row, stored);
}

/** A level's fields by label, as stored: fields of tables not written are NULL; computed fields are left out. */
export function echoValues(
  resource: SqlResource,
  level: 'parent' | 'child',
  stored: ReadonlyMap<string, StoredRow>,
): Record<string, Value> {
  const values: Record<string, Value> = {};
  for (const field of fieldsAt(resource, level)) {
    if (field.table === null || field.column === null) continue;
    values[field.label] = stored.get(field.table)?.[field.column] ?? null;
  }
  return values;
}
