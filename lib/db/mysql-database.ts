/**
 * MySQL, MariaDB and Aurora MySQL (and RDS Proxy) through mysql2. Client-side parameter binding (`query`, not
 * server-side `execute`, which would pin RDS Proxy sessions); decimals, bigints and dates as strings;
 * tinyint(1) as boolean.
 */
import mysql from 'mysql2/promise';
import type { Value } from '../values';
import { classifyDbError } from './classify-error';
import type { Database, Executor, QueryResult, Statement } from './database';
import { describeMysql } from './describe-mysql';
import { mysqlErrors } from './mysql-errors';
import type { ConnectOptions } from './postgres-database';

type Queryable = Pick<mysql.Pool, 'query'>;

const typeCast: mysql.TypeCast = (field, next) => {
  if (field.type === 'TINY' && field.length === 1) {
    const text = field.string();
    return text === null ? null : text !== '0';
  }
  return next();
};

/** `mysql://user:password@host:port/database?ssl=true`; the password is URL-decoded. */
export function mysqlOptions(url: string, options: ConnectOptions): mysql.PoolOptions {
  const u = new URL(url);
  const ssl = u.searchParams.get('ssl');
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 3306,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)) || undefined,
    connectionLimit: options.poolSize,
    connectTimeout: options.connectTimeoutMs,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    decimalNumbers: false,
    typeCast,
    charset: 'utf8mb4',
    ...(ssl && ssl !== 'false' ? { ssl: ssl === 'Amazon RDS' ? 'Amazon RDS' : {} } : {}),
  };
}

export function connectMysql(url: string, options: ConnectOptions): Database {
  const pool = mysql.createPool(mysqlOptions(url, options));
  const executor = (conn: Queryable): Executor => ({
    run: (query) => runMysql(conn, query, options.statementTimeoutMs),
  });
  return {
    dialect: 'mysql',
    ...executor(pool),
    async transaction(fn) {
      const conn = await pool.getConnection().catch((error: unknown) => {
        throw classifyDbError(mysqlErrors, error, { text: 'START TRANSACTION', params: [] });
      });
      try {
        await conn.beginTransaction();
        const result = await fn(executor(conn));
        await conn.commit();
        conn.release();
        return result;
      } catch (error) {
        // a connection that failed mid-transaction is destroyed rather than returned to the pool
        await conn.rollback().then(
          () => conn.release(),
          () => conn.destroy(),
        );
        throw error;
      }
    },
    describe: (query, tableNames) => describeMysql(executor(pool), pool, query, tableNames),
    close: () => pool.end(),
  };
}

async function runMysql(conn: Queryable, query: Statement, timeoutMs: number): Promise<QueryResult> {
  try {
    const [result] = await conn.query({ sql: query.text, values: query.params as Value[], timeout: timeoutMs });
    if (Array.isArray(result)) return { rows: result as unknown as QueryResult['rows'], rowsAffected: result.length };
    const header = result as mysql.ResultSetHeader;
    return {
      rows: [],
      rowsAffected: header.affectedRows,
      insertId: header.insertId ? String(header.insertId) : undefined,
    };
  } catch (error) {
    throw classifyDbError(mysqlErrors, error, query);
  }
}
