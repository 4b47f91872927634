/**
 * The calls of a PostgreSQL client (connect-postgres.ts): one statement, a transaction, a read a batch at a time,
 * each timed and traced (lib/request-context), its failure classified by PostgreSQL's error table, and bounded on
 * the client side: cancelled at the statement timeout, and given up (with its client) when even the cancel brings
 * no answer.
 */
import type postgres from 'postgres';
import { observeDatabaseCall } from '../../../request-context';
import { classifyDbError } from '../../classify-error';
import type { Executor, QueryResult, Row, Statement } from '../../database';
import { answerWithin, noAnswerDeadline } from '../../no-answer-deadline';
import { postgresErrors } from './postgres-errors';

const begin: Statement = { text: 'BEGIN', params: [] };
const commit: Statement = { text: 'COMMIT', params: [] };
const rollback: Statement = { text: 'ROLLBACK', params: [] };

export interface Bounds {
  readonly statementTimeoutMs: number;
  /** Called with the client whose call got no answer. */
  readonly giveUp: (client: postgres.Sql) => void;
  /** Sends a statement: prepared (DB_PREPARE) or unnamed. */
  readonly run: typeof unnamed;
}

type Runner = postgres.Sql | postgres.TransactionSql;
type Pending = postgres.PendingQuery<postgres.Row[]>;

export const unnamed = (runner: Runner, query: Statement): Pending =>
  runner.unsafe(query.text, query.params as postgres.ParameterOrJSON<never>[]);
// postgres.js's unsafe() leaves statements unnamed unless asked, whatever the client's own `prepare`
export const prepared = (runner: Runner, query: Statement): Pending =>
  runner.unsafe(query.text, query.params as postgres.ParameterOrJSON<never>[], { prepare: true }) as Pending;

export const executor = (
  client: postgres.Sql,
  runner: postgres.Sql | postgres.TransactionSql,
  bounds: Bounds,
): Executor => ({
  run: (query) => runPostgres(client, runner, query, bounds),
});

/**
 * Commit when `fn` resolves, roll back when it throws; BEGIN, COMMIT and ROLLBACK are bounded too. A statement `fn`
 * runs last with runWithCommit goes with the COMMIT: postgres.js sends both at once, and a failure of the statement
 * makes the COMMIT a ROLLBACK on the server, which is then thrown as the statement's error.
 */
export async function transaction<T>(
  client: postgres.Sql,
  fn: (tx: Executor) => Promise<T>,
  bounds: Bounds,
): Promise<T> {
  const deadline = noAnswerDeadline(bounds.statementTimeoutMs, () => bounds.giveUp(client));
  let failure: { error: unknown } | undefined;
  // When the connection fails, postgres.js may reject the transaction before the statement in flight: the
  // failure is then reported with that statement.
  let running = begin;
  // the statement sent with the COMMIT (runWithCommit): its outcome is the transaction's
  let withCommit: { readonly query: Statement; readonly answer: Promise<unknown> } | undefined;
  const runner = (tx: postgres.TransactionSql): Executor => {
    const statements = executor(client, tx, bounds);
    return {
      run: (query) => {
        running = query;
        return statements.run(query);
      },
      runWithCommit: (query) => {
        running = query;
        const answer = statements.run(query);
        // its failure is thrown once the COMMIT (a ROLLBACK by then) has answered
        answer.catch(() => undefined);
        withCommit = { query, answer };
      },
    };
  };
  deadline.start();
  const work = client.begin(async (tx) => {
    deadline.stop();
    try {
      return await fn(runner(tx));
    } catch (error) {
      failure = { error };
      throw error;
    } finally {
      running = failure ? rollback : commit;
      deadline.start();
    }
  });
  try {
    const result = (await Promise.race([work, deadline.expired])) as T;
    // its failure aborted the transaction: the COMMIT sent after it rolled everything back
    if (withCommit) await withCommit.answer;
    return result;
  } catch (error) {
    // the statement that failed is reported, even when the rollback after it failed too
    throw failure ? failure.error : classifyDbError(postgresErrors, error, running);
  } finally {
    deadline.end();
  }
}

export async function runPostgres(
  client: postgres.Sql,
  runner: postgres.Sql | postgres.TransactionSql,
  query: Statement,
  bounds: Bounds,
): Promise<QueryResult> {
  return observeDatabaseCall({ engine: 'postgres', kind: 'statement', text: query.text }, async () => {
    try {
      const result = await bounded(client, bounds.run(runner, query), bounds);
      return { rows: result as unknown as QueryResult['rows'], rowsAffected: result.count ?? result.length };
    } catch (error) {
      throw classifyDbError(postgresErrors, error, query);
    }
  });
}

/**
 * A portal read a batch at a time (Execute with a row count): when `each` throws, the loop's end closes the portal
 * (Close and Sync), so the server sends no more rows and the connection goes back to the pool as it is. The read
 * ends at the server's ReadyForQuery, when its connection is free again.
 */
export async function readEachPostgres(
  client: postgres.Sql,
  query: Statement,
  batchRows: number,
  each: (rows: readonly Row[]) => void,
  bounds: Bounds,
): Promise<void> {
  return observeDatabaseCall({ engine: 'postgres', kind: 'statement', text: query.text }, async () => {
    const pending = bounds.run(client, query);
    let stopped: { readonly error: unknown } | undefined;
    const reading = async () => {
      for await (const rows of pending.cursor(batchRows)) {
        try {
          each(rows as unknown as readonly Row[]);
        } catch (error) {
          stopped = { error };
          break;
        }
      }
    };
    try {
      await bounded(client, pending, bounds, reading());
    } catch (error) {
      throw classifyDbError(postgresErrors, error, query);
    }
    if (stopped) throw stopped.error;
  });
}

/**
 * The client for describe-postgres, which reads the probe's RowDescription from postgres.js's own result: its
 * `unsafe` calls are bounded like every other call.
 */
export function boundedUnsafe(client: postgres.Sql, bounds: Bounds): postgres.Sql {
  return new Proxy(client, {
    get: (target, key, receiver) =>
      key === 'unsafe'
        ? (text: string, values: postgres.ParameterOrJSON<never>[] = []) =>
            bounded(target, target.unsafe(text, values), bounds)
        : Reflect.get(target, key, receiver),
  });
}

/**
 * A client-side statement timeout: at DB_STATEMENT_TIMEOUT_MS the query is cancelled (no SET statement_timeout,
 * which would pin RDS Proxy), which needs a new connection; when no answer has come even a margin later, the
 * network is not carrying this connection (frozen, or the peer is gone), so the call is given up with it.
 * `work`: what is awaited, when it is not the query itself (a read a batch at a time).
 */
function bounded<T = postgres.RowList<postgres.Row[]>>(
  client: postgres.Sql,
  pending: postgres.PendingQuery<postgres.Row[]>,
  bounds: Bounds,
  work: Promise<T> = pending as unknown as Promise<T>,
): Promise<T> {
  // a cancel request that cannot reach the server rejects: nothing to do, the margin after it still holds
  const cancel = () => pending.cancel()?.catch(() => {});
  return answerWithin(work, bounds.statementTimeoutMs, () => bounds.giveUp(client), cancel);
}
