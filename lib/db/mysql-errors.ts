/**
 * MySQL's and MariaDB's error numbers (errno), a comment each, and their positional placeholders. Pure.
 */
import type { DriverErrors, ErrorKind } from './classify-error';

const mysqlErrnos: Record<number, ErrorKind> = {
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
  1045: 'login', // ER_ACCESS_DENIED_ERROR: a wrong password (a rotated secret) or a rejected IAM token
  1049: 'missing_database', // ER_BAD_DB_ERROR: the database the URL names does not exist
  1040: 'unreachable', // ER_CON_COUNT_ERROR: too many connections
};

export const mysqlErrors: DriverErrors = {
  kindOf: (err) => (typeof err.errno === 'number' ? mysqlErrnos[err.errno] : undefined),
  placeholders: 'positional',
};
