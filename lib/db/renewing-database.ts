/**
 * A Database whose password comes from a PasswordSource (database-credentials.ts): when the database refuses the
 * login of a new connection, the secret is fetched again and the call retried once, so a rotated password costs
 * one failed login and nothing more; a password that stays wrong is a 500 that says where it came from, never a
 * loop. A refused login happens before any statement of the call runs (a transaction's function included), so
 * the retry repeats nothing.
 */
import { DatabaseError, type ServiceError } from '../errors';
import { type ErrorTable, isLoginRejected } from './classify-error';
import type { Database } from './database';
import type { PasswordSource } from './database-credentials';

/** `errors`: the error table of the database's engine, which says when a login was refused. */
export function renewingDatabase(db: Database, source: PasswordSource, errors: ErrorTable): Database {
  /** The password source's own failure (a token that could not be signed) explains a refused login best. */
  const explain = (error: unknown): unknown =>
    source.takeFailure() ??
    (isLoginRejected(errors, error) ? source.rejected(error as ServiceError) : source.explain(error));

  /**
   * The secret fetched again. Its failure is database_unreachable, even for a secret gone or denied: the database
   * cannot be reached with the login at hand, and resolve-resource reads database_unconfigured from a catalog probe
   * as a database that does not exist.
   */
  const renew = (version: number) =>
    source.renew(version).catch((error: unknown) => {
      throw error instanceof DatabaseError && error.code === 'database_unconfigured'
        ? new DatabaseError('database_unreachable', error.message, error.cause)
        : error;
    });

  /** `started` tells whether the call did anything that a retry would repeat. */
  async function once<T>(call: () => Promise<T>, started: () => boolean = () => false): Promise<T> {
    const version = source.version;
    try {
      return await call();
    } catch (error) {
      const failure = source.takeFailure();
      if (failure) throw failure;
      if (!isLoginRejected(errors, error) || started() || !(await renew(version))) throw explain(error);
    }
    try {
      return await call();
    } catch (error) {
      throw explain(error);
    }
  }

  return {
    engine: db.engine,
    run: (statement) => once(() => db.run(statement)),
    transaction(fn) {
      let started = false;
      return once(
        () =>
          db.transaction((tx) => {
            started = true;
            return fn(tx);
          }),
        () => started,
      );
    },
    readEach(statement, batchRows, each) {
      let started = false;
      return once(
        () =>
          db.readEach(statement, batchRows, (rows) => {
            started = true;
            each(rows);
          }),
        () => started,
      );
    },
    describe: (query, tableNames) => once(() => db.describe(query, tableNames)),
    close: () => db.close(),
  };
}
