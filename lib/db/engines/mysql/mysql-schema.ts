/**
 * A whole database on MySQL/MariaDB (its schema), for `npm run generate`: its base tables with their comments,
 * then each table's columns and keys as describe-mysql reads a resource's tables, and the columns' comments.
 */
import type { Executor } from '../../database';
import type { DescribedSchema, DescribedTable } from '../../engine';
import { key, loadTables } from './describe-mysql';

export async function describeMysqlSchema(db: Executor, schema?: string): Promise<DescribedSchema> {
  const { rows: named } = await db.run({
    text: 'SELECT COALESCE(?, DATABASE()) AS s, COALESCE(? = DATABASE(), 1) AS own',
    params: [schema ?? null, schema ?? null],
  });
  const name = String(named[0]?.s ?? '');
  // MySQL answers a comparison with 1 or 0
  const own = Number(named[0]?.own) === 1;
  const { rows } = await db.run({
    text: `SELECT table_name AS t, table_comment AS c FROM information_schema.tables
 WHERE table_schema = ? AND table_type = 'BASE TABLE' ORDER BY table_name`,
    params: [name],
  });
  const { rows: commented } = await db.run({
    text: `SELECT table_name AS t, column_name AS c, column_comment AS k FROM information_schema.columns
 WHERE table_schema = ? AND column_comment <> ''`,
    params: [name],
  });
  const catalog = await loadTables(
    db,
    rows.map((r) => ({ schema: name, table: String(r.t) })),
  );
  const tables = rows.flatMap((r): DescribedTable[] => {
    const table = catalog.get(key({ schema: name, table: String(r.t) }));
    if (!table) return [];
    const columnComments = Object.fromEntries(
      commented.filter((c) => String(c.t) === table.table).map((c) => [String(c.c), String(c.k)]),
    );
    const comment = String(r.c ?? '').trim();
    return [{ ...table, columnComments, ...(comment ? { comment } : {}) }];
  });
  return { schema: name, own, tables };
}
