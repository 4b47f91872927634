/**
 * PostgreSQL's error codes (SQLSTATE), a comment each, its numbered placeholders, and what a constraint error is
 * about: PostgreSQL gives the schema, table, column and constraint as fields of the error; the columns of a key
 * only in its DETAIL (`Key (a, b)=(values) ...`), from which nothing but the names before `=` is taken. Pure.
 */
import type { ConstraintViolation } from '../../../errors';
import type { DriverError, ErrorKind, ErrorTable } from '../../classify-error';
import type { WrittenTable } from '../../written-table';

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
  '23502': 'not_null', // not_null_violation
  '23514': 'check', // check_violation
  '22001': 'bad_value', // string_data_right_truncation
  '22003': 'bad_value', // numeric_value_out_of_range
  '22007': 'bad_value', // invalid_datetime_format
  '22008': 'bad_value', // datetime_field_overflow
  '22P02': 'bad_value', // invalid_text_representation
  '22021': 'bad_value', // character_not_in_repertoire (a NUL byte in text)
};

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The column names of `Key (a, b)=(...)` in a DETAIL: what stands between the first `(` and the first `)=(`
 * (PostgreSQL's translations keep that form). None when the DETAIL has no such key (a caller without the right to
 * read the columns gets `Key is not present ...`).
 */
export function keyColumns(detail: unknown): string[] {
  const match = /^[^(]*\((.*?)\)=\(/s.exec(text(detail) ?? '');
  return match?.[1] ? match[1].split(/,\s*/).map((name) => name.replace(/^"(.*)"$/s, '$1').replaceAll('""', '"')) : [];
}

/** The table a DETAIL ends with (`... is not present in table "person".`), or undefined. */
function detailTable(detail: unknown): string | undefined {
  return /"((?:[^"]|"")+)"\.?$/.exec(text(detail) ?? '')?.[1]?.replaceAll('""', '"');
}

function violationOf(
  err: DriverError,
  kind: ConstraintViolation['kind'],
  written: WrittenTable | undefined,
): ConstraintViolation {
  const table = text(err.table_name) ? { schema: text(err.schema_name), table: String(err.table_name) } : undefined;
  const constraint = text(err.constraint_name);
  const named = { ...(constraint ? { constraint } : {}), ...(table ? { table } : {}) };
  switch (kind) {
    case 'unique':
      return { kind, ...named, columns: keyColumns(err.detail) };
    case 'not_null':
      return { kind, ...named, columns: text(err.column_name) ? [String(err.column_name)] : [] };
    case 'check':
      return { kind, ...named, columns: [] };
    case 'foreign_key':
      return foreignKeyViolation(err, named, written);
  }
}

/**
 * PostgreSQL names the referencing table of a foreign key (`table_name`) and, in its DETAIL, the key columns of the
 * side that was written: the referencing row's (an INSERT, or an UPDATE of that table), or the referenced row's (a
 * DELETE, or an UPDATE of another table). The statement's table says which; a check deferred to COMMIT says neither.
 */
function foreignKeyViolation(
  err: DriverError,
  named: Pick<ConstraintViolation, 'constraint' | 'table'>,
  written: WrittenTable | undefined,
): ConstraintViolation {
  const kind = 'foreign_key';
  const columns = keyColumns(err.detail);
  if (!written) return { kind, ...named, columns: [] };
  const referencing = named.table?.table;
  const missing =
    written.verb === 'insert' ||
    (written.verb === 'update' &&
      written.table === referencing &&
      (written.schema === undefined || written.schema === named.table?.schema));
  if (missing) {
    const other = detailTable(err.detail);
    return { kind, ...named, columns, reference: { direction: 'missing', ...(other ? { other } : {}) } };
  }
  return {
    kind,
    ...(named.constraint ? { constraint: named.constraint } : {}),
    table: { ...(written.schema ? { schema: written.schema } : {}), table: written.table },
    columns,
    reference: { direction: 'referenced', ...(referencing ? { other: referencing } : {}) },
  };
}

export const postgresErrors: ErrorTable = {
  kindOf: (err) => (typeof err.code === 'string' ? postgresStates[err.code] : undefined),
  violationOf,
  placeholders: 'numbered',
};
