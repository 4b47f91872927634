/**
 * MySQL, MariaDB and Aurora MySQL (and RDS Proxy) through mysql2. Client-side parameter binding (`query`, not
 * server-side `execute`, which would pin RDS Proxy sessions); decimals, bigints and dates as strings;
 * tinyint(1) as boolean. Every statement runs on a connection held for it (or for its transaction), bounded on
 * the client side: a connection that failed at the network level or did not answer in time is destroyed, never
 * returned to the pool. A new connection is first asked its sql_mode, and refused under one that changes how SQL
 * text reads (mysql-sql-mode).
 */
import mysql from 'mysql2/promise';
import { ConfigurationError } from '../errors';
import { observeDatabaseCall } from '../request-context';
import type { Value } from '../values';
import { classifyDbError } from './classify-error';
import type { Database, Executor, QueryResult, Row, Statement } from './database';
import type { PasswordSource } from './database-credentials';
import { describeMysql } from './describe-mysql';
import { mysqlErrors } from './mysql-errors';
import { readRows } from './mysql-read-rows';
import { requireSafeSqlMode } from './mysql-sql-mode';
import { noAnswerDeadline } from './no-answer-deadline';
import type { ConnectOptions } from './postgres-database';

const typeCast: mysql.TypeCast = (field, next) => {
  if (field.type === 'TINY' && field.length === 1) {
    const text = field.string();
    return text === null ? null : text !== '0';
  }
  return next();
};

/** What lib/request-context times (and traces) of each call: the statement's text, never its values. */
const statementCall = (query: Statement) => ({ engine: 'mysql', kind: 'statement', text: query.text }) as const;
const transactionCall = { engine: 'mysql', kind: 'transaction' } as const;

const startTransaction: Statement = { text: 'START TRANSACTION', params: [] };
const commit: Statement = { text: 'COMMIT', params: [] };
const rollback: Statement = { text: 'ROLLBACK', params: [] };

/**
 * `?ssl=true`: TLS verified against the CAs Node trusts; `?ssl=Amazon RDS`: verified against the RDS and RDS Proxy
 * CAs (mysql2's profile); `?ssl=require`: encrypted, not verified.
 */
function tlsOf(ssl: string | null): mysql.PoolOptions['ssl'] {
  if (ssl === 'Amazon RDS') return 'Amazon RDS';
  if (ssl === 'require') return { rejectUnauthorized: false };
  return ssl && ssl !== 'false' ? {} : undefined;
}

/**
 * An IAM token is a bearer credential for 15 minutes, sent in clear (mysql_clear_password): TLS is required, by
 * default verified against the RDS and RDS Proxy CAs. A URL that turns TLS off is refused.
 */
function iamTlsOf(ssl: string | null): mysql.PoolOptions['ssl'] {
  if (ssl === 'false') {
    throw new ConfigurationError(
      'DATABASE_IAM_AUTH=true sends the IAM token as the password, so it needs TLS; the database URL has ssl=false: leave it out (TLS verified against the RDS CAs), or use ssl=true or ssl=require',
    );
  }
  return tlsOf(ssl ?? 'Amazon RDS');
}

/**
 * With IAM, RDS asks for the password in clear (the mysql_clear_password plugin) on each login: the plugin answers
 * with a token signed for that connection. mysql2 calls it only when the server asks, and reports its failure as
 * the connection's error.
 */
function iamPlugins(source: PasswordSource): mysql.PoolOptions['authPlugins'] {
  return { mysql_clear_password: () => async () => Buffer.from(`${await source.password()}\0`) };
}

/** `mysql://user:password@host:port/database?ssl=true`; the password is URL-decoded. */
export function mysqlOptions(url: string, options: ConnectOptions, source?: PasswordSource): mysql.PoolOptions {
  const u = new URL(url);
  const ssl = u.searchParams.get('ssl');
  const tls = source?.kind === 'iam' ? iamTlsOf(ssl) : tlsOf(ssl);
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 3306,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)) || undefined,
    connectionLimit: options.poolSize,
    // mysql2 closes connections unused for idleTimeout only when maxIdle is below the limit, and then also closes
    // free connections beyond maxIdle at once: one below the limit only trims a pool whose every connection is
    // free (a pool of one keeps its connection)
    maxIdle: Math.max(1, options.poolSize - 1),
    idleTimeout: options.idleTimeoutS * 1000,
    connectTimeout: options.connectTimeoutMs,
    // TCP keep-alive after 60 s idle, so a pooled connection whose peer is gone is noticed
    enableKeepAlive: true,
    keepAliveInitialDelay: 60_000,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    decimalNumbers: false,
    typeCast,
    charset: 'utf8mb4',
    ...(tls ? { ssl: tls } : {}),
    ...(source?.kind === 'iam' ? { authPlugins: iamPlugins(source) } : {}),
  };
}

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

/** One pooled connection held for a call or a transaction. */
interface Held {
  run(query: Statement): Promise<QueryResult>;
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

export function connectMysql(url: string, options: ConnectOptions, source?: PasswordSource): Database {
  const pool = mysql.createPool(mysqlOptions(url, options, source));
  const acquire = async (query: Statement): Promise<Held> => {
    if (source?.kind === 'secret') setPoolPassword(pool, await source.password());
    let conn: mysql.PoolConnection | undefined;
    try {
      conn = await pool.getConnection();
      const checking = conn;
      await bounded(requireSafeSqlMode(checking), options.statementTimeoutMs, () => checking.destroy());
      return hold(conn, options.statementTimeoutMs);
    } catch (error) {
      // a connection refused for its sql_mode (or that failed its check) is never used again
      conn?.destroy();
      throw classifyDbError(mysqlErrors, error, query);
    }
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
    readEach: (query, batchRows, each) =>
      observeDatabaseCall(statementCall(query), () =>
        withConnection(query, (held) => held.readEach(query, batchRows, each)),
      ),
    transaction: (fn) =>
      observeDatabaseCall(transactionCall, async () => {
        const held = await acquire(startTransaction);
        try {
          await held.run(startTransaction);
          const result = await fn({ run: (query) => observeDatabaseCall(statementCall(query), () => held.run(query)) });
          await held.run(commit);
          return result;
        } catch (error) {
          // the statement that failed is reported; a connection that cannot roll back is not reused
          if (!held.lost) await held.run(rollback).catch(() => held.destroy());
          throw error;
        } finally {
          held.release();
        }
      }),
    describe: (query, tableNames) =>
      observeDatabaseCall({ engine: 'mysql', kind: 'describe', text: query }, () =>
        describeMysql(poolExecutor, probe, query, tableNames),
      ),
    close: () => pool.end(),
  };
}

function hold(conn: mysql.PoolConnection, statementTimeoutMs: number): Held {
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
  const query = async (statement: Statement): Promise<[unknown, mysql.FieldPacket[]]> => {
    try {
      return await bounded(
        conn.query({ sql: statement.text, values: statement.params as Value[] }),
        statementTimeoutMs,
        destroy,
      );
    } catch (error) {
      // a network failure (mysql2 marks it fatal) leaves nothing to reuse
      if ((error as { fatal?: unknown }).fatal === true) destroy();
      throw classifyDbError(mysqlErrors, error, statement);
    }
  };
  const readEach = async (statement: Statement, batchRows: number, each: (rows: readonly Row[]) => void) => {
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
      await bounded(readRows(conn, statement, batchRows, take, destroy), statementTimeoutMs, destroy);
    } catch (error) {
      if (stopped) throw stopped.error;
      // a network failure (mysql2 marks it fatal) leaves nothing to reuse
      if ((error as { fatal?: unknown }).fatal === true) destroy();
      throw classifyDbError(mysqlErrors, error, statement);
    }
  };
  return {
    query,
    readEach,
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

function queryResultOf(result: unknown): QueryResult {
  if (Array.isArray(result)) return { rows: result as unknown as QueryResult['rows'], rowsAffected: result.length };
  const header = result as mysql.ResultSetHeader;
  return {
    rows: [],
    rowsAffected: header.affectedRows,
    insertId: header.insertId ? String(header.insertId) : undefined,
  };
}

/**
 * A client-side statement timeout. mysql2's own `timeout` only rejects the query and leaves the connection in
 * the pool with the statement still running or its answer still to come; MySQL has no cancel on the same
 * connection, so a call unanswered after the statement timeout and a margin is given up with its connection.
 */
async function bounded<T>(pending: Promise<T>, statementTimeoutMs: number, destroy: () => void): Promise<T> {
  const deadline = noAnswerDeadline(statementTimeoutMs, destroy);
  deadline.start();
  try {
    return await Promise.race([pending, deadline.expired]);
  } finally {
    deadline.end();
  }
}
