/**
 * One pooled MySQL connection held for a call or a transaction (connect-mysql.ts): each statement bounded on the
 * client side, its failure classified by MySQL's error table, and the connection destroyed, never returned to the
 * pool, when it failed at the network level or did not answer in time. The bound is the client's (answerWithin):
 * mysql2's own `timeout` only rejects the query and leaves the connection in the pool with the statement still
 * running or its answer still to come, and MySQL has no cancel on the same connection, so a call unanswered after
 * the statement timeout and a margin is given up with its connection.
 */
import type mysql from 'mysql2/promise';
import type { Value } from '../../../values';
import { classifyDbError } from '../../classify-error';
import type { QueryResult, Row, Statement } from '../../database';
import { answerWithin } from '../../no-answer-deadline';
import type { ConnectionFacts } from './mysql-connection-check';
import { mysqlErrors } from './mysql-errors';
import { readRows } from './mysql-read-rows';

export /** One pooled connection held for a call or a transaction. */
interface Held {
  run(query: Statement): Promise<QueryResult>;
  /** INSERT ... RETURNING works on the connection's server (mysql-connection-check). */
  readonly insertsReturn: boolean;
  /** The server runs `BEGIN NOT ATOMIC ... END` (mysql-connection-check). */
  readonly compoundStatements: boolean;
  /**
   * `statement` sent as `sent` (a compound statement holding it, whose rows are its own): its failure is classified
   * and reported as `statement`'s.
   */
  runAs(statement: Statement, sent: Statement): Promise<QueryResult>;
  /** Database.readEach on this connection; it is destroyed when `each` throws. */
  readEach(query: Statement, batchRows: number, each: (rows: readonly Row[]) => void): Promise<void>;
  /** The raw result with its column definitions (describe-mysql reads them). */
  query(query: Statement): Promise<[unknown, mysql.FieldPacket[]]>;
  /** True once the connection was destroyed. */
  readonly lost: boolean;
  /** Out of the pool for good, its socket closed. */
  destroy(): void;
  /** Back to the pool, unless it was destroyed. */
  release(): void;
}

/**
 * A statement marked `prepared` (lib/events/insert-events' MariaDB compound statement) is sent with mysql2's `execute`
 * where the connection prepares statements (`prepare`, DB_PREPARE): prepared once per connection, its values sent
 * apart; every other statement goes with `query`, its values written into its text.
 */
export function hold(
  conn: mysql.PoolConnection,
  statementTimeoutMs: number,
  facts: ConnectionFacts,
  prepare = false,
): Held {
  let lost = false;
  /**
   * Out of the pool, and its socket closed now: mysql2's destroy only ends the socket, which then waits for a
   * goodbye that a frozen peer never sends (the socket is mysql2's `stream`, not in its typings).
   */
  const destroy = () => {
    lost = true;
    conn.destroy();
    (conn.connection as unknown as { stream?: { destroy(): void } }).stream?.destroy();
  };
  const query = async (statement: Statement, sent = statement): Promise<[unknown, mysql.FieldPacket[]]> => {
    try {
      const options = { sql: sent.text, values: sent.params as Value[] };
      const prepared = prepare && sent.prepared === true;
      // execute answers as query does; its typings say less
      const call = prepared ? (conn.execute(options) as ReturnType<typeof conn.query>) : conn.query(options);
      return await answerWithin(call, statementTimeoutMs, destroy);
    } catch (error) {
      // a network failure (mysql2 marks it fatal) leaves nothing to reuse
      if ((error as { fatal?: unknown }).fatal === true) destroy();
      throw classifyDbError(mysqlErrors, error, statement);
    }
  };
  return {
    query,
    insertsReturn: facts.insertsReturn,
    compoundStatements: facts.compoundStatements,
    runAs: async (statement, sent) => queryResultOf((await query(statement, sent))[0]),
    readEach: (statement, batchRows, each) =>
      readEach(conn, statementTimeoutMs, destroy, { statement, batchRows, each }),
    destroy,
    run: async (statement) => queryResultOf((await query(statement))[0]),
    get lost() {
      return lost;
    },
    release: () => {
      if (!lost) conn.release();
    },
  };
}

/** Database.readEach on a held connection: the rows a batch at a time; `destroy` when `each` stops the read. */
async function readEach(
  conn: mysql.PoolConnection,
  statementTimeoutMs: number,
  destroy: () => void,
  read: { statement: Statement; batchRows: number; each: (rows: readonly Row[]) => void },
): Promise<void> {
  const { statement, batchRows, each } = read;
  let stopped: { readonly error: unknown } | undefined;
  const take = (rows: readonly Row[]) => {
    try {
      each(rows);
    } catch (error) {
      stopped = { error };
      throw error;
    }
  };
  try {
    await answerWithin(readRows(conn, statement, batchRows, take, destroy), statementTimeoutMs, destroy);
  } catch (error) {
    if (stopped) throw stopped.error;
    // a network failure (mysql2 marks it fatal) leaves nothing to reuse
    if ((error as { fatal?: unknown }).fatal === true) destroy();
    throw classifyDbError(mysqlErrors, error, statement);
  }
}

function queryResultOf(answer: unknown): QueryResult {
  // a compound statement (a transaction's first or last, mysql-event-sql's) answers with the result set of each
  // statement in it that gives rows, then its own status (or with the status alone): the rows are the first
  const result = Array.isArray(answer) && Array.isArray(answer[0]) ? answer[0] : answer;
  if (Array.isArray(result)) return { rows: result as unknown as QueryResult['rows'], rowsAffected: result.length };
  const header = result as mysql.ResultSetHeader;
  return {
    rows: [],
    rowsAffected: header.affectedRows,
    insertId: header.insertId ? String(header.insertId) : undefined,
  };
}
