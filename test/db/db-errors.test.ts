/**
 * Table tests of the database error boundary (error bodies, the unreachable database): statements rendered with
 * their values for messages, and driver errors of both engines classified into the service's errors. Pure: no
 * database.
 */
import { classifyDbError, noAnswerError } from '../../lib/db/classify-error';
import type { Statement } from '../../lib/db/database';
import { engineNamed } from '../../lib/db/engines/registry';
import { inlineParams } from '../../lib/db/inline-params';
import type { EngineName } from '../../lib/resource';
import { serviceErrorOf } from '../support/resources';

describe('inlineParams', () => {
  const eleven = Array.from({ length: 11 }, (_, i) => `p${i + 1}`);

  it.each([
    {
      name: 'postgres $n',
      engine: 'postgres',
      query: { text: 'SELECT * FROM t WHERE a = $1 AND b = $2', params: [7, 'x'] },
      expected: "SELECT * FROM t WHERE a = 7 AND b = 'x'",
    },
    {
      name: 'postgres $10 is not $1 followed by 0',
      engine: 'postgres',
      query: {
        text: 'VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
        params: eleven,
      },
      expected: "VALUES ('p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p10', 'p11')",
    },
    {
      name: 'postgres placeholders out of order and repeated',
      engine: 'postgres',
      query: { text: 'SELECT $2, $1, $2', params: ['a', 'b'] },
      expected: "SELECT 'b', 'a', 'b'",
    },
    {
      name: 'mysql ? in order',
      engine: 'mysql',
      query: { text: 'SELECT * FROM t WHERE a = ? AND b IN (?, ?)', params: [1n, 'x', null] },
      expected: "SELECT * FROM t WHERE a = 1 AND b IN ('x', NULL)",
    },
    {
      name: 'strings with quotes are doubled',
      engine: 'mysql',
      query: { text: 'SELECT ?', params: ["O'Brien's 1=1'--"] },
      expected: "SELECT 'O''Brien''s 1=1''--'",
    },
    {
      name: 'strings with quotes are doubled (postgres)',
      engine: 'postgres',
      query: { text: 'SELECT $1', params: ["it's"] },
      expected: "SELECT 'it''s'",
    },
    {
      name: 'every Value kind',
      engine: 'postgres',
      query: {
        text: 'SELECT $1, $2, $3, $4, $5, $6, $7, $8',
        params: [null, true, false, 2.5, 12345678901234567890n, new Uint8Array([1, 255]), '', '20.99'],
      },
      expected: "SELECT NULL, TRUE, FALSE, 2.5, 12345678901234567890, X'01ff', '', '20.99'",
    },
    {
      name: 'a missing parameter is NULL',
      engine: 'mysql',
      query: { text: 'SELECT ?, ?', params: ['a'] },
      expected: "SELECT 'a', NULL",
    },
    {
      name: 'placeholders inside quoted identifiers and strings are left alone (mysql)',
      engine: 'mysql',
      query: { text: 'SELECT `a?` FROM t WHERE x = \'?\' AND y = ? AND z = "?"', params: [5] },
      expected: 'SELECT `a?` FROM t WHERE x = \'?\' AND y = 5 AND z = "?"',
    },
    {
      name: 'placeholders inside quoted identifiers and strings are left alone (postgres)',
      engine: 'postgres',
      query: { text: "SELECT \"$1\" FROM t WHERE x = '$1 it''s' AND y = $1", params: ['v'] },
      expected: "SELECT \"$1\" FROM t WHERE x = '$1 it''s' AND y = 'v'",
    },
    {
      name: 'a statement without parameters is unchanged',
      engine: 'postgres',
      query: { text: 'SELECT * FROM (select 1) AS _r', params: [] },
      expected: 'SELECT * FROM (select 1) AS _r',
    },
  ] as { name: string; engine: EngineName; query: Statement; expected: string }[])(
    '$name',
    ({ engine, query, expected }) => {
      expect(inlineParams(query, engineNamed(engine).errors.placeholders)).toBe(expected);
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

/** The statements of the write cases: the table they write is what a constraint error's columns belong to. */
const pgInsert: Statement = {
  text: 'INSERT INTO "shop"."book" ("title", "isbn") VALUES ($1, $2)',
  params: ['T', '978'],
};
const pgDelete: Statement = { text: 'DELETE FROM "shop"."publisher" WHERE "publisher_id" IN ($1)', params: ['1'] };
const pgCommit: Statement = { text: 'COMMIT', params: [] };
const myDelete: Statement = { text: 'DELETE FROM `shop`.`publisher` WHERE `publisher_id` IN (?)', params: ['1'] };

const classified: {
  name: string;
  engine: EngineName;
  error: unknown;
  /** The statement that failed: by default a read (pgQuery) or an insert (myQuery). */
  query?: Statement;
  expected: { name: string; status: number; code: string; message: string };
}[] = [
  // unreachable: 500, driver message :: SQL with its values
  {
    name: 'postgres ECONNREFUSED',
    engine: 'postgres',
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
    engine: 'postgres',
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
    engine: 'postgres',
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
    engine: 'postgres',
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
    engine: 'mysql',
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
    engine: 'mysql',
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
    engine: 'mysql',
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
    engine: 'postgres',
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
    engine: 'mysql',
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
    engine: 'mysql',
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
    engine: 'postgres',
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
    engine: 'mysql',
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
    engine: 'postgres',
    error: { code: 'ECONNRESET' },
    expected: { name: 'DatabaseError', status: 500, code: 'database_unreachable', message: `ECONNRESET :: ${pgSql}` },
  },
  // constraints: the kind, the constraint, the table and the columns (by their column names here, by their labels
  // once lib/execute knows the resource); never a value of the DETAIL or of a duplicate entry
  {
    name: 'postgres 23505 unique_violation',
    engine: 'postgres',
    query: pgInsert,
    error: {
      code: '23505',
      message: 'duplicate key value violates unique constraint "book_pkey"',
      detail: 'Key (book_id)=(7) already exists.',
      schema_name: 'shop',
      table_name: 'book',
      constraint_name: 'book_pkey',
    },
    expected: {
      name: 'ConstraintError',
      status: 409,
      code: 'unique_violation',
      message: 'Conflict: another row of table book has the same column book_id (unique constraint "book_pkey")',
    },
  },
  {
    name: 'postgres 23505 on a compound key',
    engine: 'postgres',
    query: pgInsert,
    error: {
      code: '23505',
      message: 'duplicate key value violates unique constraint "edition_pkey"',
      detail: 'Key (isbn, edition_no)=(978, 2) already exists.',
      schema_name: 'shop',
      table_name: 'edition',
      constraint_name: 'edition_pkey',
    },
    expected: {
      name: 'ConstraintError',
      status: 409,
      code: 'unique_violation',
      message:
        'Conflict: another row of table edition has the same column isbn and column edition_no (unique constraint "edition_pkey")',
    },
  },
  {
    name: 'postgres 23503 on insert: the reference names no row',
    engine: 'postgres',
    query: pgInsert,
    error: {
      code: '23503',
      message: 'insert or update on table "book" violates foreign key constraint "book_publisher_fk"',
      detail: 'Key (publisher_id)=(99) is not present in table "publisher".',
      schema_name: 'shop',
      table_name: 'book',
      constraint_name: 'book_publisher_fk',
    },
    expected: {
      name: 'ConstraintError',
      status: 409,
      code: 'foreign_key_violation',
      message:
        'Conflict: column publisher_id of table book names no row of table publisher (foreign key constraint "book_publisher_fk")',
    },
  },
  {
    name: 'postgres 23503 on delete: the columns are those of the table deleted from, not of table_name',
    engine: 'postgres',
    query: pgDelete,
    error: {
      code: '23503',
      message:
        'update or delete on table "publisher" violates foreign key constraint "book_publisher_fk" on table "book"',
      detail: 'Key (publisher_id)=(1) is still referenced from table "book".',
      schema_name: 'shop',
      table_name: 'book',
      constraint_name: 'book_publisher_fk',
    },
    expected: {
      name: 'ConstraintError',
      status: 409,
      code: 'foreign_key_violation',
      message:
        'Conflict: column publisher_id of table publisher is still referenced from table book (foreign key constraint "book_publisher_fk")',
    },
  },
  {
    name: 'postgres 23503 of a check deferred to COMMIT: whose columns is not known, so none is named',
    engine: 'postgres',
    query: pgCommit,
    error: {
      code: '23503',
      message: 'insert or update on table "book" violates foreign key constraint "book_publisher_fk"',
      detail: 'Key (publisher_id)=(99) is not present in table "publisher".',
      schema_name: 'shop',
      table_name: 'book',
      constraint_name: 'book_publisher_fk',
    },
    expected: {
      name: 'ConstraintError',
      status: 409,
      code: 'foreign_key_violation',
      message: 'Conflict: the write breaks a foreign key of table book (foreign key constraint "book_publisher_fk")',
    },
  },
  {
    name: 'postgres 23502 not_null_violation: not the failing row',
    engine: 'postgres',
    query: pgInsert,
    error: {
      code: '23502',
      message: 'null value in column "title" of relation "book" violates not-null constraint',
      detail: 'Failing row contains (7, null, alice@example.com, $2b$12$hash).',
      schema_name: 'shop',
      table_name: 'book',
      column_name: 'title',
    },
    expected: {
      name: 'ConstraintError',
      status: 400,
      code: 'bad_value',
      message: 'The database rejected a value: column title of table book cannot be null',
    },
  },
  {
    name: 'postgres 23514 check_violation: not the failing row',
    engine: 'postgres',
    query: pgInsert,
    error: {
      code: '23514',
      message: 'new row for relation "book" violates check constraint "price_positive"',
      detail: 'Failing row contains (7, T, alice@example.com, -1).',
      schema_name: 'shop',
      table_name: 'book',
      constraint_name: 'price_positive',
    },
    expected: {
      name: 'ConstraintError',
      status: 400,
      code: 'bad_value',
      message: 'The database rejected a value: a row of table book breaks check constraint "price_positive"',
    },
  },
  {
    name: 'mysql 1062 duplicate entry (MySQL 8 names the key with its table): not the value',
    engine: 'mysql',
    error: { code: 'ER_DUP_ENTRY', errno: 1062, message: "Duplicate entry '978-secret' for key 'book.isbn'" },
    expected: {
      name: 'ConstraintError',
      status: 409,
      code: 'unique_violation',
      message: 'Conflict: another row of table book has the same key (unique constraint "isbn")',
    },
  },
  {
    name: 'mysql 1062 on the primary key (MariaDB names the key alone)',
    engine: 'mysql',
    error: { code: 'ER_DUP_ENTRY', errno: 1062, message: "Duplicate entry '7' for key 'PRIMARY'" },
    expected: {
      name: 'ConstraintError',
      status: 409,
      code: 'unique_violation',
      message: 'Conflict: another row of table book has the same key (unique constraint "PRIMARY")',
    },
  },
  {
    name: "mysql 1062 whose value holds for key '...': the key is the last one",
    engine: 'mysql',
    error: {
      code: 'ER_DUP_ENTRY',
      errno: 1062,
      message: "Duplicate entry 'x' for key 'PRIMARY' or 1=1' for key 'book_isbn_uq'",
    },
    expected: {
      name: 'ConstraintError',
      status: 409,
      code: 'unique_violation',
      message: 'Conflict: another row of table book has the same key (unique constraint "book_isbn_uq")',
    },
  },
  {
    name: 'mysql 1761 a cascade would duplicate an entry, which it quotes',
    engine: 'mysql',
    error: {
      code: 'ER_FOREIGN_DUPLICATE_KEY_WITH_CHILD_INFO',
      errno: 1761,
      message:
        "Foreign key constraint for table 'book', record 'secret-978' would lead to a duplicate entry in table 'edition', key 'isbn'",
    },
    expected: {
      name: 'ConstraintError',
      status: 409,
      code: 'unique_violation',
      message: 'Conflict: another row of table book has the same key',
    },
  },
  {
    name: 'mysql 1452 missing reference, its foreign key read from the message',
    engine: 'mysql',
    error: {
      code: 'ER_NO_REFERENCED_ROW_2',
      errno: 1452,
      message:
        'Cannot add or update a child row: a foreign key constraint fails (`shop`.`book`, CONSTRAINT `book_ibfk_1` FOREIGN KEY (`publisher_id`) REFERENCES `publisher` (`publisher_id`))',
    },
    expected: {
      name: 'ConstraintError',
      status: 409,
      code: 'foreign_key_violation',
      message:
        'Conflict: column publisher_id of table book names no row of table publisher (foreign key constraint "book_ibfk_1")',
    },
  },
  {
    name: 'mysql 1451 referenced row: the referenced columns, of the table deleted from',
    engine: 'mysql',
    query: myDelete,
    error: {
      code: 'ER_ROW_IS_REFERENCED_2',
      errno: 1451,
      message:
        'Cannot delete or update a parent row: a foreign key constraint fails (`shop`.`book`, CONSTRAINT `book_ibfk_1` FOREIGN KEY (`publisher_id`, `kind`) REFERENCES `other_db`.`publisher` (`id`, `kind`))',
    },
    expected: {
      name: 'ConstraintError',
      status: 409,
      code: 'foreign_key_violation',
      message:
        'Conflict: column id and column kind of table publisher are still referenced from table book (foreign key constraint "book_ibfk_1")',
    },
  },
  {
    name: 'mysql 1451 without the foreign key in the message: the statement names the table',
    engine: 'mysql',
    query: myDelete,
    error: {
      code: 'ER_ROW_IS_REFERENCED_2',
      errno: 1451,
      message: 'Cannot delete or update a parent row: a foreign key constraint fails',
    },
    expected: {
      name: 'ConstraintError',
      status: 409,
      code: 'foreign_key_violation',
      message: 'Conflict: a row of table publisher is still referenced',
    },
  },
  {
    name: 'mysql 1048 column cannot be null',
    engine: 'mysql',
    error: { code: 'ER_BAD_NULL_ERROR', errno: 1048, message: "Column 'title' cannot be null" },
    expected: {
      name: 'ConstraintError',
      status: 400,
      code: 'bad_value',
      message: 'The database rejected a value: column title of table book cannot be null',
    },
  },
  {
    name: 'mysql 1364 no default',
    engine: 'mysql',
    error: { code: 'ER_NO_DEFAULT_FOR_FIELD', errno: 1364, message: "Field 'title' doesn't have a default value" },
    expected: {
      name: 'ConstraintError',
      status: 400,
      code: 'bad_value',
      message: 'The database rejected a value: column title of table book cannot be null',
    },
  },
  {
    name: 'mariadb 4025 CHECK constraint',
    engine: 'mysql',
    error: {
      code: 'ER_CONSTRAINT_FAILED',
      errno: 4025,
      message: 'CONSTRAINT `price_positive` failed for `shop`.`book`',
    },
    expected: {
      name: 'ConstraintError',
      status: 400,
      code: 'bad_value',
      message: 'The database rejected a value: a row of table book breaks check constraint "price_positive"',
    },
  },
  {
    name: 'mysql 3819 CHECK constraint',
    engine: 'mysql',
    error: {
      code: 'ER_CHECK_CONSTRAINT_VIOLATED',
      errno: 3819,
      message: "Check constraint 'price_positive' is violated.",
    },
    expected: {
      name: 'ConstraintError',
      status: 400,
      code: 'bad_value',
      message: 'The database rejected a value: a row of table book breaks check constraint "price_positive"',
    },
  },
  // other values the database rejects: 400 with its message, which quotes at most the value sent; no DETAIL
  {
    name: 'postgres 22P02 invalid_text_representation',
    engine: 'postgres',
    error: { code: '22P02', message: 'invalid input syntax for type json', detail: 'Token "secret" is invalid.' },
    expected: {
      name: 'BadRequestError',
      status: 400,
      code: 'bad_value',
      message: 'The database rejected a value: invalid input syntax for type json',
    },
  },
  {
    name: 'mysql 1406 data too long',
    engine: 'mysql',
    error: { code: 'ER_DATA_TOO_LONG', errno: 1406, message: "Data too long for column 'title' at row 1" },
    expected: {
      name: 'BadRequestError',
      status: 400,
      code: 'bad_value',
      message: "The database rejected a value: Data too long for column 'title' at row 1",
    },
  },
  // anything else: 500 database_error with the statement, its values as placeholders, and no DETAIL
  {
    name: 'postgres unknown SQLSTATE',
    engine: 'postgres',
    error: { code: '42P01', message: 'relation "nobook" does not exist' },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_error',
      message: `relation "nobook" does not exist :: ${pgQuery.text}`,
    },
  },
  {
    name: 'postgres 23P01 exclusion_violation: not the conflicting keys of its DETAIL',
    engine: 'postgres',
    query: pgDelete,
    error: {
      code: '23P01',
      message: 'conflicting key value violates exclusion constraint "no_overlap"',
      detail: 'Key (during)=([1,5)) conflicts with existing key (during)=([2,3)).',
    },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_error',
      message: `conflicting key value violates exclusion constraint "no_overlap" :: ${pgDelete.text}`,
    },
  },
  {
    name: 'mysql unknown errno',
    engine: 'mysql',
    error: { code: 'ER_NO_SUCH_TABLE', errno: 1146, message: "Table 'shop.nobook' doesn't exist" },
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_error',
      message: `Table 'shop.nobook' doesn't exist :: ${myQuery.text}`,
    },
  },
  {
    name: 'a postgres SQLSTATE on mysql means nothing',
    engine: 'mysql',
    error: { code: '23505', message: 'odd' },
    expected: { name: 'DatabaseError', status: 500, code: 'database_error', message: `odd :: ${myQuery.text}` },
  },
  {
    name: 'a plain Error',
    engine: 'postgres',
    error: new Error('boom'),
    expected: { name: 'DatabaseError', status: 500, code: 'database_error', message: `boom :: ${pgQuery.text}` },
  },
  {
    name: 'undefined',
    engine: 'postgres',
    error: undefined,
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_error',
      message: `unknown error :: ${pgQuery.text}`,
    },
  },
  {
    name: 'null',
    engine: 'mysql',
    error: null,
    expected: {
      name: 'DatabaseError',
      status: 500,
      code: 'database_error',
      message: `unknown error :: ${myQuery.text}`,
    },
  },
];

describe('classifyDbError', () => {
  it.each(classified)('$engine: $name', ({ engine, error, query, expected }) => {
    const statement = query ?? (engine === 'postgres' ? pgQuery : myQuery);
    expect(
      serviceErrorOf(() => {
        throw classifyDbError(engineNamed(engine).errors, error, statement);
      }),
    ).toEqual(expected);
  });

  it.each(classified.filter((c) => c.expected.status < 500))(
    '$engine: $name carries no value of the error or the statement',
    ({ engine, error, query, expected }) => {
      const statement = query ?? (engine === 'postgres' ? pgQuery : myQuery);
      const { message } = classifyDbError(engineNamed(engine).errors, error, statement);
      for (const value of ['alice@example.com', '$2b$12$hash', 'secret', "'978", '(7)', '(99)', '(1)'])
        expect({ message, value, has: message.includes(value) }).toEqual({ message, value, has: false });
      expect(message).toBe(expected.message);
    },
  );

  it('an error already classified (by the statement that failed first) is kept as it is', () => {
    const { errors } = engineNamed('postgres');
    const first = classifyDbError(errors, { code: 'ECONNRESET', message: 'read ECONNRESET' }, pgQuery);
    expect(classifyDbError(errors, first, { text: 'ROLLBACK', params: [] })).toBe(first);
  });
});
