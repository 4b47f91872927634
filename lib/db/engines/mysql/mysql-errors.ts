/**
 * MySQL's and MariaDB's error numbers (errno), a comment each, their positional placeholders, and what a
 * constraint error is about. MySQL has no fields for it: its message names the key, the column or the foreign key
 * (never taken: the duplicate value it quotes), and the statement's table is the table for those that do not. Pure.
 */
import type { ConstraintViolation } from '../../../errors';
import type { DriverError, ErrorKind, ErrorTable } from '../../classify-error';
import type { WrittenTable } from '../../written-table';

const mysqlErrnos: Record<number, ErrorKind> = {
  1062: 'unique', // ER_DUP_ENTRY: Duplicate entry '<value>' for key '<key>'
  1586: 'unique', // ER_DUP_ENTRY_WITH_KEY_NAME: the same, with the key's name
  1557: 'unique', // ER_FOREIGN_DUPLICATE_KEY (MariaDB): a cascade would duplicate an entry, which it quotes
  1761: 'unique', // ER_FOREIGN_DUPLICATE_KEY_WITH_CHILD_INFO (MySQL): the same, with the record
  1762: 'unique', // ER_FOREIGN_DUPLICATE_KEY_WITHOUT_CHILD_INFO (MySQL)
  1451: 'foreign_key', // ER_ROW_IS_REFERENCED_2 (delete/update of a referenced row)
  1452: 'foreign_key', // ER_NO_REFERENCED_ROW_2 (insert/update with a missing reference)
  1048: 'not_null', // ER_BAD_NULL_ERROR: Column '<column>' cannot be null
  1364: 'not_null', // ER_NO_DEFAULT_FOR_FIELD: Field '<column>' doesn't have a default value
  1406: 'bad_value', // ER_DATA_TOO_LONG
  1264: 'bad_value', // ER_WARN_DATA_OUT_OF_RANGE
  1265: 'bad_value', // WARN_DATA_TRUNCATED
  1292: 'bad_value', // ER_TRUNCATED_WRONG_VALUE (dates)
  1366: 'bad_value', // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
  3819: 'check', // ER_CHECK_CONSTRAINT_VIOLATED (MySQL): Check constraint '<name>' is violated.
  4025: 'check', // ER_CONSTRAINT_FAILED (MariaDB): CONSTRAINT `<name>` failed for `<db>`.`<table>`
  1045: 'login', // ER_ACCESS_DENIED_ERROR: a wrong password (a rotated secret) or a rejected IAM token
  1049: 'missing_database', // ER_BAD_DB_ERROR: the database the URL names does not exist
  1040: 'unreachable', // ER_CON_COUNT_ERROR: too many connections
};

/** A quoted identifier (`name`, the quote doubled inside). */
const name = '`((?:[^`]|``)*)`';
const unquote = (quoted: string) => quoted.replaceAll('``', '`');

/** `(`db`.`child`, CONSTRAINT `name` FOREIGN KEY (`a`) REFERENCES `parent` (`id`)` of errors 1451 and 1452. */
const foreignKey = new RegExp(
  `\\(${name}\\.${name}, CONSTRAINT ${name} FOREIGN KEY \\(([^)]*)\\) REFERENCES (?:${name}\\.)?${name} \\(([^)]*)\\)`,
);
/** MariaDB's failed CHECK: CONSTRAINT `name` failed for `db`.`table`. */
const failedCheck = new RegExp(`CONSTRAINT ${name} failed for ${name}\\.${name}`);

function columnList(list: string): string[] {
  return [...list.matchAll(new RegExp(name, 'g'))].map((m) => unquote(m[1] ?? ''));
}

/**
 * The key a duplicate entry names, after the value: the last `for key '...'`, since the value itself may hold that
 * text. MySQL 8 prefixes the key with its table, MariaDB does not.
 */
function duplicateKey(message: string, written: WrittenTable | undefined): string | undefined {
  const at = message.lastIndexOf(" for key '");
  if (at < 0 || !message.endsWith("'")) return undefined;
  const key = message.slice(at + " for key '".length, -1);
  return written && key.startsWith(`${written.table}.`) ? key.slice(written.table.length + 1) : key;
}

/** The first quoted name of a message (1048, 1364: the column; 3819: the check constraint). */
function firstQuoted(message: string): string | undefined {
  return /'([^']*)'/.exec(message)?.[1];
}

function violationOf(
  err: DriverError,
  kind: ConstraintViolation['kind'],
  written: WrittenTable | undefined,
): ConstraintViolation {
  const message = typeof err.message === 'string' ? err.message : '';
  const inTable = written
    ? { table: { ...(written.schema ? { schema: written.schema } : {}), table: written.table } }
    : {};
  switch (kind) {
    case 'unique': {
      const key = err.errno === 1062 || err.errno === 1586 ? duplicateKey(message, written) : undefined;
      return { kind, ...(key ? { constraint: key } : {}), ...inTable, columns: [] };
    }
    case 'not_null': {
      const column = firstQuoted(message);
      return { kind, ...inTable, columns: column ? [column] : [] };
    }
    case 'check':
      return checkViolation(message, inTable);
    case 'foreign_key':
      return foreignKeyViolation(err.errno === 1451 ? 'referenced' : 'missing', message, inTable);
  }
}

/** MariaDB names the constraint and its table; MySQL the constraint only. */
function checkViolation(message: string, inTable: Pick<ConstraintViolation, 'table'>): ConstraintViolation {
  const kind = 'check';
  const mariadb = failedCheck.exec(message);
  if (mariadb) return { kind, constraint: unquote(mariadb[1] ?? ''), table: fromMatch(mariadb, 2), columns: [] };
  const constraint = firstQuoted(message);
  return { kind, ...(constraint ? { constraint } : {}), ...inTable, columns: [] };
}

function fromMatch(match: RegExpExecArray, at: number): { schema: string; table: string } {
  return { schema: unquote(match[at] ?? ''), table: unquote(match[at + 1] ?? '') };
}

/**
 * 1452 (missing): the referencing table's foreign key columns; 1451 (referenced): the referenced table's key
 * columns, which rows of the referencing table still name. Without the foreign key in the message (a user who may
 * not see it), only the statement's table.
 */
function foreignKeyViolation(
  direction: 'missing' | 'referenced',
  message: string,
  inTable: Pick<ConstraintViolation, 'table'>,
): ConstraintViolation {
  const kind = 'foreign_key';
  const fk = foreignKey.exec(message);
  if (!fk) return { kind, ...inTable, columns: [], reference: { direction } };
  const [, , , constraint = '', columns = '', refSchema, refTable = '', refColumns = ''] = fk;
  const child = fromMatch(fk, 1);
  const parent = { schema: refSchema === undefined ? child.schema : unquote(refSchema), table: unquote(refTable) };
  return direction === 'missing'
    ? {
        kind,
        constraint: unquote(constraint),
        table: child,
        columns: columnList(columns),
        reference: { direction, other: parent.table },
      }
    : {
        kind,
        constraint: unquote(constraint),
        table: parent,
        columns: columnList(refColumns),
        reference: { direction, other: child.table },
      };
}

export const mysqlErrors: ErrorTable = {
  kindOf: (err) => (typeof err.errno === 'number' ? mysqlErrnos[err.errno] : undefined),
  violationOf,
  placeholders: 'positional',
};
