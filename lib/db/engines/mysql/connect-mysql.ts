/**
 * MySQL, MariaDB and Aurora MySQL (and RDS Proxy) through mysql2. Client-side parameter binding (`query`, not
 * server-side `execute`, which would pin RDS Proxy sessions), but for a statement marked `prepared` where statements
 * are prepared (DB_PREPARE: the server mode), which mysql2 prepares once per connection; decimals, bigints and dates as
 * strings; tinyint(1) as boolean. Every statement runs on a connection held for it (or for its transaction), bounded on
 * the client side: a connection that failed at the network level or did not answer in time is destroyed, never returned
 * to the pool. A new connection is first asked its sql_mode, and refused under one that changes how SQL text reads
 * (mysql-sql-mode), and its server's version, in the same query (mysql-connection-check): where the server takes INSERT
 * ... RETURNING, a transaction on the connection uses it, and so does a statement on the pool once the last connection
 * checked said so.
 */
import mysql from 'mysql2/promise';
import { observeDatabaseCall } from '../../../request-context';
import { classifyDbError } from '../../classify-error';
import type { Database, Executor, QueryResult, Statement } from '../../database';
import type { ConnectOptions } from '../../engine';
import { answerWithin } from '../../no-answer-deadline';
import { type PasswordSource, passwordText } from '../../password-source';
import { describeMysql } from './describe-mysql';
import { type Held, hold } from './mysql-connection';
import { checkConnection, checkedFacts } from './mysql-connection-check';
import { mysqlErrors } from './mysql-errors';
import { mysqlOptions } from './mysql-pool-options';

/** What lib/request-context times (and traces) of each call: the statement's text, never its values. */
const statementCall = (query: Statement) => ({ engine: 'mysql', kind: 'statement', text: query.text }) as const;
const transactionCall = { engine: 'mysql', kind: 'transaction' } as const;

const startTransaction: Statement = { text: 'START TRANSACTION', params: [] };
const commit: Statement = { text: 'COMMIT', params: [] };
const rollback: Statement = { text: 'ROLLBACK', params: [] };

/**
 * The secret's password for the pool's next new connection. mysql2 (3.x) takes no password function: it copies the
 * pool's connection settings into each connection it opens (`_createConnectionConfig`), so the password set here
 * before asking for a connection is the one a new connection logs in with; a pooled connection keeps its login.
 * test/db/credentials-secret.test.ts proves it on MariaDB, with a password rotated under a running pool.
 */
function setPoolPassword(pool: mysql.Pool, password: string): void {
  (pool.pool as unknown as { config: { connectionConfig: { password?: string } } }).config.connectionConfig.password =
    password;
}

export function connectMysql(url: string, options: ConnectOptions, source?: PasswordSource): Database {
  const pool = mysql.createPool(mysqlOptions(url, options, source));
  /** What the last connection checked said of its server: what a statement run on the pool can count on. */
  let insertsReturn = false;
  const acquire = async (query: Statement) => {
    const held = await acquireChecked(pool, options, query, source);
    insertsReturn = held.insertsReturn;
    return held;
  };
  /** Runs one call on a connection of its own, released (or destroyed) after it. */
  const withConnection = async <T>(query: Statement, call: (held: Held) => Promise<T>): Promise<T> => {
    const held = await acquire(query);
    try {
      return await call(held);
    } finally {
      held.release();
    }
  };
  const poolExecutor: Executor = {
    run: (query) => observeDatabaseCall(statementCall(query), () => withConnection(query, (held) => held.run(query))),
  };
  // describe-mysql reads the probe's column definitions from mysql2's own result
  const probe = {
    query: (text: string) => withConnection({ text, params: [] }, (held) => held.query({ text, params: [] })),
  } as unknown as Pick<mysql.Pool, 'query'>;

  return {
    engine: 'mysql',
    ...poolExecutor,
    get insertsReturn() {
      return insertsReturn;
    },
    readEach: (query, batchRows, each) =>
      observeDatabaseCall(statementCall(query), () =>
        withConnection(query, (held) => held.readEach(query, batchRows, each)),
      ),
    transaction: (fn) =>
      observeDatabaseCall(transactionCall, async () => transaction(await acquire(startTransaction), fn)),
    describe: (query, tableNames) =>
      observeDatabaseCall({ engine: 'mysql', kind: 'describe', text: query }, () =>
        describeMysql(poolExecutor, probe, query, tableNames),
      ),
    close: () => pool.end(),
  };
}

/**
 * A connection of the pool, held for a call or a transaction, once its sql_mode has passed the check; with a secret,
 * the pool's password is set first, for a connection the pool opens now.
 */
async function acquireChecked(
  pool: mysql.Pool,
  options: ConnectOptions,
  query: Statement,
  source?: PasswordSource,
): Promise<Held> {
  const { statementTimeoutMs } = options;
  if (source?.kind === 'secret') setPoolPassword(pool, await passwordText(source));
  let conn: mysql.PoolConnection | undefined;
  try {
    conn = await pool.getConnection();
    const checking = conn;
    // a connection checked before is used at once: no query, so no deadline to start and clear
    const facts =
      checkedFacts(checking) ??
      (await answerWithin(checkConnection(checking), statementTimeoutMs, () => checking.destroy()));
    return hold(conn, statementTimeoutMs, facts, options.prepare === true);
  } catch (error) {
    // a connection refused for its sql_mode (or that failed its check) is never used again
    conn?.destroy();
    throw classifyDbError(mysqlErrors, error, query);
  }
}

/**
 * `fn` in one transaction on `held`, committed when it resolves, rolled back when it throws; then released. Where the
 * server runs compound statements (MariaDB), START TRANSACTION goes with the transaction's first statement when that
 * one gives rows back (INSERT ... RETURNING, a locked SELECT), and COMMIT with the statement `fn` hands to
 * runWithCommit: `BEGIN NOT ATOMIC ...; ...; END`, one round trip, which stops at the first statement that fails
 * (so a failed statement is never committed: the transaction is rolled back). Elsewhere each is sent on its own.
 */
async function transaction<T>(held: Held, fn: (tx: Executor) => Promise<T>): Promise<T> {
  // the transaction's start: each statement is sent once it has answered, so statements go in the order they came
  let started: Promise<unknown> | undefined;
  let withCommit: Statement | undefined;
  const compound = held.compoundStatements;
  const run = (query: Statement): Promise<QueryResult> => {
    if (!started && compound && givesRows(query)) {
      const sent = { text: `BEGIN NOT ATOMIC START TRANSACTION; ${query.text}; END`, params: query.params };
      const answer = held.runAs(query, sent);
      started = answer;
      return answer;
    }
    started ??= held.run(startTransaction);
    return started.then(() => held.run(query));
  };
  try {
    const result = await fn({
      run: (query) => observeDatabaseCall(statementCall(query), () => run(query)),
      ...(compound
        ? {
            runWithCommit: (query: Statement) => {
              withCommit = query;
            },
          }
        : {}),
      insertsReturn: held.insertsReturn,
    });
    started ??= held.run(startTransaction);
    await started;
    const last = withCommit;
    if (last) {
      const sent = { text: `BEGIN NOT ATOMIC ${last.text}; COMMIT; END`, params: last.params };
      await observeDatabaseCall(statementCall(last), () => held.runAs(last, sent));
    } else {
      await held.run(commit);
    }
    return result;
  } catch (error) {
    // the statement that failed is reported; a connection that cannot roll back is not reused
    if (started && !held.lost) await held.run(rollback).catch(() => held.destroy());
    throw error;
  } finally {
    held.release();
  }
}

/** A statement whose answer is rows: an INSERT ... RETURNING, or a SELECT. */
function givesRows(statement: Statement): boolean {
  // a compiled INSERT says it gives its rows back (lib/sql's CompiledQuery.returning)
  return (statement as { readonly returning?: boolean }).returning === true || /^\s*select\b/i.test(statement.text);
}
