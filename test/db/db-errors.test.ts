/**
 * Table tests of the database error boundary (error bodies, the unreachable database): statements rendered with
 * their values for messages, and driver errors of both dialects classified into the service's errors. Pure: no
 * database.
 */
import { classifyDbError, noAnswerError, relabel } from '../../lib/db/classify-error';
import type { Statement } from '../../lib/db/database';
import { inlineParams } from '../../lib/db/inline-params';
import { mysqlErrors } from '../../lib/db/mysql-errors';
import { postgresErrors } from '../../lib/db/postgres-errors';
import type { Dialect } from '../../lib/resource';
import { serviceErrorOf } from '../support/resources';

describe('inlineParams', () => {
  const eleven = Array.from({ length: 11 }, (_, i) => `p${i + 1}`);

  it.each([
    {
      name: 'postgres $n',
      dialect: 'postgres',
      query: { text: 'SELECT * FROM t WHERE a = $1 AND b = $2', params: [7, 'x'] },
      expected: "SELECT * FROM t WHERE a = 7 AND b = 'x'",
    },
    {
      name: 'postgres $10 is not $1 followed by 0',
      dialect: 'postgres',
      query: {
        text: 'VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
        params: eleven,
      },
      expected: "VALUES ('p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p10', 'p11')",
    },
    {
      name: 'postgres placeholders out of order and repeated',
      dialect: 'postgres',
      query: { text: 'SELECT $2, $1, $2', params: ['a', 'b'] },
      expected: "SELECT 'b', 'a', 'b'",
    },
    {
      name: 'mysql ? in order',
      dialect: 'mysql',
      query: { text: 'SELECT * FROM t WHERE a = ? AND b IN (?, ?)', params: [1n, 'x', null] },
      expected: "SELECT * FROM t WHERE a = 1 AND b IN ('x', NULL)",
    },
    {
      name: 'strings with quotes are doubled',
      dialect: 'mysql',
      query: { text: 'SELECT ?', params: ["O'Brien's 1=1'--"] },
      expected: "SELECT 'O''Brien''s 1=1''--'",
    },
    {
      name: 'strings with quotes are doubled (postgres)',
      dialect: 'postgres',
      query: { text: 'SELECT $1', params: ["it's"] },
      expected: "SELECT 'it''s'",
    },
    {
      name: 'every Value kind',
      dialect: 'postgres',
      query: {
        text: 'SELECT $1, $2, $3, $4, $5, $6, $7, $8',
        params: [null, true, false, 2.5, 12345678901234567890n, new Uint8Array([1, 255]), '', '20.99'],
      },
      expected: "SELECT NULL, TRUE, FALSE, 2.5, 12345678901234567890, X'01ff', '', '20.99'",
    },
    {
      name: 'a missing parameter is NULL',
      dialect: 'mysql',
      query: { text: 'SELECT ?, ?', params: ['a'] },
      expected: "SELECT 'a', NULL",
    },
    {
      name: 'placeholders inside quoted identifiers and strings are left alone (mysql)',
      dialect: 'mysql',
      query: { text: 'SELECT `a?` FROM t WHERE x = \'?\' AND y = ? AND z = "?"', params: [5] },
      expected: 'SELECT `a?` FROM t WHERE x = \'?\' AND y = 5 AND z = "?"',
    },
    {
      name: 'placeholders inside quoted identifiers and strings are left alone (postgres)',
      dialect: 'postgres',
      query: { text: "SELECT \"$1\" FROM t WHERE x = '$1 it''s' AND y = $1", params: ['v'] },
      expected: "SELECT \"$1\" FROM t WHERE x = '$1 it''s' AND y = 'v'",
    },
    {
      name: 'a statement without parameters is unchanged',
      dialect: 'postgres',
      query: { text: 'SELECT * FROM (select 1) AS _r', params: [] },
      expected: 'SELECT * FROM (select 1) AS _r',
    },
  ] as { name: string; dialect: Dialect; query: Statement; expected: string }[])(
    '$name',
    ({ dialect, query, expected }) => {
      expect(inlineParams(query, dialect === 'postgres' ? 'numbered' : 'positional')).toBe(expected);
    },
  );
});

const pgQuery: Statement = {
  text: 'SELECT * FROM (select book_id id, title from book) AS _r WHERE _r."id" = $1 ORDER BY _r."id"',
  params: ['7'],
};
const pgSql = `SELECT * FROM (select book_id id, title from book) AS _r WHERE _r."id" = '7' ORDER BY _r."id"`;
const myQuery: Statement = {
  text: 'INSERT INTO `shop`.`book` (`title`, `isbn`) VALUES (?, ?)',
  params: ["O'Neil", '978'],
};
const mySql = "INSERT INTO `shop`.`book` (`title`, `isbn`) VALUES ('O''Neil', '978')";

const labels: Record<string, string> = { book_id: 'id', isbn: 'code', publisher_id: 'publisherId' };
const labelOf = (column: string) => labels[column] ?? column;

const classified: {
  name: string;
  dialect: Dialect;
  error: unknown;
  expected: { name: string; status: number; code: string; message: string };
}[] = [
  // unreachable: 500, driver message :: SQL with its values
  {
    name: 'postgres ECONNREFUSED',
    dialect: 'postgres',
    error: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_unreachable',
      message: `connect ECONNREFUSED 127.0.0.1:5432 :: ${pgSql}`,
    },
  },
  {
    name: 'postgres CONNECT_TIMEOUT',
    dialect: 'postgres',
    error: { code: 'CONNECT_TIMEOUT', message: 'write CONNECT_TIMEOUT db.example:5432' },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_unreachable',
      message: `write CONNECT_TIMEOUT db.example:5432 :: ${pgSql}`,
    },
  },
  {
    name: 'postgres ENOTFOUND',
    dialect: 'postgres',
    error: { code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND nohost' },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_unreachable',
      message: `getaddrinfo ENOTFOUND nohost :: ${pgSql}`,
    },
  },
  {
    name: 'postgres SQLSTATE 08006 connection_failure',
    dialect: 'postgres',
    error: { code: '08006', message: 'connection failure' },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_unreachable',
      message: `connection failure :: ${pgSql}`,
    },
  },
  {
    name: 'mysql ECONNREFUSED (errno is negative)',
    dialect: 'mysql',
    error: { code: 'ECONNREFUSED', errno: -111, message: 'connect ECONNREFUSED 127.0.0.1:3306' },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_unreachable',
      message: `connect ECONNREFUSED 127.0.0.1:3306 :: ${mySql}`,
    },
  },
  {
    name: 'mysql ETIMEDOUT',
    dialect: 'mysql',
    error: { code: 'ETIMEDOUT', message: 'connect ETIMEDOUT' },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_unreachable',
      message: `connect ETIMEDOUT :: ${mySql}`,
    },
  },
  {
    name: 'mysql PROTOCOL_CONNECTION_LOST',
    dialect: 'mysql',
    error: { code: 'PROTOCOL_CONNECTION_LOST', message: 'Connection lost: The server closed the connection.' },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_unreachable',
      message: `Connection lost: The server closed the connection. :: ${mySql}`,
    },
  },
  {
    name: 'postgres: no answer within the statement timeout and its margin',
    dialect: 'postgres',
    error: noAnswerError(1500),
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_unreachable',
      message: `The database did not answer within 2000 ms (DB_STATEMENT_TIMEOUT_MS 1500 + 500); its connection was closed :: ${pgSql}`,
    },
  },
  {
    name: 'mysql: no answer within the statement timeout and its margin',
    dialect: 'mysql',
    error: noAnswerError(20000),
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_unreachable',
      message: `The database did not answer within 20500 ms (DB_STATEMENT_TIMEOUT_MS 20000 + 500); its connection was closed :: ${mySql}`,
    },
  },
  {
    name: 'mysql errno 1045 access denied',
    dialect: 'mysql',
    error: { code: 'ER_ACCESS_DENIED_ERROR', errno: 1045, message: "Access denied for user 'u'@'h'" },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_unreachable',
      message: `Access denied for user 'u'@'h' :: ${mySql}`,
    },
  },
  // the database the URL names does not exist: a configuration error (resolve-resource names the variable)
  {
    name: 'postgres SQLSTATE 3D000 invalid_catalog_name',
    dialect: 'postgres',
    error: { code: '3D000', message: 'database "bookstore" does not exist' },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_unconfigured',
      message: `database "bookstore" does not exist :: ${pgSql}`,
    },
  },
  {
    name: 'mysql errno 1049 unknown database',
    dialect: 'mysql',
    error: { code: 'ER_BAD_DB_ERROR', errno: 1049, message: "Unknown database 'bookstore'" },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_unconfigured',
      message: `Unknown database 'bookstore' :: ${mySql}`,
    },
  },
  {
    name: 'an unreachable code without a message uses the code',
    dialect: 'postgres',
    error: { code: 'ECONNRESET' },
    expected: { name: 'DatabaseError', status: 500, code: 'database_unreachable', message: `ECONNRESET :: ${pgSql}` },
  },
  // conflicts: 409 naming the fields by label
  {
    name: 'postgres 23505 unique_violation, detail relabelled',
    dialect: 'postgres',
    error: {
      code: '23505',
      message: 'duplicate key value violates unique constraint "book_pkey"',
      detail: 'Key (book_id)=(7) already exists.',
    },
    expected: {
      name: 'ConflictError',
      status: 409,
      code: 'unique_violation',
      message: 'Conflict: duplicate key value violates unique constraint "book_pkey" (Key (id)=(7) already exists.)',
    },
  },
  {
    name: 'postgres 23505 on a compound key',
    dialect: 'postgres',
    error: {
      code: '23505',
      message: 'duplicate key value violates unique constraint "edition_pkey"',
      detail: 'Key (isbn, edition_no)=(978, 2) already exists.',
    },
    expected: {
      name: 'ConflictError',
      status: 409,
      code: 'unique_violation',
      message:
        'Conflict: duplicate key value violates unique constraint "edition_pkey" (Key (code, edition_no)=(978, 2) already exists.)',
    },
  },
  {
    name: 'postgres 23503 foreign_key_violation',
    dialect: 'postgres',
    error: {
      code: '23503',
      message: 'insert or update on table "book" violates foreign key constraint "book_publisher_fk"',
      detail: 'Key (publisher_id)=(99) is not present in table "publisher".',
    },
    expected: {
      name: 'ConflictError',
      status: 409,
      code: 'foreign_key_violation',
      message:
        'Conflict: insert or update on table "book" violates foreign key constraint "book_publisher_fk" (Key (publisherId)=(99) is not present in table "publisher".)',
    },
  },
  {
    name: 'mysql 1062 duplicate entry, key name relabelled',
    dialect: 'mysql',
    error: { code: 'ER_DUP_ENTRY', errno: 1062, message: "Duplicate entry '978' for key 'book.isbn'" },
    expected: {
      name: 'ConflictError',
      status: 409,
      code: 'unique_violation',
      message: "Conflict: Duplicate entry '978' for key 'code'",
    },
  },
  {
    name: 'mysql 1062 on the primary key (MariaDB spelling)',
    dialect: 'mysql',
    error: { code: 'ER_DUP_ENTRY', errno: 1062, message: "Duplicate entry '7' for key 'PRIMARY'" },
    expected: {
      name: 'ConflictError',
      status: 409,
      code: 'unique_violation',
      message: "Conflict: Duplicate entry '7' for key 'PRIMARY'",
    },
  },
  {
    name: 'mysql 1452 missing reference',
    dialect: 'mysql',
    error: {
      code: 'ER_NO_REFERENCED_ROW_2',
      errno: 1452,
      message: 'Cannot add or update a child row: a foreign key constraint fails',
    },
    expected: {
      name: 'ConflictError',
      status: 409,
      code: 'foreign_key_violation',
      message: 'Conflict: Cannot add or update a child row: a foreign key constraint fails',
    },
  },
  {
    name: 'mysql 1451 referenced row',
    dialect: 'mysql',
    error: {
      code: 'ER_ROW_IS_REFERENCED_2',
      errno: 1451,
      message: 'Cannot delete or update a parent row: a foreign key constraint fails',
    },
    expected: {
      name: 'ConflictError',
      status: 409,
      code: 'foreign_key_violation',
      message: 'Conflict: Cannot delete or update a parent row: a foreign key constraint fails',
    },
  },
  // values the database rejects: 400
  {
    name: 'postgres 23502 not_null_violation',
    dialect: 'postgres',
    error: { code: '23502', message: 'null value in column "title" of relation "book" violates not-null constraint' },
    expected: {
      name: 'BadRequestError',
      status: 400,
      code: 'bad_value',
      message:
        'The database rejected a value: null value in column "title" of relation "book" violates not-null constraint',
    },
  },
  {
    name: 'postgres 23514 check_violation',
    dialect: 'postgres',
    error: { code: '23514', message: 'new row for relation "book" violates check constraint "price_positive"' },
    expected: {
      name: 'BadRequestError',
      status: 400,
      code: 'bad_value',
      message: 'The database rejected a value: new row for relation "book" violates check constraint "price_positive"',
    },
  },
  {
    name: 'mysql 1048 column cannot be null',
    dialect: 'mysql',
    error: { code: 'ER_BAD_NULL_ERROR', errno: 1048, message: "Column 'title' cannot be null" },
    expected: {
      name: 'BadRequestError',
      status: 400,
      code: 'bad_value',
      message: "The database rejected a value: Column 'title' cannot be null",
    },
  },
  {
    name: 'mariadb 4025 CHECK constraint',
    dialect: 'mysql',
    error: {
      code: 'ER_CONSTRAINT_FAILED',
      errno: 4025,
      message: 'CONSTRAINT `price_positive` failed for `shop`.`book`',
    },
    expected: {
      name: 'BadRequestError',
      status: 400,
      code: 'bad_value',
      message: 'The database rejected a value: CONSTRAINT `price_positive` failed for `shop`.`book`',
    },
  },
  // anything else: 500 database_error with the SQL
  {
    name: 'postgres unknown SQLSTATE',
    dialect: 'postgres',
    error: { code: '42P01', message: 'relation "nobook" does not exist' },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_error',
      message: `relation "nobook" does not exist :: ${pgSql}`,
    },
  },
  {
    name: 'mysql unknown errno',
    dialect: 'mysql',
    error: { code: 'ER_NO_SUCH_TABLE', errno: 1146, message: "Table 'shop.nobook' doesn't exist" },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_error',
      message: `Table 'shop.nobook' doesn't exist :: ${mySql}`,
    },
  },
  {
    name: 'a postgres SQLSTATE on mysql means nothing',
    dialect: 'mysql',
    error: { code: '23505', message: 'odd' },
    expected: { name: 'DatabaseError', status: 500, code: 'database_error', message: `odd :: ${mySql}` },
  },
  {
    name: 'a plain Error',
    dialect: 'postgres',
    error: new Error('boom'),
    expected: { name: 'DatabaseError', status: 500, code: 'database_error', message: `boom :: ${pgSql}` },
  },
  {
    name: 'undefined',
    dialect: 'postgres',
    error: undefined,
    expected: { name: 'DatabaseError', status: 500, code: 'database_error', message: `unknown error :: ${pgSql}` },
  },
  {
    name: 'null',
    dialect: 'mysql',
    error: null,
    expected: { name: 'DatabaseError', status: 500, code: 'database_error', message: `unknown error :: ${mySql}` },
  },
];

const drivers = { postgres: postgresErrors, mysql: mysqlErrors };

describe('classifyDbError', () => {
  it.each(classified)('$dialect: $name', ({ dialect, error, expected }) => {
    const query = dialect === 'postgres' ? pgQuery : myQuery;
    expect(
      serviceErrorOf(() => {
        throw classifyDbError(drivers[dialect], error, query, labelOf);
      }),
    ).toEqual(expected);
  });

  it('an error already classified (by the statement that failed first) is kept as it is', () => {
    const first = classifyDbError(postgresErrors, { code: 'ECONNRESET', message: 'read ECONNRESET' }, pgQuery);
    expect(classifyDbError(postgresErrors, first, { text: 'ROLLBACK', params: [] })).toBe(first);
  });

  it('without labelOf, column names are kept', () => {
    const error = { code: '23505', message: 'duplicate', detail: 'Key (book_id)=(7) already exists.' };
    expect(classifyDbError(postgresErrors, error, pgQuery).message).toBe(
      'Conflict: duplicate (Key (book_id)=(7) already exists.)',
    );
  });
});

describe('relabel', () => {
  it.each([
    { message: 'Key (book_id)=(1) already exists.', expected: 'Key (id)=(1) already exists.' },
    { message: 'Key (isbn, book_id)=(a, 1)', expected: 'Key (code, id)=(a, 1)' },
    { message: 'Key (isbn,book_id)=(a,1)', expected: 'Key (code, id)=(a,1)' },
    { message: 'Key (unknown_col)=(1)', expected: 'Key (unknown_col)=(1)' },
    { message: "Duplicate entry 'x' for key 'book.isbn'", expected: "Duplicate entry 'x' for key 'code'" },
    { message: "Duplicate entry 'x' for key 'isbn'", expected: "Duplicate entry 'x' for key 'code'" },
    { message: "Duplicate entry 'x' for key 'PRIMARY'", expected: "Duplicate entry 'x' for key 'PRIMARY'" },
    { message: 'no key mentioned', expected: 'no key mentioned' },
  ])('$message', ({ message, expected }) => {
    expect(relabel(message, labelOf)).toBe(expected);
  });
});
