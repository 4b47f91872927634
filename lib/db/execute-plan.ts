/**
 * Runs a plan: a read, or the writes of one request in one transaction (D14), counting every row written in
 * every table (D16) and reading inserted rows back as stored (D15). Talks to the database only through the
 * Executor interface; the SQL comes from lib/sql.
 */
import { ConflictError } from '../errors';
import { parentTable } from '../plan/resource-fields';
import type { ColumnValues, InsertRow, Key, Plan, SelectSpec, Target, UpdateRows } from '../plan/types';
import type { ResourceTable, SqlResource } from '../resource';
import type { DbValue, OutRow } from '../serial/types';
import { compileSelect } from '../sql/compile-select';
import { compileDelete, compileInsert, compileSelectByKey, compileUpdate } from '../sql/compile-write';
import { relabel } from './classify-error';
import type { Database, Executor, Param, QueryResult } from './types';

/** Keys per statement: keeps every statement far below RDS Proxy's 16 KB and the drivers' parameter limits. */
const chunkSize = 500;

export interface WriteOutcome {
  readonly rowsAffected: number;
  /** Inserts only: the rows as stored. */
  readonly rows?: readonly OutRow[];
}

export async function executeRead(
  db: Executor,
  resource: SqlResource,
  select: SelectSpec,
): Promise<QueryResult['rows']> {
  return (await db.run(compileSelect(resource, select))).rows;
}

export async function executeWrite(
  db: Database,
  resource: SqlResource,
  plan: Exclude<Plan, { kind: 'read' }>,
): Promise<WriteOutcome> {
  try {
    return await db.transaction(async (tx) => {
      switch (plan.kind) {
        case 'insert':
          return insertRows(tx, resource, plan.rows);
        case 'update': {
          let rowsAffected = 0;
          for (const update of plan.updates) rowsAffected += await updateRows(tx, resource, update);
          return { rowsAffected };
        }
        case 'delete':
          return { rowsAffected: await deleteRows(tx, resource, await keysOf(tx, resource, plan.target)) };
      }
    });
  } catch (error) {
    throw error instanceof ConflictError
      ? new ConflictError(error.code, relabel(error.message, labelOf(resource)))
      : error;
  }
}

function labelOf(resource: SqlResource): (column: string) => string {
  return (column) => resource.fields.find((f) => f.column === column)?.label ?? column;
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += chunkSize) out.push(items.slice(i, i + chunkSize));
  return out;
}

function tablesOf(resource: SqlResource, role: ResourceTable['role']): ResourceTable[] {
  return Object.values(resource.tables).filter((t) => t.role === role);
}

/** The Parent keys a target addresses: given, or those of the rows the filter matches (U2, D2). */
async function keysOf(tx: Executor, resource: SqlResource, target: Target): Promise<readonly Key[]> {
  if (target.kind === 'keys') return target.keys;
  const parent = parentTable(resource);
  const labels = parent.primaryKey.map(
    (c) => resource.fields.find((f) => f.table === parent.name && f.column === c)?.label as string,
  );
  const { rows } = await tx.run(
    compileSelect(resource, { columns: labels, distinct: true, filters: target.filters, orderBy: [] }),
  );
  return rows.map((row) => labels.map((l) => row[l] as Param));
}

/** Inserts one table row; returns it as stored (PostgreSQL RETURNING, MySQL read back by key). */
async function insertTableRow(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  values: ColumnValues,
): Promise<Record<string, DbValue>> {
  const result = await tx.run(compileInsert(resource.dialect, table, values));
  if (resource.dialect === 'postgres') return { ...(result.rows[0] ?? {}) };
  const key = table.primaryKey.map((c) =>
    c in values ? values[c] : table.generatedColumns.includes(c) ? (result.insertId ?? null) : null,
  );
  if (table.primaryKey.length === 0 || key.some((v) => v === null)) return { ...values } as Record<string, DbValue>;
  const { rows } = await tx.run(compileSelectByKey(resource.dialect, table, '*', table.primaryKey, [key as Param[]]));
  return { ...(rows[0] ?? values) } as Record<string, DbValue>;
}

async function insertRows(tx: Executor, resource: SqlResource, rows: readonly InsertRow[]): Promise<WriteOutcome> {
  const parent = parentTable(resource);
  let rowsAffected = 0;
  const out: OutRow[] = [];
  for (const row of rows) {
    const stored = new Map<string, Record<string, DbValue>>();
    const parentRow = await insertTableRow(tx, resource, parent, row.parent);
    stored.set(parent.name, parentRow);
    rowsAffected += 1;
    for (const ext of row.extensions) {
      const table = resource.tables[ext.table] as ResourceTable;
      stored.set(
        table.name,
        await insertTableRow(tx, resource, table, { ...ext.values, ...linkValues(table, parentRow) }),
      );
      rowsAffected += 1;
    }
    out.push({ values: echoValues(resource, stored) });
  }
  return { rowsAffected, rows: out };
}

/** The link columns of an extension row, taken from its Parent row. */
function linkValues(table: ResourceTable, parentRow: Readonly<Record<string, DbValue>>): Record<string, Param> {
  const link = table.links[0];
  if (!link) return {};
  return Object.fromEntries(
    link.columns.map((c, i) => [c, (parentRow[link.references[i] as string] ?? null) as Param]),
  );
}

/** The inserted row by label, as stored: fields of tables not written are NULL; computed fields are left out. */
function echoValues(resource: SqlResource, stored: Map<string, Record<string, DbValue>>): Record<string, DbValue> {
  const values: Record<string, DbValue> = {};
  for (const field of resource.fields) {
    if (field.table === null || field.column === null) continue;
    const role = resource.tables[field.table]?.role;
    if (role !== 'Parent' && role !== 'ParentExtension') continue;
    values[field.label] = stored.get(field.table)?.[field.column] ?? null;
  }
  return values;
}

async function updateRows(tx: Executor, resource: SqlResource, update: UpdateRows): Promise<number> {
  const parent = parentTable(resource);
  const keys = await keysOf(tx, resource, update.target);
  let rowsAffected = 0;
  if (Object.keys(update.parent).length > 0) {
    for (const chunk of chunks(keys)) {
      rowsAffected += (await tx.run(compileUpdate(resource.dialect, parent, update.parent, parent.primaryKey, chunk)))
        .rowsAffected;
    }
  }
  if (update.extensions.length === 0 || keys.length === 0) return rowsAffected;
  const existing = await existingKeys(tx, resource, parent, parent.primaryKey, keys);
  for (const ext of update.extensions)
    rowsAffected += await upsertExtension(tx, resource, ext.table, ext.values, existing);
  return rowsAffected;
}

async function existingKeys(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  columns: readonly string[],
  keys: readonly Key[],
): Promise<Key[]> {
  const found: Key[] = [];
  for (const chunk of chunks(keys)) {
    const { rows } = await tx.run(compileSelectByKey(resource.dialect, table, columns, columns, chunk));
    for (const row of rows) found.push(columns.map((c) => row[c] as Param));
  }
  return found;
}

/** D16a: extension fields of a row that has no extension row yet create it; both count. */
async function upsertExtension(
  tx: Executor,
  resource: SqlResource,
  name: string,
  values: ColumnValues,
  parentKeys: readonly Key[],
): Promise<number> {
  const table = resource.tables[name] as ResourceTable;
  const link = table.links[0];
  if (!link || parentKeys.length === 0) return 0;
  for (const chunk of chunks(parentKeys))
    await tx.run(compileUpdate(resource.dialect, table, values, link.columns, chunk));
  const present = new Set(
    (await existingKeys(tx, resource, table, link.columns, parentKeys)).map((k) => JSON.stringify(k.map(String))),
  );
  const parentColumns = parentTable(resource).primaryKey;
  for (const key of parentKeys) {
    if (present.has(JSON.stringify(key.map(String)))) continue;
    const parentRow = Object.fromEntries(parentColumns.map((c, i) => [c, key[i] ?? null]));
    await tx.run(
      compileInsert(resource.dialect, table, { ...values, ...linkValues(table, parentRow as Record<string, DbValue>) }),
    );
  }
  return parentKeys.length;
}

async function deleteRows(tx: Executor, resource: SqlResource, keys: readonly Key[]): Promise<number> {
  const parent = parentTable(resource);
  let rowsAffected = 0;
  for (const chunk of chunks(keys)) {
    for (const ext of tablesOf(resource, 'ParentExtension')) {
      const link = ext.links[0];
      if (link) rowsAffected += (await tx.run(compileDelete(resource.dialect, ext, link.columns, chunk))).rowsAffected;
    }
    rowsAffected += (await tx.run(compileDelete(resource.dialect, parent, parent.primaryKey, chunk))).rowsAffected;
  }
  return rowsAffected;
}
