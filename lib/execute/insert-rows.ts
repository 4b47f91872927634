/**
 * Inserts many rows of one table with few statements, inside the request's transaction, and returns them as
 * stored, in order: multi-row INSERTs sized by statement-size, read back by RETURNING where the database has it,
 * else by key (given, or the insert id counted on where the server makes one INSERT's ids consecutive). Where
 * none of these can name each row (MySQL with interleaved auto-increment), rows are inserted one by one.
 */
import type { Executor } from '../db/database';
import { sqlShapeOf } from '../db/engines/registry';
import type { ColumnValues, Key } from '../plan/plan';
import type { ResourceTable, SqlResource } from '../resource';
import { compileInsertRows, insertColumns } from '../sql/compile-insert-rows';
import type { ServerInserts } from '../sql-shape';
import { noteInserted } from './inserted-rows';
import { fittedStatements } from './statement-size';
import { insertTableRow, type StoredRow, selectRowsByKey } from './stored-rows';

/** Asked once per transaction: a failover may put a different server behind the same URL. */
const asked = new WeakMap<Executor, Promise<ServerInserts>>();

function serverInserts(tx: Executor, resource: SqlResource): Promise<ServerInserts> {
  const readBack = sqlShapeOf(resource.engine).insertReadBack;
  if (readBack.kind === 'always') return Promise.resolve(readBack.inserts);
  // the transaction's connection told its server when it was opened
  if (tx.insertsReturn === true) return Promise.resolve({ returning: true });
  let answer = asked.get(tx);
  if (!answer) {
    answer = tx.run(readBack.query).then((result) => readBack.read(result.rows[0]));
    asked.set(tx, answer);
  }
  return answer;
}

export async function insertRows(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  rows: readonly ColumnValues[],
): Promise<StoredRow[]> {
  const columns = await insertColumns(rows);
  if (rows.length === 1 || columns.length === 0) return oneByOne(tx, resource, table, rows);
  return insertOver(columns, await serverInserts(tx, resource), tx, resource, table, rows);
}

/** insertRows on a server that reads back inserts as `server` says. */
// Exported for tests: every server they run on takes RETURNING, so only this reaches the other two ways on a real one
export async function insertRowsAs(
  server: ServerInserts,
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  rows: readonly ColumnValues[],
): Promise<StoredRow[]> {
  const columns = await insertColumns(rows);
  if (columns.length === 0) return oneByOne(tx, resource, table, rows);
  return insertOver(columns, server, tx, resource, table, rows);
}

/** Rows inserted over `columns` (those any of them gives, not none). */
async function insertOver(
  columns: readonly string[],
  server: ServerInserts,
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  rows: readonly ColumnValues[],
): Promise<StoredRow[]> {
  const generated = table.primaryKey.filter((c) => table.generatedColumns.includes(c));
  const countable = server.idStep !== undefined && generated.length <= 1;
  if (!server.returning && !countable && generated.length > 0) return oneByOne(tx, resource, table, rows);
  const shape = sqlShapeOf(resource.engine);
  const out: StoredRow[] = [];
  const compile = (run: readonly ColumnValues[]) => compileInsertRows(shape, table, columns, run, server.returning);
  for (const batch of await fittedStatements(shape, rows, compile)) {
    if (server.returning) {
      const result = await tx.run(batch.statement);
      out.push(...result.rows.map((row) => ({ ...row })));
      continue;
    }
    // an insert id counts only for rows that leave the generated key to the database: runs of one kind each
    const runs = runsBy(batch.items, (row) => generated.some((c) => !(c in row)));
    for (const run of runs) {
      const result = await tx.run(runs.length === 1 ? batch.statement : compile(run));
      const first = result.insertId === undefined ? undefined : BigInt(result.insertId);
      const keys = run.map((row, i) => keyOf(table, row, first, BigInt(i * (server.idStep ?? 1))));
      out.push(...(await readBack(tx, resource, table, run, keys)));
    }
  }
  noteInserted(tx, table, out);
  return out;
}

function oneByOne(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  rows: readonly ColumnValues[],
): Promise<StoredRow[]> {
  return rows.reduce<Promise<StoredRow[]>>(
    async (done, row) => [...(await done), await insertTableRow(tx, resource, table, row)],
    Promise.resolve([]),
  );
}

/** The key of an inserted row: its own values, the generated column counted on from the first insert id. */
function keyOf(table: ResourceTable, row: ColumnValues, first: bigint | undefined, offset: bigint): Key | undefined {
  const key = table.primaryKey.map((c) => {
    if (c in row) return row[c] ?? null;
    return table.generatedColumns.includes(c) && first !== undefined ? (first + offset).toString() : null;
  });
  return table.primaryKey.length > 0 && key.every((v) => v !== null) ? key : undefined;
}

/** The rows as stored, by key; a row without a key, or not found by it, as it was given (as a single insert). */
async function readBack(
  tx: Executor,
  resource: SqlResource,
  table: ResourceTable,
  rows: readonly ColumnValues[],
  keys: readonly (Key | undefined)[],
): Promise<StoredRow[]> {
  const found = await selectRowsByKey(
    tx,
    resource,
    table,
    keys.filter((k): k is Key => k !== undefined),
  );
  let next = 0;
  return rows.map((row, i) => (keys[i] === undefined ? { ...row } : (found[next++] ?? { ...row })));
}

/** Consecutive runs of `items` that `kind` puts in the same group. */
function runsBy<T>(items: readonly T[], kind: (item: T) => boolean): T[][] {
  const out: T[][] = [];
  let last: boolean | undefined;
  for (const item of items) {
    const k = kind(item);
    if (k !== last || out.length === 0) out.push([]);
    out[out.length - 1]?.push(item);
    last = k;
  }
  return out;
}
