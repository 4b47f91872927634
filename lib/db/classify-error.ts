/**
 * Turns a driver error into the service's error: network failures here, each driver's own codes in its table
 * (postgres-errors, mysql-errors). A database failure's message ends with ` :: ` and the statement with its
 * values. Also the error of a call the database did not answer in time, which counts as a network failure. Pure.
 */
import { BadRequestError, ConflictError, DatabaseError, ServiceError } from '../errors';
import type { Statement } from './database';
import { inlineParams, type PlaceholderStyle } from './inline-params';

/** `login`: the database refused the login (a wrong password or token): unreachable for the client, and a sign that a
 * rotated secret must be fetched again. */
export type ErrorKind = 'unreachable' | 'login' | 'missing_database' | 'unique' | 'foreign_key' | 'bad_value' | 'other';

/** What one driver contributes: its own error codes, and how its statements show their values. */
export interface DriverErrors {
  /** The kind of a driver error by the driver's own code (SQLSTATE, errno), or undefined when unknown. */
  kindOf(err: DriverError): ErrorKind | undefined;
  readonly placeholders: PlaceholderStyle;
}

/** Network-level failures of either driver: the database cannot be reached. */
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'CONNECT_TIMEOUT', // postgres.js: connect_timeout elapsed
  'CONNECTION_CLOSED', // postgres.js: the server closed the connection
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'PROTOCOL_CONNECTION_LOST', // mysql2: the server closed the connection
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'NO_ANSWER', // noAnswerError: no answer within the statement timeout and its margin
]);

/**
 * How long past DB_STATEMENT_TIMEOUT_MS a database call may stay unanswered before its connection is taken for
 * dead. At the statement timeout PostgreSQL is asked to cancel, over a new connection; on a live network its
 * answer is back in milliseconds, so a call still silent after this margin has a connection that no longer
 * carries anything (a frozen network, a peer gone without a word).
 */
export const noAnswerMarginMs = 500;

/** The driver-level error a call rejects with when its connection is given up: classified as unreachable. */
export function noAnswerError(statementTimeoutMs: number): Error & { code: string } {
  const waited = statementTimeoutMs + noAnswerMarginMs;
  return Object.assign(
    new Error(
      `The database did not answer within ${waited} ms (DB_STATEMENT_TIMEOUT_MS ${statementTimeoutMs} + ${noAnswerMarginMs}); its connection was closed`,
    ),
    { code: 'NO_ANSWER' },
  );
}

export interface DriverError {
  code?: unknown;
  errno?: unknown;
  message?: unknown;
  detail?: unknown;
}

function kindOf(driver: DriverErrors, err: DriverError): ErrorKind {
  if (typeof err.code === 'string' && unreachableCodes.has(err.code)) return 'unreachable';
  return driver.kindOf(err) ?? 'other';
}

/** The driver's message, with the PostgreSQL detail line when there is one. */
function driverMessage(err: DriverError): string {
  const message = typeof err.message === 'string' && err.message ? err.message : String(err.code ?? 'unknown error');
  return typeof err.detail === 'string' ? `${message} (${err.detail})` : message;
}

/**
 * `labelOf` maps a column name to the resource's label for it, so conflicts name the fields clients know.
 */
export function classifyDbError(
  driver: DriverErrors,
  error: unknown,
  query: Statement,
  labelOf: (column: string) => string = (c) => c,
): ServiceError {
  // already the service's error (a statement of the same call classified it): keep its statement
  if (error instanceof ServiceError) return error;
  const err = (error ?? {}) as DriverError;
  const message = relabel(driverMessage(err), labelOf);
  const statement = inlineParams(query, driver.placeholders);
  switch (kindOf(driver, err)) {
    case 'unreachable':
    case 'login':
      return new DatabaseError('database_unreachable', `${message} :: ${statement}`, error);
    case 'missing_database':
      // a configuration error, not the definition's: resolve-resource names the variable that fixes it
      return new DatabaseError('database_unconfigured', `${message} :: ${statement}`, error);
    case 'unique':
      return new ConflictError('unique_violation', `Conflict: ${message}`, error);
    case 'foreign_key':
      return new ConflictError('foreign_key_violation', `Conflict: ${message}`, error);
    case 'bad_value':
      return new BadRequestError('bad_value', `The database rejected a value: ${message}`, error);
    case 'other':
      return new DatabaseError('database_error', `${message} :: ${statement}`, error);
  }
}

/** True when the database refused the login (the driver error, or the service's error standing for it). */
export function isLoginRejected(driver: DriverErrors, error: unknown): boolean {
  const err = error instanceof ServiceError ? error.cause : error;
  return typeof err === 'object' && err !== null && driver.kindOf(err as DriverError) === 'login';
}

/** Rewrites `Key (col, col)=` (PostgreSQL) and `for key 'col'` (MySQL) with labels. */
export function relabel(message: string, labelOf: (column: string) => string): string {
  return message
    .replace(/Key \(([^)]*)\)=/g, (_, cols: string) => `Key (${cols.split(/,\s*/).map(labelOf).join(', ')})=`)
    .replace(/for key '(?:[^'.]*\.)?([^']*)'/g, (_, key: string) => `for key '${labelOf(key)}'`);
}
