/**
 * PostgreSQL (and PGlite over the wire, and RDS Proxy) through postgres.js. Values come back as the database's
 * text (no JS floats, no Date) except booleans and bytea. No session state: unnamed statements
 * (prepare: false), no SET, so RDS Proxy never pins a connection; a process that talks to the database directly
 * (the server mode) may prepare them instead (DB_PREPARE). Every call is bounded on the client side:
 * cancelled at the statement timeout, and given up (with its connection) when even the cancel brings no answer.
 */
import postgres from 'postgres';
import { ConfigurationError } from '../errors';
import { observeDatabaseCall } from '../request-context';
import { classifyDbError } from './classify-error';
import type { Database, Executor, QueryResult, Row, Statement } from './database';
import type { PasswordSource } from './database-credentials';
import { describePostgres } from './describe-postgres';
import { noAnswerDeadline } from './no-answer-deadline';
import { postgresErrors } from './postgres-errors';

export interface ConnectOptions {
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
  readonly poolSize: number;
  readonly idleTimeoutS: number;
  /**
   * Named prepared statements, each parsed and planned once per connection (postgres.js keeps them per text);
   * DB_PREPARE. They pin an RDS Proxy connection, so not on Lambda; MySQL ignores it (client-side binding).
   */
  readonly prepare?: boolean;
}

/** Every text-like type stays text both ways; the serializers decide how to write it. */
const textOids = [20, 21, 23, 26, 114, 3802, 700, 701, 1082, 1083, 1114, 1184, 1266, 1700, 1186];

/** What lib/request-context times (and traces) of each call: the statement's text, never its values. */
const transactionCall = { engine: 'postgres', kind: 'transaction' } as const;

const begin: Statement = { text: 'BEGIN', params: [] };
const commit: Statement = { text: 'COMMIT', params: [] };
const rollback: Statement = { text: 'ROLLBACK', params: [] };

/**
 * TLS for an IAM login, whose token is a bearer credential for 15 minutes: verified (the server's certificate
 * chains to a CA Node trusts and names the host) unless the URL asks for `sslmode=require` (encrypted, not
 * verified). RDS Proxy's certificates come from Amazon's public CAs, which Node trusts; an RDS instance's need its
 * CA bundle in NODE_EXTRA_CA_CERTS, or `sslmode=require`. A URL that allows a connection without TLS is refused.
 */
export function postgresIamTls(url: string): 'require' | 'verify-full' {
  const params = new URL(url).searchParams;
  const mode = params.get('sslmode') ?? params.get('ssl');
  if (mode === null || mode === 'verify-full' || mode === 'verify-ca' || mode === 'true') return 'verify-full';
  if (mode === 'require') return 'require';
  throw new ConfigurationError(
    `DATABASE_IAM_AUTH=true sends the IAM token as the password, so it needs TLS; the database URL has sslmode=${mode}: use sslmode=verify-full (the default) or sslmode=require`,
  );
}

/** The password of each new connection, from the source; with IAM, TLS is required. */
function login(url: string, source?: PasswordSource): Partial<postgres.Options<Record<string, never>>> {
  if (!source) return {};
  return { password: () => source.password(), ...(source.kind === 'iam' ? { ssl: postgresIamTls(url) } : {}) };
}

function createClient(url: string, options: ConnectOptions, source?: PasswordSource): postgres.Sql {
  return postgres(url, {
    ...login(url, source),
    max: options.poolSize,
    prepare: options.prepare === true,
    fetch_types: false,
    connect_timeout: options.connectTimeoutMs / 1000,
    idle_timeout: options.idleTimeoutS,
    // TCP keep-alive after 60 s idle, so a pooled connection whose peer is gone is noticed
    keep_alive: 60,
    // Reconnect at once: the default backoff waits up to 20 s after repeated failures, so answers during an
    // outage, and the first request after it, would wait far beyond the connect timeout.
    backoff: false,
    onnotice: () => {},
    connection: { application_name: 'relational-resource-service' },
    types: {
      text: { to: 25, from: textOids, serialize: (x: unknown) => String(x), parse: (x: string) => x },
    },
  });
}

export function connectPostgres(url: string, options: ConnectOptions, source?: PasswordSource): Database {
  let client = createClient(url, options, source);
  /**
   * A call that got no answer leaves a connection that must never carry another statement. postgres.js cannot
   * close one connection of its pool, so the whole client is replaced: later calls get a new one, and the old
   * one is ended at once (its connections take a Terminate message and a FIN; a peer that is gone never answers
   * them, so their sockets close when TCP gives up). On Lambda a container serves one request at a time with a
   * pool of 1-2, so nothing else is lost; on a local server, the other requests in flight on the old client
   * fail as unreachable too.
   */
  const giveUp = (stale: postgres.Sql) => {
    if (client !== stale) return;
    client = createClient(url, options, source);
    stale.end({ timeout: 0 }).catch(() => {});
  };
  const run = options.prepare === true ? prepared : unnamed;
  const bounds: Bounds = { statementTimeoutMs: options.statementTimeoutMs, giveUp, run };

  return {
    engine: 'postgres',
    run: (query) => runPostgres(client, client, query, bounds),
    readEach: (query, batchRows, each) => readEachPostgres(client, query, batchRows, each, bounds),
    transaction: (fn) => observeDatabaseCall(transactionCall, () => transaction(client, fn, bounds)),
    describe: (query, tableNames) => {
      const sql = client;
      return observeDatabaseCall({ engine: 'postgres', kind: 'describe', text: query }, () =>
        describePostgres(executor(sql, sql, bounds), boundedUnsafe(sql, bounds), query, tableNames),
      );
    },
    close: () => client.end({ timeout: 1 }),
  };
}

interface Bounds {
  readonly statementTimeoutMs: number;
  /** Called with the client whose call got no answer. */
  readonly giveUp: (client: postgres.Sql) => void;
  /** Sends a statement: prepared (DB_PREPARE) or unnamed. */
  readonly run: typeof unnamed;
}

type Runner = postgres.Sql | postgres.TransactionSql;
type Pending = postgres.PendingQuery<postgres.Row[]>;

const unnamed = (runner: Runner, query: Statement): Pending =>
  runner.unsafe(query.text, query.params as postgres.ParameterOrJSON<never>[]);
// postgres.js's unsafe() leaves statements unnamed unless asked, whatever the client's own `prepare`
const prepared = (runner: Runner, query: Statement): Pending =>
  runner.unsafe(query.text, query.params as postgres.ParameterOrJSON<never>[], { prepare: true }) as Pending;

const executor = (client: postgres.Sql, runner: postgres.Sql | postgres.TransactionSql, bounds: Bounds): Executor => ({
  run: (query) => runPostgres(client, runner, query, bounds),
});

/** Commit when `fn` resolves, roll back when it throws; BEGIN, COMMIT and ROLLBACK are bounded too. */
async function transaction<T>(client: postgres.Sql, fn: (tx: Executor) => Promise<T>, bounds: Bounds): Promise<T> {
  const deadline = noAnswerDeadline(bounds.statementTimeoutMs, () => bounds.giveUp(client));
  let failure: { error: unknown } | undefined;
  // When the connection fails, postgres.js may reject the transaction before the statement in flight: the
  // failure is then reported with that statement.
  let running = begin;
  const runner = (tx: postgres.TransactionSql): Executor => {
    const statements = executor(client, tx, bounds);
    return {
      run: (query) => {
        running = query;
        return statements.run(query);
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
    return (await Promise.race([work, deadline.expired])) as T;
  } catch (error) {
    // the statement that failed is reported, even when the rollback after it failed too
    throw failure ? failure.error : classifyDbError(postgresErrors, error, running);
  } finally {
    deadline.end();
  }
}

async function runPostgres(
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
async function readEachPostgres(
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
function boundedUnsafe(client: postgres.Sql, bounds: Bounds): postgres.Sql {
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
async function bounded<T = postgres.RowList<postgres.Row[]>>(
  client: postgres.Sql,
  pending: postgres.PendingQuery<postgres.Row[]>,
  bounds: Bounds,
  work: Promise<T> = pending as unknown as Promise<T>,
): Promise<T> {
  // a cancel request that cannot reach the server rejects: nothing to do, the deadline below still holds
  const cancel = setTimeout(() => pending.cancel()?.catch(() => {}), bounds.statementTimeoutMs);
  const deadline = noAnswerDeadline(bounds.statementTimeoutMs, () => bounds.giveUp(client));
  deadline.start();
  try {
    return await Promise.race([work, deadline.expired]);
  } finally {
    clearTimeout(cancel);
    deadline.end();
  }
}
