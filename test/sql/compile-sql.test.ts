/**
 * Table tests of the SQL compilers: each case gives one input and the exact statement and parameters for
 * PostgreSQL and MySQL side by side (integers are bigints in a plan: PostgreSQL binds their digits as text,
 * MySQL the bigint). Then every case runs on the real databases (PGlite, and the servers when their URLs are
 * set), inside a transaction rolled back, so a statement that compiles but does not run fails here.
 */

import type { Database } from '../../lib/db/database';
import { sqlShapeOf } from '../../lib/db/engines/registry';
import type { ColumnValues, SelectSpec } from '../../lib/plan/plan';
import type { EngineName, ResourceTable } from '../../lib/resource';
import { compileDelete } from '../../lib/sql/compile-delete';
import { compileInsert } from '../../lib/sql/compile-insert';
import { compileSelect, compileSelectWhere } from '../../lib/sql/compile-select';
import { compileUpdate } from '../../lib/sql/compile-update';
import type { CompiledQuery } from '../../lib/sql/compiled-query';
import type { ColumnFilter } from '../../lib/sql/match';
import type { Value } from '../../lib/values';
import { connectTo } from '../support/connect';
import { type TestDatabase, targets } from '../support/databases';

type Table = Pick<ResourceTable, 'schema' | 'table'>;

type Input =
  | { readonly kind: 'select'; readonly spec: SelectSpec; readonly query?: string }
  | { readonly kind: 'count'; readonly filters: SelectSpec['filters'] }
  | { readonly kind: 'insert'; readonly table: Table; readonly values: ColumnValues }
  | {
      readonly kind: 'update';
      readonly table: Table;
      readonly values: ColumnValues;
      readonly keyColumns: readonly string[];
      readonly keys: readonly (readonly Value[])[];
      readonly filters?: readonly ColumnFilter[];
    }
  | {
      readonly kind: 'delete';
      readonly table: Table;
      readonly keyColumns: readonly string[];
      readonly keys: readonly (readonly Value[])[];
      readonly byValue?: boolean;
      readonly filters?: readonly ColumnFilter[];
    }
  | {
      readonly kind: 'selectByKey';
      readonly table: Table;
      readonly columns: readonly string[] | '*';
      readonly keyColumns: readonly string[];
      readonly keys: readonly (readonly Value[])[];
      readonly lock?: boolean;
    };

/** Key matches of a case; none when it gives no key columns (a statement by column filters alone). */
const matches = (input: { keyColumns: readonly string[]; keys: readonly (readonly Value[])[]; byValue?: boolean }) =>
  input.keyColumns.length === 0 ? [] : [{ columns: input.keyColumns, keys: input.keys, byValue: input.byValue }];

/** `schemaOf` maps a schema name of a case to the one the statement runs in (a test database's own, on MySQL). */
function compile(
  name: EngineName,
  input: Input,
  readQuery = query,
  schemaOf = (schema: string) => schema,
): CompiledQuery {
  const shape = sqlShapeOf(name);
  const at = (table: Table): Table => ({ schema: schemaOf(table.schema), table: table.table });
  switch (input.kind) {
    case 'select':
      return compileSelect(shape, input.query ?? readQuery, input.spec);
    case 'count':
      return compileSelect(shape, readQuery, { filters: input.filters, orderBy: [], count: true });
    case 'insert':
      return compileInsert(shape, at(input.table), input.values);
    case 'update':
      return compileUpdate(shape, at(input.table), input.values, matches(input), input.filters);
    case 'delete':
      return compileDelete(shape, at(input.table), matches(input), input.filters);
    case 'selectByKey':
      return compileSelectWhere(
        shape,
        at(input.table),
        input.columns,
        [{ columns: input.keyColumns, keys: input.keys }],
        input.lock,
      );
  }
}

const query = 'select book_id id, title, price from book';
const from = `FROM (${query}\n) AS _r`;
const book: Table = { schema: 'shop', table: 'book' };
const edition: Table = { schema: 'shop', table: 'edition' };

const cases: { name: string; input: Input; postgres: CompiledQuery; mysql: CompiledQuery }[] = [
  // SELECT: the definition's query as a derived table, filtered, ordered and paged by labels.
  {
    name: 'select without filters',
    input: { kind: 'select', spec: { filters: [], orderBy: ['id'] } },
    postgres: { text: `SELECT * ${from} ORDER BY _r."id"`, params: [] },
    mysql: { text: `SELECT * ${from} ORDER BY _r.\`id\``, params: [] },
  },
  {
    name: 'select without filters or order',
    input: { kind: 'select', spec: { filters: [], orderBy: [] } },
    postgres: { text: `SELECT * ${from}`, params: [] },
    mysql: { text: `SELECT * ${from}`, params: [] },
  },
  {
    name: 'eq',
    input: { kind: 'select', spec: { filters: [{ label: 'id', op: 'eq', value: '7' }], orderBy: [] } },
    postgres: { text: `SELECT * ${from} WHERE _r."id" = $1`, params: ['7'] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`id\` = ?`, params: ['7'] },
  },
  {
    name: 'ne',
    input: { kind: 'select', spec: { filters: [{ label: 'title', op: 'ne', value: 'x' }], orderBy: [] } },
    postgres: { text: `SELECT * ${from} WHERE _r."title" <> $1`, params: ['x'] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`title\` <> ?`, params: ['x'] },
  },
  {
    name: 'lt',
    input: { kind: 'select', spec: { filters: [{ label: 'price', op: 'lt', value: '5' }], orderBy: [] } },
    postgres: { text: `SELECT * ${from} WHERE _r."price" < $1`, params: ['5'] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`price\` < ?`, params: ['5'] },
  },
  {
    name: 'le',
    input: { kind: 'select', spec: { filters: [{ label: 'price', op: 'le', value: '5' }], orderBy: [] } },
    postgres: { text: `SELECT * ${from} WHERE _r."price" <= $1`, params: ['5'] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`price\` <= ?`, params: ['5'] },
  },
  {
    name: 'gt',
    input: { kind: 'select', spec: { filters: [{ label: 'price', op: 'gt', value: '5' }], orderBy: [] } },
    postgres: { text: `SELECT * ${from} WHERE _r."price" > $1`, params: ['5'] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`price\` > ?`, params: ['5'] },
  },
  {
    name: 'ge',
    input: { kind: 'select', spec: { filters: [{ label: 'price', op: 'ge', value: '5' }], orderBy: [] } },
    postgres: { text: `SELECT * ${from} WHERE _r."price" >= $1`, params: ['5'] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`price\` >= ?`, params: ['5'] },
  },
  {
    name: 'range: gt and le on the same label, ANDed, params in order',
    input: {
      kind: 'select',
      spec: {
        filters: [
          { label: 'price', op: 'gt', value: '5' },
          { label: 'price', op: 'le', value: '10' },
        ],
        orderBy: [],
      },
    },
    postgres: { text: `SELECT * ${from} WHERE _r."price" > $1 AND _r."price" <= $2`, params: ['5', '10'] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`price\` > ? AND _r.\`price\` <= ?`, params: ['5', '10'] },
  },
  {
    name: 'like on a string field',
    input: {
      kind: 'select',
      spec: { filters: [{ label: 'title', op: 'like', value: 'The%', text: false }], orderBy: [] },
    },
    postgres: { text: `SELECT * ${from} WHERE _r."title" LIKE $1 ESCAPE '\\'`, params: ['The%'] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`title\` LIKE ?`, params: ['The%'] },
  },
  {
    name: 'like on a non-string field: CAST on postgres, plain on mysql',
    input: {
      kind: 'select',
      spec: { filters: [{ label: 'price', op: 'like', value: '1%', text: true }], orderBy: [] },
    },
    postgres: { text: `SELECT * ${from} WHERE CAST(_r."price" AS text) LIKE $1 ESCAPE '\\'`, params: ['1%'] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`price\` LIKE ?`, params: ['1%'] },
  },
  {
    name: 'like keeps escaped wildcards in the parameter',
    input: {
      kind: 'select',
      spec: { filters: [{ label: 'title', op: 'like', value: '100\\%%', text: false }], orderBy: [] },
    },
    postgres: { text: `SELECT * ${from} WHERE _r."title" LIKE $1 ESCAPE '\\'`, params: ['100\\%%'] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`title\` LIKE ?`, params: ['100\\%%'] },
  },
  {
    name: 'in list',
    input: { kind: 'select', spec: { filters: [{ label: 'id', op: 'in', values: ['1', '2', '3'] }], orderBy: [] } },
    postgres: { text: `SELECT * ${from} WHERE _r."id" IN ($1, $2, $3)`, params: ['1', '2', '3'] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`id\` IN (?, ?, ?)`, params: ['1', '2', '3'] },
  },
  {
    name: 'in list of one',
    input: { kind: 'select', spec: { filters: [{ label: 'id', op: 'in', values: [5n] }], orderBy: [] } },
    postgres: { text: `SELECT * ${from} WHERE _r."id" IN ($1)`, params: ['5'] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`id\` IN (?)`, params: [5n] },
  },
  {
    name: 'null',
    input: { kind: 'select', spec: { filters: [{ label: 'price', op: 'null' }], orderBy: [] } },
    postgres: { text: `SELECT * ${from} WHERE _r."price" IS NULL`, params: [] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`price\` IS NULL`, params: [] },
  },
  {
    name: 'notnull',
    input: { kind: 'select', spec: { filters: [{ label: 'price', op: 'notnull' }], orderBy: [] } },
    postgres: { text: `SELECT * ${from} WHERE _r."price" IS NOT NULL`, params: [] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`price\` IS NOT NULL`, params: [] },
  },
  {
    name: 'several filters: placeholders numbered across them, null takes none',
    input: {
      kind: 'select',
      spec: {
        filters: [
          { label: 'title', op: 'like', value: 'A%', text: false },
          { label: 'price', op: 'null' },
          { label: 'id', op: 'in', values: ['4', '5'] },
          { label: 'id', op: 'ne', value: '9' },
        ],
        orderBy: ['id'],
        limit: 10,
      },
    },
    postgres: {
      text: `SELECT * ${from} WHERE _r."title" LIKE $1 ESCAPE '\\' AND _r."price" IS NULL AND _r."id" IN ($2, $3) AND _r."id" <> $4 ORDER BY _r."id" LIMIT $5`,
      params: ['A%', '4', '5', '9', 10],
    },
    mysql: {
      text: `SELECT * ${from} WHERE _r.\`title\` LIKE ? AND _r.\`price\` IS NULL AND _r.\`id\` IN (?, ?) AND _r.\`id\` <> ? ORDER BY _r.\`id\` LIMIT ?`,
      params: ['A%', '4', '5', '9', 10],
    },
  },
  {
    name: 'order by several labels',
    input: { kind: 'select', spec: { filters: [], orderBy: ['langId', 'filmId', 'title'] } },
    postgres: { text: `SELECT * ${from} ORDER BY _r."langId", _r."filmId", _r."title"`, params: [] },
    mysql: { text: `SELECT * ${from} ORDER BY _r.\`langId\`, _r.\`filmId\`, _r.\`title\``, params: [] },
  },
  {
    name: 'an order asked for (_order): its directions, NULL below every value on both engines',
    input: {
      kind: 'select',
      spec: {
        filters: [],
        orderBy: [{ label: 'price', descending: true }, { label: 'title', descending: false }, 'id'],
      },
    },
    postgres: {
      text: `SELECT * ${from} ORDER BY _r."price" DESC NULLS LAST, _r."title" ASC NULLS FIRST, _r."id"`,
      params: [],
    },
    mysql: { text: `SELECT * ${from} ORDER BY _r.\`price\` DESC, _r.\`title\` ASC, _r.\`id\``, params: [] },
  },
  // _after: the rows after the cursor's row in the order; NULL where each term's order puts it.
  {
    name: 'after: down, up, then the key',
    input: {
      kind: 'select',
      spec: {
        filters: [],
        orderBy: [{ label: 'price', descending: true }, { label: 'title', descending: false }, 'id'],
        after: { values: ['5.00', 'B', 7n], neverNull: [] },
      },
    },
    postgres: {
      text: `SELECT * ${from} WHERE ((_r."price" < $1 OR _r."price" IS NULL) OR (_r."price" = $2 AND (_r."title" > $3 OR (_r."title" = $4 AND (_r."id" > $5 OR _r."id" IS NULL))))) ORDER BY _r."price" DESC NULLS LAST, _r."title" ASC NULLS FIRST, _r."id"`,
      params: ['5.00', '5.00', 'B', 'B', '7'],
    },
    mysql: {
      text: `SELECT * ${from} WHERE ((_r.\`price\` < ? OR _r.\`price\` IS NULL) OR (_r.\`price\` = ? AND (_r.\`title\` > ? OR (_r.\`title\` = ? AND _r.\`id\` > ?)))) ORDER BY _r.\`price\` DESC, _r.\`title\` ASC, _r.\`id\``,
      params: ['5.00', '5.00', 'B', 'B', 7n],
    },
  },
  {
    name: 'after a NULL going up: every value, then the NULLs after the key',
    input: {
      kind: 'select',
      spec: {
        filters: [],
        orderBy: [{ label: 'price', descending: false }, 'id'],
        after: { values: [null, 3n], neverNull: [] },
      },
    },
    postgres: {
      text: `SELECT * ${from} WHERE (_r."price" IS NOT NULL OR (_r."price" IS NULL AND (_r."id" > $1 OR _r."id" IS NULL))) ORDER BY _r."price" ASC NULLS FIRST, _r."id"`,
      params: ['3'],
    },
    mysql: {
      text: `SELECT * ${from} WHERE (_r.\`price\` IS NOT NULL OR (_r.\`price\` IS NULL AND _r.\`id\` > ?)) ORDER BY _r.\`price\` ASC, _r.\`id\``,
      params: [3n],
    },
  },
  {
    name: 'after a NULL going down: only the NULLs after the key',
    input: {
      kind: 'select',
      spec: {
        filters: [],
        orderBy: [{ label: 'price', descending: true }, 'id'],
        after: { values: [null, 3n], neverNull: [] },
      },
    },
    postgres: {
      text: `SELECT * ${from} WHERE (_r."price" IS NULL AND (_r."id" > $1 OR _r."id" IS NULL)) ORDER BY _r."price" DESC NULLS LAST, _r."id"`,
      params: ['3'],
    },
    mysql: {
      text: `SELECT * ${from} WHERE (_r.\`price\` IS NULL AND _r.\`id\` > ?) ORDER BY _r.\`price\` DESC, _r.\`id\``,
      params: [3n],
    },
  },
  {
    name: 'after a NULL plain term: last on PostgreSQL, first on MySQL (a child key of a parent without children)',
    input: {
      kind: 'select',
      spec: { filters: [], orderBy: ['id', 'title'], after: { values: [3n, null], neverNull: [] } },
    },
    postgres: {
      text: `SELECT * ${from} WHERE (_r."id" > $1 OR _r."id" IS NULL) ORDER BY _r."id", _r."title"`,
      params: ['3'],
    },
    mysql: {
      text: `SELECT * ${from} WHERE _r.\`id\` >= ? AND (_r.\`id\` > ? OR (_r.\`id\` = ? AND _r.\`title\` IS NOT NULL)) ORDER BY _r.\`id\`, _r.\`title\``,
      params: [3n, 3n, 3n],
    },
  },
  {
    name: 'after, a key that is never NULL: no NULL test, and the first field bounds the rows from below',
    input: {
      kind: 'select',
      spec: {
        filters: [],
        orderBy: [{ label: 'title', descending: false }, 'id'],
        after: { values: ['B', 7n], neverNull: ['id'] },
      },
    },
    postgres: {
      text: `SELECT * ${from} WHERE _r."title" >= $1 AND (_r."title" > $2 OR (_r."title" = $3 AND _r."id" > $4)) ORDER BY _r."title" ASC NULLS FIRST, _r."id"`,
      params: ['B', 'B', 'B', '7'],
    },
    mysql: {
      text: `SELECT * ${from} WHERE _r.\`title\` >= ? AND (_r.\`title\` > ? OR (_r.\`title\` = ? AND _r.\`id\` > ?)) ORDER BY _r.\`title\` ASC, _r.\`id\``,
      params: ['B', 'B', 'B', 7n],
    },
  },
  {
    name: 'after, by the key alone: one comparison an index answers',
    input: { kind: 'select', spec: { filters: [], orderBy: ['id'], after: { values: [7n], neverNull: ['id'] } } },
    postgres: { text: `SELECT * ${from} WHERE _r."id" > $1 ORDER BY _r."id"`, params: ['7'] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`id\` > ? ORDER BY _r.\`id\``, params: [7n] },
  },
  {
    name: 'after a row that is last in every term: no rows',
    input: { kind: 'select', spec: { filters: [], orderBy: ['id'], after: { values: [null], neverNull: [] } } },
    postgres: { text: `SELECT * ${from} WHERE 1 = 0 ORDER BY _r."id"`, params: [] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`id\` IS NOT NULL ORDER BY _r.\`id\``, params: [] },
  },
  {
    name: 'after, with a filter and a limit',
    input: {
      kind: 'select',
      spec: {
        filters: [{ label: 'title', op: 'ne', value: 'x' }],
        orderBy: ['id'],
        after: { values: [3n], neverNull: [] },
        limit: 3,
      },
    },
    postgres: {
      text: `SELECT * ${from} WHERE _r."title" <> $1 AND (_r."id" > $2 OR _r."id" IS NULL) ORDER BY _r."id" LIMIT $3`,
      params: ['x', '3', 3],
    },
    mysql: {
      text: `SELECT * ${from} WHERE _r.\`title\` <> ? AND _r.\`id\` > ? ORDER BY _r.\`id\` LIMIT ?`,
      params: ['x', 3n, 3],
    },
  },
  // The count of a total: the filters, no order, no paging.
  {
    name: 'count with a filter',
    input: { kind: 'count', filters: [{ label: 'price', op: 'gt', value: '1' }] },
    postgres: { text: `SELECT COUNT(*) AS "_rrs_count" ${from} WHERE _r."price" > $1`, params: ['1'] },
    mysql: { text: `SELECT COUNT(*) AS \`_rrs_count\` ${from} WHERE _r.\`price\` > ?`, params: ['1'] },
  },
  {
    name: 'count without filters',
    input: { kind: 'count', filters: [] },
    postgres: { text: `SELECT COUNT(*) AS "_rrs_count" ${from}`, params: [] },
    mysql: { text: `SELECT COUNT(*) AS \`_rrs_count\` ${from}`, params: [] },
  },
  {
    name: 'limit only',
    input: { kind: 'select', spec: { filters: [], orderBy: ['id'], limit: 20 } },
    postgres: { text: `SELECT * ${from} ORDER BY _r."id" LIMIT $1`, params: [20] },
    mysql: { text: `SELECT * ${from} ORDER BY _r.\`id\` LIMIT ?`, params: [20] },
  },
  {
    name: 'limit 0',
    input: { kind: 'select', spec: { filters: [], orderBy: [], limit: 0 } },
    postgres: { text: `SELECT * ${from} LIMIT $1`, params: [0] },
    mysql: { text: `SELECT * ${from} LIMIT ?`, params: [0] },
  },
  {
    name: 'offset only: mysql needs the largest LIMIT',
    input: { kind: 'select', spec: { filters: [], orderBy: ['id'], offset: 40 } },
    postgres: { text: `SELECT * ${from} ORDER BY _r."id" OFFSET $1`, params: [40] },
    mysql: { text: `SELECT * ${from} ORDER BY _r.\`id\` LIMIT 18446744073709551615 OFFSET ?`, params: [40] },
  },
  {
    name: 'limit and offset after a filter',
    input: {
      kind: 'select',
      spec: { filters: [{ label: 'price', op: 'gt', value: '1' }], orderBy: ['id'], limit: 10, offset: 30 },
    },
    postgres: {
      text: `SELECT * ${from} WHERE _r."price" > $1 ORDER BY _r."id" LIMIT $2 OFFSET $3`,
      params: ['1', 10, 30],
    },
    mysql: {
      text: `SELECT * ${from} WHERE _r.\`price\` > ? ORDER BY _r.\`id\` LIMIT ? OFFSET ?`,
      params: ['1', 10, 30],
    },
  },
  {
    name: 'distinct with columns',
    input: { kind: 'select', spec: { columns: ['id', 'title'], distinct: true, filters: [], orderBy: ['id'] } },
    postgres: { text: `SELECT DISTINCT _r."id", _r."title" ${from} ORDER BY _r."id"`, params: [] },
    mysql: { text: `SELECT DISTINCT _r.\`id\`, _r.\`title\` ${from} ORDER BY _r.\`id\``, params: [] },
  },
  {
    name: 'columns without distinct',
    input: { kind: 'select', spec: { columns: ['id'], filters: [], orderBy: [] } },
    postgres: { text: `SELECT _r."id" ${from}`, params: [] },
    mysql: { text: `SELECT _r.\`id\` ${from}`, params: [] },
  },
  {
    name: 'as committed now: MySQL locks what the query reads, inside it, on a line of its own',
    input: {
      kind: 'select',
      spec: {
        columns: ['id'],
        distinct: true,
        filters: [],
        orderBy: [],
        keys: { labels: ['id'], keys: [[7n]] },
        current: true,
      },
    },
    postgres: { text: `SELECT DISTINCT _r."id" ${from} WHERE "id" = $1`, params: ['7'] },
    mysql: {
      text: `SELECT DISTINCT _r.\`id\` FROM (${query}\nLOCK IN SHARE MODE\n) AS _r WHERE \`id\` = ?`,
      params: [7n],
    },
  },
  {
    name: 'rows counted per distinct value',
    input: {
      kind: 'select',
      spec: {
        columns: ['title', 'price'],
        count: true,
        filters: [{ label: 'price', op: 'gt', value: '1' }],
        orderBy: [],
      },
    },
    postgres: {
      text: `SELECT _r."title", _r."price", COUNT(*) AS "_rrs_count" ${from} WHERE _r."price" > $1 GROUP BY _r."title", _r."price"`,
      params: ['1'],
    },
    mysql: {
      text: `SELECT _r.\`title\`, _r.\`price\`, COUNT(*) AS \`_rrs_count\` ${from} WHERE _r.\`price\` > ? GROUP BY _r.\`title\`, _r.\`price\``,
      params: ['1'],
    },
  },
  {
    name: 'labels with embedded quote characters are quoted by doubling',
    input: {
      kind: 'select',
      spec: { columns: ['we"ird`x'], filters: [{ label: 'we"ird`x', op: 'eq', value: 'v' }], orderBy: ['we"ird`x'] },
    },
    postgres: {
      text: `SELECT _r."we""ird\`x" ${from} WHERE _r."we""ird\`x" = $1 ORDER BY _r."we""ird\`x"`,
      params: ['v'],
    },
    mysql: {
      text: `SELECT _r.\`we"ird\`\`x\` ${from} WHERE _r.\`we"ird\`\`x\` = ? ORDER BY _r.\`we"ird\`\`x\``,
      params: ['v'],
    },
  },
  {
    name: 'hostile values only ever travel as parameters',
    input: {
      kind: 'select',
      spec: { filters: [{ label: 'title', op: 'eq', value: "x'; DROP TABLE book; --" }], orderBy: [] },
    },
    postgres: { text: `SELECT * ${from} WHERE _r."title" = $1`, params: ["x'; DROP TABLE book; --"] },
    mysql: { text: `SELECT * ${from} WHERE _r.\`title\` = ?`, params: ["x'; DROP TABLE book; --"] },
  },

  // INSERT: RETURNING * on postgres; mysql reads back by insert id.
  {
    name: 'insert with values',
    input: { kind: 'insert', table: book, values: { title: 'Dune', price: '9.99', published_on: null } },
    postgres: {
      text: 'INSERT INTO "shop"."book" ("title", "price", "published_on") VALUES ($1, $2, $3) RETURNING *',
      params: ['Dune', '9.99', null],
      returning: true,
    },
    mysql: {
      text: 'INSERT INTO `shop`.`book` (`title`, `price`, `published_on`) VALUES (?, ?, ?)',
      params: ['Dune', '9.99', null],
    },
  },
  {
    name: 'insert with no values',
    input: { kind: 'insert', table: book, values: {} },
    postgres: { text: 'INSERT INTO "shop"."book" DEFAULT VALUES RETURNING *', params: [], returning: true },
    mysql: { text: 'INSERT INTO `shop`.`book` () VALUES ()', params: [] },
  },
  {
    name: 'insert quotes schema, table and columns with embedded quote characters',
    input: { kind: 'insert', table: { schema: 'my"s`c', table: 't"b`l' }, values: { 'c"o`l': 1 } },
    postgres: {
      text: 'INSERT INTO "my""s`c"."t""b`l" ("c""o`l") VALUES ($1) RETURNING *',
      params: [1],
      returning: true,
    },
    mysql: { text: 'INSERT INTO `my"s``c`.`t"b``l` (`c"o``l`) VALUES (?)', params: [1] },
  },

  // UPDATE by key.
  {
    name: 'update by one key',
    input: {
      kind: 'update',
      table: book,
      values: { title: 'New', price: null },
      keyColumns: ['book_id'],
      keys: [['7']],
    },
    postgres: {
      text: 'UPDATE "shop"."book" SET "title" = $1, "price" = $2 WHERE "book_id" = $3',
      params: ['New', null, '7'],
    },
    mysql: {
      text: 'UPDATE `shop`.`book` SET `title` = ?, `price` = ? WHERE `book_id` = ?',
      params: ['New', null, '7'],
    },
  },
  {
    name: 'update by several keys',
    input: {
      kind: 'update',
      table: book,
      values: { price: '1.00' },
      keyColumns: ['book_id'],
      keys: [[1n], [2n], [3n]],
    },
    postgres: {
      text: 'UPDATE "shop"."book" SET "price" = $1 WHERE "book_id" IN ($2, $3, $4)',
      params: ['1.00', '1', '2', '3'],
    },
    mysql: { text: 'UPDATE `shop`.`book` SET `price` = ? WHERE `book_id` IN (?, ?, ?)', params: ['1.00', 1n, 2n, 3n] },
  },
  {
    name: 'update one row by a compound key',
    input: {
      kind: 'update',
      table: edition,
      values: { label: 'x' },
      keyColumns: ['isbn', 'edition_no'],
      keys: [['978-3', '2']],
    },
    postgres: {
      text: 'UPDATE "shop"."edition" SET "label" = $1 WHERE "isbn" = $2 AND "edition_no" = $3',
      params: ['x', '978-3', '2'],
    },
    mysql: {
      text: 'UPDATE `shop`.`edition` SET `label` = ? WHERE `isbn` = ? AND `edition_no` = ?',
      params: ['x', '978-3', '2'],
    },
  },
  {
    name: 'update several rows by a compound key: tuple IN',
    input: {
      kind: 'update',
      table: edition,
      values: { label: 'x' },
      keyColumns: ['isbn', 'edition_no'],
      keys: [
        ['a', '1'],
        ['b', '2'],
      ],
    },
    postgres: {
      text: 'UPDATE "shop"."edition" SET "label" = $1 WHERE ("isbn", "edition_no") IN (($2, $3), ($4, $5))',
      params: ['x', 'a', '1', 'b', '2'],
    },
    mysql: {
      text: 'UPDATE `shop`.`edition` SET `label` = ? WHERE (`isbn`, `edition_no`) IN ((?, ?), (?, ?))',
      params: ['x', 'a', '1', 'b', '2'],
    },
  },

  // UPDATE and DELETE by filters on the table's columns (a query that shows every row of its table).
  {
    name: 'update by column filters alone',
    input: {
      kind: 'update',
      table: book,
      values: { price: '1' },
      keyColumns: [],
      keys: [],
      filters: [
        { column: 'title', filter: { label: 'name', op: 'like', value: 'A%', text: false } },
        { column: 'price', filter: { label: 'cost', op: 'in', values: ['2', '3'] } },
      ],
    },
    postgres: {
      text: `UPDATE "shop"."book" SET "price" = $1 WHERE "title" LIKE $2 ESCAPE '\\' AND "price" IN ($3, $4)`,
      params: ['1', 'A%', '2', '3'],
    },
    mysql: {
      text: 'UPDATE `shop`.`book` SET `price` = ? WHERE `title` LIKE ? AND `price` IN (?, ?)',
      params: ['1', 'A%', '2', '3'],
    },
  },
  {
    name: 'delete by a key and a column filter',
    input: {
      kind: 'delete',
      table: book,
      keyColumns: ['book_id'],
      keys: [['7']],
      filters: [{ column: 'published_on', filter: { label: 'published', op: 'null' } }],
    },
    postgres: { text: 'DELETE FROM "shop"."book" WHERE "book_id" = $1 AND "published_on" IS NULL', params: ['7'] },
    mysql: { text: 'DELETE FROM `shop`.`book` WHERE `book_id` = ? AND `published_on` IS NULL', params: ['7'] },
  },

  // DELETE by key.
  {
    name: 'delete by one key',
    input: { kind: 'delete', table: book, keyColumns: ['book_id'], keys: [['7']] },
    postgres: { text: 'DELETE FROM "shop"."book" WHERE "book_id" = $1', params: ['7'] },
    mysql: { text: 'DELETE FROM `shop`.`book` WHERE `book_id` = ?', params: ['7'] },
  },
  {
    name: 'delete by value: NULL matches NULL (rows without a key, D18)',
    input: { kind: 'delete', table: book, keyColumns: ['title', 'price'], keys: [['a', null]], byValue: true },
    postgres: { text: 'DELETE FROM "shop"."book" WHERE "title" = $1 AND "price" IS NULL', params: ['a'] },
    mysql: { text: 'DELETE FROM `shop`.`book` WHERE `title` = ? AND `price` IS NULL', params: ['a'] },
  },
  {
    name: 'delete by several rows of values',
    input: {
      kind: 'delete',
      table: book,
      keyColumns: ['title', 'price'],
      keys: [
        ['a', '1'],
        [null, '2'],
      ],
      byValue: true,
    },
    postgres: {
      text: 'DELETE FROM "shop"."book" WHERE (("title" = $1 AND "price" = $2) OR ("title" IS NULL AND "price" = $3))',
      params: ['a', '1', '2'],
    },
    mysql: {
      text: 'DELETE FROM `shop`.`book` WHERE ((`title` = ? AND `price` = ?) OR (`title` IS NULL AND `price` = ?))',
      params: ['a', '1', '2'],
    },
  },
  {
    name: 'delete by several keys',
    input: { kind: 'delete', table: book, keyColumns: ['book_id'], keys: [['7'], ['8']] },
    postgres: { text: 'DELETE FROM "shop"."book" WHERE "book_id" IN ($1, $2)', params: ['7', '8'] },
    mysql: { text: 'DELETE FROM `shop`.`book` WHERE `book_id` IN (?, ?)', params: ['7', '8'] },
  },
  {
    name: 'delete by several compound keys',
    input: {
      kind: 'delete',
      table: edition,
      keyColumns: ['isbn', 'edition_no'],
      keys: [
        ['a', 1n],
        ['b', 2n],
      ],
    },
    postgres: {
      text: 'DELETE FROM "shop"."edition" WHERE ("isbn", "edition_no") IN (($1, $2), ($3, $4))',
      params: ['a', '1', 'b', '2'],
    },
    mysql: {
      text: 'DELETE FROM `shop`.`edition` WHERE (`isbn`, `edition_no`) IN ((?, ?), (?, ?))',
      params: ['a', 1n, 'b', 2n],
    },
  },

  // SELECT by key (MySQL's read-back of inserted rows).
  {
    name: 'select by key, all columns',
    input: { kind: 'selectByKey', table: book, columns: '*', keyColumns: ['book_id'], keys: [[10n], [11n]] },
    postgres: { text: 'SELECT * FROM "shop"."book" WHERE "book_id" IN ($1, $2)', params: ['10', '11'] },
    mysql: { text: 'SELECT * FROM `shop`.`book` WHERE `book_id` IN (?, ?)', params: [10n, 11n] },
  },
  {
    name: 'select by key, locked until the transaction ends',
    input: {
      kind: 'selectByKey',
      table: book,
      columns: ['book_id'],
      keyColumns: ['book_id'],
      keys: [[10n]],
      lock: true,
    },
    postgres: { text: 'SELECT "book_id" FROM "shop"."book" WHERE "book_id" = $1 FOR UPDATE', params: ['10'] },
    mysql: { text: 'SELECT `book_id` FROM `shop`.`book` WHERE `book_id` = ? FOR UPDATE', params: [10n] },
  },
  {
    name: 'select by compound key, listed columns',
    input: {
      kind: 'selectByKey',
      table: edition,
      columns: ['isbn', 'label'],
      keyColumns: ['isbn', 'edition_no'],
      keys: [['a', '1']],
    },
    postgres: {
      text: 'SELECT "isbn", "label" FROM "shop"."edition" WHERE "isbn" = $1 AND "edition_no" = $2',
      params: ['a', '1'],
    },
    mysql: {
      text: 'SELECT `isbn`, `label` FROM `shop`.`edition` WHERE `isbn` = ? AND `edition_no` = ?',
      params: ['a', '1'],
    },
  },
];

/** The statement as the driver gets it: its text and parameters (and whether it returns rows), not its target. */
const sent = ({ target: _target, ...statement }: CompiledQuery) => statement;

describe('SQL compilers', () => {
  it.each(cases)('postgres: $name', ({ input, postgres }) => {
    expect(sent(compile('postgres', input))).toEqual(postgres);
  });

  it.each(cases)('mysql: $name', ({ input, mysql }) => {
    expect(sent(compile('mysql', input))).toEqual(mysql);
  });

  it('an UPDATE and a DELETE carry what they write, as data: the rows a change log reads before and after them', () => {
    const table = { schema: 'shop', table: 'book' };
    const where = [{ columns: ['book_id'], keys: [['7']] }];
    const filters: ColumnFilter[] = [{ column: 'title', filter: { label: 'title', op: 'eq', value: 'Old' } }];
    const shape = sqlShapeOf('postgres');
    expect(compileUpdate(shape, table, { title: 'New' }, where, filters).target).toEqual({
      verb: 'update',
      table,
      where,
      filters,
      set: { title: 'New' },
    });
    expect(compileDelete(shape, table, where).target).toEqual({ verb: 'delete', table, where, filters: [] });
    expect(compileInsert(shape, table, { title: 'New' }).target).toBeUndefined();
    expect(compileSelectWhere(shape, table, '*', where).target).toBeUndefined();
  });
});

/** Tables every case can run against; the read query also selects the odd labels some cases order or filter by. */
const setup: Record<EngineName, (database: string) => string[]> = {
  postgres: () => [
    'CREATE TABLE book (book_id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, title varchar(100), price decimal(8,2), published_on date)',
    'CREATE SCHEMA shop',
    'CREATE TABLE shop.book (book_id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, title varchar(100), price decimal(8,2), published_on date)',
    'CREATE TABLE shop.edition (isbn varchar(20), edition_no integer, label varchar(40), PRIMARY KEY (isbn, edition_no))',
    'CREATE SCHEMA "my""s`c"',
    'CREATE TABLE "my""s`c"."t""b`l" ("c""o`l" integer)',
  ],
  mysql: () => [
    'CREATE TABLE book (book_id int AUTO_INCREMENT PRIMARY KEY, title varchar(100), price decimal(8,2), published_on date)',
    'CREATE TABLE edition (isbn varchar(20), edition_no int, label varchar(40), PRIMARY KEY (isbn, edition_no))',
    'CREATE TABLE `t"b``l` (`c"o``l` int)',
  ],
};

const readQueries: Record<EngineName, string> = {
  postgres: `select book_id as id, title, price, 1 as "langId", 2 as "filmId", 'w' as "we""ird\`x" from book`,
  mysql: "select book_id as id, title, price, 1 as `langId`, 2 as `filmId`, 'w' as `we\"ird``x` from book",
};

class RolledBack extends Error {}

describe.each(targets())('every compiled statement runs on $name', (target) => {
  let testDb: TestDatabase;
  let db: Database;
  const schemaOf = (schema: string) => (target.engine === 'mysql' ? new URL(testDb.url).pathname.slice(1) : schema);

  beforeAll(async () => {
    testDb = await target.create();
    for (const statement of setup[target.engine](new URL(testDb.url).pathname.slice(1))) await testDb.exec(statement);
    const options = { connectTimeoutMs: 3000, statementTimeoutMs: 10000, poolSize: 1, idleTimeoutS: 300 };
    db = await connectTo(testDb.url, options);
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it.each(cases)('$name', async ({ input }) => {
    const statement = compile(target.engine, input, readQueries[target.engine], schemaOf);
    const ran = db.transaction(async (tx) => {
      await tx.run(statement);
      throw new RolledBack();
    });
    await expect(ran).rejects.toBeInstanceOf(RolledBack);
  });
});
