/**
 * Turns a driver error into the service's error (D19, D20): one table per dialect, a comment per SQLSTATE or
 * errno. The message always ends with ` :: ` and the statement with its values. Pure.
 */
import { BadRequestError, ConflictError, DatabaseError, type ServiceError } from '../errors';
import type { Dialect } from '../resource';
import { inlineParams } from './inline-params';
import type { CompiledQuery } from './types';

type Kind = 'unreachable' | 'missing_database' | 'unique' | 'foreign_key' | 'bad_value' | 'other';

/** Network-level failures of either driver: the database cannot be reached (spec 7). */
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
]);

const postgresStates: Record<string, Kind> = {
  '08000': 'unreachable', // connection_exception
  '08001': 'unreachable', // sqlclient_unable_to_establish_sqlconnection
  '08006': 'unreachable', // connection_failure
  '57P01': 'unreachable', // admin_shutdown
  '57P03': 'unreachable', // cannot_connect_now (starting up)
  '3D000': 'missing_database', // invalid_catalog_name: the database the URL names does not exist
  '23505': 'unique', // unique_violation
  '23503': 'foreign_key', // foreign_key_violation
  '23502': 'bad_value', // not_null_violation
  '23514': 'bad_value', // check_violation
  '22001': 'bad_value', // string_data_right_truncation
  '22003': 'bad_value', // numeric_value_out_of_range
  '22007': 'bad_value', // invalid_datetime_format
  '22008': 'bad_value', // datetime_field_overflow
  '22P02': 'bad_value', // invalid_text_representation
  '22021': 'bad_value', // character_not_in_repertoire (a NUL byte in text)
};

const mysqlErrnos: Record<number, Kind> = {
  1062: 'unique', // ER_DUP_ENTRY
  1451: 'foreign_key', // ER_ROW_IS_REFERENCED_2 (delete/update of a referenced row)
  1452: 'foreign_key', // ER_NO_REFERENCED_ROW_2 (insert/update with a missing reference)
  1048: 'bad_value', // ER_BAD_NULL_ERROR
  1364: 'bad_value', // ER_NO_DEFAULT_FOR_FIELD
  1406: 'bad_value', // ER_DATA_TOO_LONG
  1264: 'bad_value', // ER_WARN_DATA_OUT_OF_RANGE
  1265: 'bad_value', // WARN_DATA_TRUNCATED
  1292: 'bad_value', // ER_TRUNCATED_WRONG_VALUE (dates)
  1366: 'bad_value', // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
  3819: 'bad_value', // ER_CHECK_CONSTRAINT_VIOLATED (MySQL)
  4025: 'bad_value', // ER_CONSTRAINT_FAILED (MariaDB CHECK)
  1045: 'unreachable', // ER_ACCESS_DENIED_ERROR: cannot log in
  1049: 'missing_database', // ER_BAD_DB_ERROR: the database the URL names does not exist
  1040: 'unreachable', // ER_CON_COUNT_ERROR: too many connections
};

interface DriverError {
  code?: unknown;
  errno?: unknown;
  message?: unknown;
  detail?: unknown;
}

function kindOf(dialect: Dialect, err: DriverError): Kind {
  if (typeof err.code === 'string' && unreachableCodes.has(err.code)) return 'unreachable';
  if (dialect === 'postgres' && typeof err.code === 'string') return postgresStates[err.code] ?? 'other';
  if (dialect === 'mysql' && typeof err.errno === 'number') return mysqlErrnos[err.errno] ?? 'other';
  return 'other';
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
  dialect: Dialect,
  error: unknown,
  query: CompiledQuery,
  labelOf: (column: string) => string = (c) => c,
): ServiceError {
  const err = (error ?? {}) as DriverError;
  const message = relabel(driverMessage(err), labelOf);
  const statement = inlineParams(dialect, query);
  switch (kindOf(dialect, err)) {
    case 'unreachable':
      return new DatabaseError('database_unreachable', `${message} :: ${statement}`);
    case 'missing_database':
      // a configuration error, not the definition's: resolve-resource names the variable that fixes it
      return new DatabaseError('database_unconfigured', `${message} :: ${statement}`);
    case 'unique':
      return new ConflictError('unique_violation', `Conflict: ${message}`);
    case 'foreign_key':
      return new ConflictError('foreign_key_violation', `Conflict: ${message}`);
    case 'bad_value':
      return new BadRequestError('bad_value', `The database rejected a value: ${message}`);
    case 'other':
      return new DatabaseError('database_error', `${message} :: ${statement}`);
  }
}

/** Rewrites `Key (col, col)=` (PostgreSQL) and `for key 'col'` (MySQL) with labels. */
export function relabel(message: string, labelOf: (column: string) => string): string {
  return message
    .replace(/Key \(([^)]*)\)=/g, (_, cols: string) => `Key (${cols.split(/,\s*/).map(labelOf).join(', ')})=`)
    .replace(/for key '(?:[^'.]*\.)?([^']*)'/g, (_, key: string) => `for key '${labelOf(key)}'`);
}
