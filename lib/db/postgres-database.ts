/**
 * PostgreSQL (and PGlite over the wire, and RDS Proxy) through postgres.js. Values come back as the database's
 * text (no JS floats, no Date) except booleans and bytea. No session state: unnamed statements
 * (prepare: false), no SET, so RDS Proxy never pins a connection.
 */
import postgres from 'postgres';
import { classifyDbError } from './classify-error';
import type { Database, Executor, QueryResult, Statement } from './database';
import { describePostgres } from './describe-postgres';
import { postgresErrors } from './postgres-errors';

export interface ConnectOptions {
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
  readonly poolSize: number;
}

/** Every text-like type stays text both ways; the serializers decide how to write it. */
const textOids = [20, 21, 23, 26, 114, 3802, 700, 701, 1082, 1083, 1114, 1184, 1266, 1700, 1186];

export function connectPostgres(url: string, options: ConnectOptions): Database {
  const sql = postgres(url, {
    max: options.poolSize,
    prepare: false,
    fetch_types: false,
    connect_timeout: options.connectTimeoutMs / 1000,
    idle_timeout: 300,
    onnotice: () => {},
    connection: { application_name: 'relational-resource-service' },
    types: {
      text: { to: 25, from: textOids, serialize: (x: unknown) => String(x), parse: (x: string) => x },
    },
  });

  const executor = (runner: postgres.Sql | postgres.TransactionSql): Executor => ({
    run: (query) => runPostgres(runner, query, options.statementTimeoutMs),
  });

  return {
    dialect: 'postgres',
    ...executor(sql),
    async transaction(fn) {
      return (await sql.begin((tx) => fn(executor(tx)))) as Awaited<ReturnType<typeof fn>>;
    },
    describe: (query, tableNames) => describePostgres(executor(sql), sql, query, tableNames),
    close: () => sql.end({ timeout: 1 }),
  };
}

async function runPostgres(
  runner: postgres.Sql | postgres.TransactionSql,
  query: Statement,
  timeoutMs: number,
): Promise<QueryResult> {
  const pending = runner.unsafe(query.text, query.params as postgres.ParameterOrJSON<never>[]);
  // A client-side statement timeout: cancel the query, no SET statement_timeout (it would pin RDS Proxy).
  const timer = setTimeout(() => pending.cancel(), timeoutMs);
  try {
    const result = await pending;
    return { rows: result as unknown as QueryResult['rows'], rowsAffected: result.count ?? result.length };
  } catch (error) {
    throw classifyDbError(postgresErrors, error, query);
  } finally {
    clearTimeout(timer);
  }
}
