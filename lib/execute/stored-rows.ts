/**
 * Rows as the database stores them, inside the request's transaction: insert one and read it back (in the
 * same statement where the engine's SQL returns it, else by its key), read one, find which keys exist, and the rows a
 * row looks up many-to-one. What is done for each of many keys between statements is done a slice at a time
 * (map-in-slices).
 */
import type { Executor } from '../db/database';
import { sqlShapeOf } from '../db/engines/registry';
import { forEachInSlices, mapInSlices } from '../map-in-slices';
import type { ColumnValues, Key } from '../plan/plan';
import type { ResourceTable, SqlResource } from '../resource';
import { compileInsert } from '../sql/compile-insert';
import { compileSelectWhere } from '../sql/compile-select';
import type { Match } from '../sql/match';
import { keyText, type Row, type Value } from '../values';
import { noteInserted } from './inserted-rows';
import { chunks } from './statement-size';
import { byKey } from './table-links';

export type StoredRow = Record<string, Value>;

/** A key as text, to find it among others: its values as strings, so 5n and '5' are the same key. */

/** An INSERT run by `executor` gives its rows back (RETURNING): on every server of the engine, or on this one. */
export function insertsReturnOn(executor: Executor, resource: SqlResource): boolean {
  return sqlShapeOf(resource.engine).insertReturns || executor.insertsReturn === true;
}

/**
 * Inserts one row; returns it as stored: from RETURNING (where the engine, or the server `tx` runs on, has it), or
 * read back by its key or the insert id.
 */
export async function insertTableRow(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  values: ColumnValues,
): Promise<StoredRow> {
  const statement = compileInsert(sqlShapeOf(resource.engine), table, values, insertsReturnOn(tx, resource));
  const result = await tx.run(statement);
  const stored = await storedRow(tx, resource, table, values, statement.returning ? result.rows[0] : result.insertId);
  noteInserted(tx, table, [stored]);
  return stored;
}

/** The row an INSERT stored: as it returned it, else read back by its key (with the insert id), else as given. */
async function storedRow(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  values: ColumnValues,
  returned: Row | string | undefined,
): Promise<StoredRow> {
  if (typeof returned === 'object') return { ...returned };
  const key = table.primaryKey.map((c) =>
    c in values ? values[c] : table.generatedColumns.includes(c) ? (returned ?? null) : null,
  );
  if (table.primaryKey.length === 0 || key.some((v) => v === null || v === undefined)) return { ...values };
  return (await selectRow(tx, resource, table, [byKey(table, [key as Key])])) ?? { ...values };
}

export async function selectRow(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  where: readonly Match[],
): Promise<StoredRow | undefined> {
  const { rows } = await tx.run(compileSelectWhere(sqlShapeOf(resource.engine), table, '*', where));
  return rows[0] ? { ...rows[0] } : undefined;
}

/**
 * The rows of `keys` (values of `columns`, the primary key when absent), in their order, in chunks of keys. A key
 * whose text matches no row returned is asked alone, so that a collation that matches more loosely (case,
 * trailing spaces) finds what a single select would.
 */
export async function selectRowsByKey(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  keys: readonly Key[],
  columns: readonly string[] = table.primaryKey,
): Promise<(StoredRow | undefined)[]> {
  const found = new Map<string, StoredRow>();
  for (const chunk of chunks(keys)) {
    const { rows } = await tx.run(
      compileSelectWhere(sqlShapeOf(resource.engine), table, '*', [{ columns, keys: chunk }]),
    );
    for (const row of rows) found.set(keyText(columns.map((c) => row[c] ?? null)), { ...row });
  }
  return mapInSlices(
    keys,
    (key) => found.get(keyText(key)) ?? selectRow(tx, resource, table, [{ columns, keys: [key] }]),
  );
}

/** The values of `columns` of every row matching `match` (in chunks of keys) and every other Match. */
export async function selectKeys(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  columns: readonly string[],
  match: Match,
  where: readonly Match[] = [],
): Promise<Key[]> {
  const found: Key[] = [];
  for (const chunk of chunks(match.keys)) {
    const { rows } = await tx.run(
      compileSelectWhere(sqlShapeOf(resource.engine), table, columns, [
        { columns: match.columns, keys: chunk },
        ...where,
      ]),
    );
    for (const row of rows) found.push(columns.map((c) => row[c] ?? null));
  }
  return found;
}

/** readLookups for many rows of `owner` at once: each looked-up row read once, in chunks of keys. */
export async function readLookupsOfRows(
  tx: Executor,
  resource: SqlResource,
  owner: ResourceTable,
  ownerRows: readonly StoredRow[],
  stored: readonly Map<string, StoredRow>[],
): Promise<void> {
  for (const table of Object.values(resource.tables)) {
    if (table.lookup?.owner !== owner.name) continue;
    const { columns, references } = table.lookup;
    const keys = await mapInSlices(ownerRows, (row) => columns.map((c) => row[c] ?? null));
    // each key once, where it first appears (as the last row that gives it has it)
    const unique = new Map<string, Key>();
    await forEachInSlices(keys, (key) => {
      if (key.every((v) => v !== null)) unique.set(keyText(key), key);
    });
    const rows = await selectRowsByKey(tx, resource, table, [...unique.values()], references);
    const byText = new Map<string, StoredRow | undefined>();
    await forEachInSlices([...unique.keys()], (text, i) => byText.set(text, rows[i]));
    await forEachInSlices(keys, (key, i) => {
      const row = byText.get(keyText(key));
      if (row) stored[i]?.set(table.name, row);
    });
  }
}

/** The rows that `owner`'s row looks up many-to-one, read so that a write's echo shows them as a read would. */
export async function readLookups(
  tx: Executor,
  resource: SqlResource,
  owner: ResourceTable,
  ownerRow: StoredRow,
  stored: Map<string, StoredRow>,
): Promise<void> {
  for (const table of Object.values(resource.tables)) {
    if (table.lookup?.owner !== owner.name) continue;
    const key = table.lookup.columns.map((c) => ownerRow[c] ?? null);
    if (key.some((v) => v === null)) continue;
    const row = await selectRow(tx, resource, table, [{ columns: table.lookup.references, keys: [key] }]);
    if (row) stored.set(table.name, row);
  }
}
