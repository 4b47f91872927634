/**
 * Turns a driver error into the service's error: network failures here, each driver's own codes in its table
 * (postgres-errors, mysql-errors). No value the database supplies reaches a client: a constraint error says the
 * constraint, its table and columns (never the DETAIL of PostgreSQL, which quotes keys and failing rows, nor the
 * duplicate entry of MySQL); any other error gives the driver's message without its DETAIL, and ends with ` :: `
 * and the statement, whose values stand as placeholders (they may have been read from stored rows, as the keys a
 * filtered delete found). An unreachable database (and the error of a call the database did not answer in time,
 * which counts as one) keeps its form: the driver's message ` :: ` the statement with its values. Pure.
 */
import { BadRequestError, ConstraintError, type ConstraintViolation, DatabaseError, ServiceError } from '../errors';
import type { Statement } from './database';
import { inlineParams, type PlaceholderStyle } from './inline-params';
import { violationText } from './violation-text';
import { type WrittenTable, writtenTable } from './written-table';

/** `login`: the database refused the login (a wrong password or token): unreachable for the client, and a sign that a
 * rotated secret must be fetched again. */
export type ErrorKind =
  | 'unreachable'
  | 'login'
  | 'missing_database'
  | ConstraintViolation['kind']
  | 'bad_value'
  | 'other';

/**
 * A database engine's error table: its driver's own error codes, what its constraint errors say, how its statements
 * show values.
 */
export interface ErrorTable {
  /** The kind of a driver error by the driver's own code (SQLSTATE, errno), or undefined when unknown. */
  kindOf(err: DriverError): ErrorKind | undefined;
  /** What a constraint error is about, from the error and the table the failing statement writes: no value. */
  violationOf(
    err: DriverError,
    kind: ConstraintViolation['kind'],
    written: WrittenTable | undefined,
  ): ConstraintViolation;
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
  /** PostgreSQL: the DETAIL line, which may quote stored values; and the names the error is about. */
  detail?: unknown;
  schema_name?: unknown;
  table_name?: unknown;
  column_name?: unknown;
  constraint_name?: unknown;
}

function kindOf(errors: ErrorTable, err: DriverError): ErrorKind {
  if (typeof err.code === 'string' && unreachableCodes.has(err.code)) return 'unreachable';
  return errors.kindOf(err) ?? 'other';
}

/** The driver's message alone: PostgreSQL's DETAIL, which may quote stored values, is left out. */
function driverMessage(err: DriverError): string {
  return typeof err.message === 'string' && err.message ? err.message : String(err.code ?? 'unknown error');
}

/** The message of a connection failure, with PostgreSQL's DETAIL when there is one (it holds no row). */
function connectionMessage(err: DriverError): string {
  const message = driverMessage(err);
  return typeof err.detail === 'string' ? `${message} (${err.detail})` : message;
}

/**
 * A constraint error names the columns by the database's names: lib/execute, which knows the resource, says
 * them again in its labels.
 */
export function classifyDbError(errors: ErrorTable, error: unknown, query: Statement): ServiceError {
  // already the service's error (a statement of the same call classified it): keep its statement
  if (error instanceof ServiceError) return error;
  const err = (error ?? {}) as DriverError;
  const kind = kindOf(errors, err);
  switch (kind) {
    case 'unreachable':
    case 'login':
      return new DatabaseError(
        'database_unreachable',
        `${connectionMessage(err)} :: ${inlineParams(query, errors.placeholders)}`,
        error,
      );
    case 'missing_database':
      // a configuration error, not the definition's: resolve-resource names the variable that fixes it
      return new DatabaseError(
        'database_unconfigured',
        `${connectionMessage(err)} :: ${inlineParams(query, errors.placeholders)}`,
        error,
      );
    case 'unique':
    case 'foreign_key':
    case 'not_null':
    case 'check': {
      const violation = errors.violationOf(err, kind, writtenTable(query.text));
      return new ConstraintError(
        violation,
        violationText(
          violation,
          violation.columns.map((c) => `column ${c}`),
        ),
        error,
      );
    }
    case 'bad_value':
      return new BadRequestError('bad_value', `The database rejected a value: ${driverMessage(err)}`, error);
    case 'other':
      return new DatabaseError('database_error', `${driverMessage(err)} :: ${query.text}`, error);
  }
}

/** True when the database refused the login (the driver error, or the service's error standing for it). */
export function isLoginRejected(errors: ErrorTable, error: unknown): boolean {
  const err = error instanceof ServiceError ? error.cause : error;
  return typeof err === 'object' && err !== null && errors.kindOf(err as DriverError) === 'login';
}
