/**
 * PostgreSQL's error codes (SQLSTATE), a comment each, and its numbered placeholders. Pure.
 */
import type { DriverErrors, ErrorKind } from './classify-error';

const postgresStates: Record<string, ErrorKind> = {
  '08000': 'unreachable', // connection_exception
  '08001': 'unreachable', // sqlclient_unable_to_establish_sqlconnection
  '08006': 'unreachable', // connection_failure
  '57P01': 'unreachable', // admin_shutdown
  '57P03': 'unreachable', // cannot_connect_now (starting up)
  '28P01': 'login', // invalid_password: a wrong password (a rotated secret) or a rejected IAM token
  '28000': 'login', // invalid_authorization_specification: no login for this user (RDS: "PAM authentication failed")
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

export const postgresErrors: DriverErrors = {
  kindOf: (err) => (typeof err.code === 'string' ? postgresStates[err.code] : undefined),
  placeholders: 'numbered',
};
