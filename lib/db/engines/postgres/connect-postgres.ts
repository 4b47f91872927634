/**
 * PostgreSQL (and PGlite over the wire, and RDS Proxy) through postgres.js. Values come back as the database's
 * text (no JS floats, no Date) except booleans and bytea. No session state: unnamed statements
 * (prepare: false), no SET, so RDS Proxy never pins a connection; a process that talks to the database directly
 * (the server mode) may prepare them instead (DB_PREPARE). Every call is bounded on the client side:
 * cancelled at the statement timeout, and given up (with its connection) when even the cancel brings no answer.
 */
import postgres from 'postgres';
import { observeDatabaseCall } from '../../../request-context';
import type { Database } from '../../database';
import type { ConnectOptions } from '../../engine';
import type { PasswordSource } from '../../password-source';
import { describePostgres } from './describe-postgres';
import {
  type Bounds,
  boundedUnsafe,
  executor,
  prepared,
  readEachPostgres,
  runPostgres,
  transaction,
  unnamed,
} from './postgres-calls';
import { postgresOptions } from './postgres-options';

/** What lib/request-context times (and traces) of a transaction: what it is, never its values. */
const transactionCall = { engine: 'postgres', kind: 'transaction' } as const;

function createClient(url: string, options: ConnectOptions, source?: PasswordSource): postgres.Sql {
  return postgres(url, postgresOptions(url, options, source));
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
