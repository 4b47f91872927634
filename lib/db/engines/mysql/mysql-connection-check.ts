/**
 * What the service asks a new MySQL connection once, before its first statement, in one query: its session's
 * sql_mode (a connection under a mode that changes how SQL text reads is refused: mysql-sql-mode) and the server's
 * version, which says whether INSERT ... RETURNING works there (MariaDB 10.5+: mysql-server-inserts). A connection
 * talks to one server for its life, so what it said holds for every statement it runs.
 */
import type mysql from 'mysql2/promise';
import { mariadbSince, readServerInserts } from './mysql-server-inserts';
import { refuseUnsafeSqlMode } from './mysql-sql-mode';

export interface ConnectionFacts {
  /** INSERT ... RETURNING works on the connection's server. */
  readonly insertsReturn: boolean;
  /**
   * The server runs a compound statement outside a stored program (`BEGIN NOT ATOMIC ... END`, MariaDB 10.2+):
   * several statements sent as one, without the multi-statement protocol, stopping at the first that fails.
   */
  readonly compoundStatements: boolean;
}

/** What each connection said, by mysql2's core connection object (one per pooled connection). */
const known = new WeakMap<object, ConnectionFacts>();

export const connectionCheckQuery = 'SELECT @@SESSION.sql_mode AS mode, VERSION() AS version';

/** The facts of `conn` when it was checked already: every call but a connection's first, with nothing to wait for. */
export function checkedFacts(conn: mysql.PoolConnection): ConnectionFacts | undefined {
  return known.get(conn.connection);
}

/** The facts of `conn`, asked once per connection; throws (a ConfigurationError) when its sql_mode is refused. */
export async function checkConnection(conn: mysql.PoolConnection): Promise<ConnectionFacts> {
  const seen = known.get(conn.connection);
  if (seen) return seen;
  const [rows] = await conn.query(connectionCheckQuery);
  const row = (rows as { mode?: unknown; version?: unknown }[])[0];
  refuseUnsafeSqlMode(String(row?.mode ?? ''));
  const version = String(row?.version ?? '');
  // MariaDB runs compound statements outside stored programs since 10.1.1; 10.2 is the first stable release with them
  const compoundStatements = mariadbSince(version, 10, 2);
  const facts = { insertsReturn: readServerInserts({ version }).returning, compoundStatements };
  known.set(conn.connection, facts);
  return facts;
}

/** Refuses a connection whose session sql_mode reads SQL text differently; asks each connection once. */
export async function requireSafeSqlMode(conn: mysql.PoolConnection): Promise<void> {
  await checkConnection(conn);
}
