/**
 * A Database whose password comes from a source (an IAM token, a secret): when the database refuses the login of a
 * new connection, the secret is fetched again and the call retried once, so a rotated password costs one failed
 * login and nothing more; a password that stays wrong is a 500 that says where it came from, never a loop. A
 * refused login happens before any statement of the call runs (a transaction's function included), so the retry
 * repeats nothing. A password the source could not give (a token that could not be signed) was sent empty and
 * refused: the source, asked again, says why, and that is the call's error.
 */
import { DatabaseError, type ServiceError } from '../errors';
import { type ErrorTable, isLoginRejected } from './classify-error';
import type { Database } from './database';
import { explainFailure, refusedLogin, type SourcedLogin } from './login-errors';

/** `errors`: the error table of the database's engine, which says when a login was refused. */
export function renewingDatabase(db: Database, login: SourcedLogin, errors: ErrorTable): Database {
  const once = <T>(call: () => Promise<T>) => retryOnce(login, errors, call, () => false);
  /** `run` notes when the call has started to run statements or hand rows out: a retry would repeat them. */
  const startedBy = <T>(run: (start: () => void) => Promise<T>) => {
    let started = false;
    const start = () => {
      started = true;
    };
    return retryOnce(
      login,
      errors,
      () => run(start),
      () => started,
    );
  };
  return {
    engine: db.engine,
    get insertsReturn() {
      return db.insertsReturn;
    },
    run: (statement) => once(() => db.run(statement)),
    transaction: (fn) =>
      startedBy((start) =>
        db.transaction((tx) => {
          start();
          return fn(tx);
        }),
      ),
    readEach: (statement, batchRows, each) =>
      startedBy((start) =>
        db.readEach(statement, batchRows, (rows) => {
          start();
          each(rows);
        }),
      ),
    describe: (query, tableNames) => once(() => db.describe(query, tableNames)),
    close: () => db.close(),
  };
}

/** `call`, once more after its login was refused and the secret renewed, unless `started` says it did anything. */
async function retryOnce<T>(
  login: SourcedLogin,
  errors: ErrorTable,
  call: () => Promise<T>,
  started: () => boolean,
): Promise<T> {
  const version = await login.source.version();
  try {
    return await call();
  } catch (error) {
    if (!isLoginRejected(errors, error) || started() || !(await renew(login, version))) {
      throw await explain(login, errors, error);
    }
  }
  try {
    return await call();
  } catch (error) {
    throw await explain(login, errors, error);
  }
}

/** A refused login is explained by the source's own failure, when it has one, or in the source's terms. */
async function explain(login: SourcedLogin, errors: ErrorTable, error: unknown): Promise<unknown> {
  if (!isLoginRejected(errors, error)) return explainFailure(login, error);
  const password = await login.source.password();
  return password.ok ? refusedLogin(login, error as ServiceError) : password.failure;
}

/**
 * The secret fetched again. Its failure is database_unreachable, even for a secret gone or denied: the database
 * cannot be reached with the login at hand, and resolve-resource reads database_unconfigured from a catalog probe
 * as a database that does not exist.
 */
function renew(login: SourcedLogin, version: number): Promise<boolean> {
  return login.source.renew(version).catch((error: unknown) => {
    throw error instanceof DatabaseError && error.code === 'database_unconfigured'
      ? new DatabaseError('database_unreachable', error.message, error.cause)
      : error;
  });
}
