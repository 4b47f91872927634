/**
 * A fingerprint of the tables a catalog snapshot describes: one statement (the engine's, from its record) reads,
 * for each table, every column (name, type, nullability, default, identity/auto_increment, generated expression),
 * its primary and foreign keys and its unique indexes, in a fixed order; the fingerprint is the SHA-256 of those
 * rows. The same tables with the same shape give the same fingerprint on any server, whatever their oids; any
 * change that could change what the service reads from the catalog (a column added, dropped, renamed or retyped, a
 * key, a unique index or a default changed) changes it. A table that no longer exists simply has no rows, which
 * changes it too.
 */
import { createHash } from 'node:crypto';
import type { EngineName } from '../resource';
import type { Executor } from './database';
import { engineNamed } from './engines/registry';

/** A table as the catalog names it: its schema (the database, on MySQL) and its name. */
export interface TableName {
  readonly schema: string;
  readonly table: string;
}

export async function schemaFingerprint(
  db: Executor,
  engine: EngineName,
  tables: readonly TableName[],
): Promise<string> {
  const hash = createHash('sha256');
  if (tables.length > 0) {
    const { rows } = await db.run(engineNamed(engine).fingerprint(tables));
    for (const row of rows) hash.update(`${JSON.stringify(Object.values(row))}\n`);
  }
  return hash.digest('hex');
}
