/**
 * Table tests of showsEveryRow: which definition queries show every row of their one table (so writes need not
 * check which rows the query shows), read without parsing SQL. Anything else counts as "not every row". And of
 * orderingClauses: the query's own ORDER BY, LIMIT, OFFSET and FETCH, which reads do not follow. Pure.
 */
import { orderingClauses, showsEveryRow } from '../../lib/definitions/query-shape';
import type { EngineName } from '../../lib/resource';

const book = { schema: 'public', table: 'book' };

const every: readonly [string, string, EngineName?][] = [
  ['the table alone', 'select id, title from book'],
  ['an alias', 'select b.id, b.title from book b'],
  ['an alias with AS', 'select b.id "Id", b.title as t from book as b'],
  ['the schema', 'select id from public.book'],
  ['quoted names', 'select "id" from "public"."Book"'],
  ['backquoted names', 'select `id` from `book`', 'mysql'],
  ['another case', 'SELECT ID FROM BOOK'],
  [
    'a scalar subquery with its own WHERE in the select list',
    'select id, (select max(x) from y where y.id = book.id) m from book',
  ],
  [
    'functions that need FROM inside parentheses',
    'select id, extract(year from published) y, substring(title from 1 for 3) s from book',
  ],
  ['a comment that holds WHERE', 'select id from book -- where id > 1'],
  ['a block comment', 'select id /* from x where y */ from book'],
  ['a string that holds WHERE', "select id, 'from x where' as note from book"],
  ['a window function', 'select id, row_number() over (order by id) n from book'],
];

const notEvery: readonly [string, string, EngineName?][] = [
  ['a WHERE', "select id from book where status = 'open'"],
  ['a join', 'select b.id from book b join author a on a.id = b.author_id'],
  ['a comma join', 'select b.id from book b, author a'],
  ['a left join', 'select b.id from book b left outer join author a on a.id = b.author_id'],
  ['another table', 'select id from author'],
  ['another schema', 'select id from other.book'],
  ['DISTINCT', 'select distinct id from book'],
  ['an aggregate', 'select id, count(*) n from book'],
  ['an aggregate in capitals', 'select ID, MAX(x) m from book'],
  ['GROUP BY', 'select id from book group by id'],
  ['a UNION', 'select id from book union select id from book'],
  ['a subquery in FROM', 'select id from (select id from book) b'],
  ['a CTE', 'with b as (select id from book) select id from b'],
  ['LIMIT', 'select id from book limit 5'],
  ['ONLY', 'select id from only book'],
  ['TABLESAMPLE', 'select id from book tablesample system (10)'],
  ['a PARTITION', 'select id from book partition (p1)', 'mysql'],
  ['a string for a table', "select id from 'book'"],
  ['a WHERE after a comment', 'select id from book /* c */ where id = 1'],
  ['a WHERE after a line comment', 'select id from book -- c\n where id = 1'],
  ['an index hint', 'select id from book use index (primary)', 'mysql'],
  ['no FROM', 'select 1 as id'],
  ['not a SELECT', 'values (1)'],
];

describe('showsEveryRow', () => {
  it.each(every)('%s: every row', (_, query, engine = 'postgres') => {
    expect(showsEveryRow(query, book, engine)).toBe(true);
  });
  it.each(notEvery)('%s: not every row', (_, query, engine = 'postgres') => {
    expect(showsEveryRow(query, book, engine)).toBe(false);
  });
});

const ordering: readonly [string, string, string[], EngineName?][] = [
  ['none', 'select id from book', []],
  ['ORDER BY', 'select id from book order by title desc', ['ORDER BY']],
  ['in capitals, on lines of their own', 'SELECT id FROM book\nORDER\n BY title\nLIMIT 5', ['ORDER BY', 'LIMIT']],
  ['LIMIT with OFFSET', 'select id from book limit 5 offset 10', ['LIMIT', 'OFFSET']],
  ["MySQL's LIMIT offset, count", 'select id from book limit 10, 5', ['LIMIT'], 'mysql'],
  [
    'OFFSET and FETCH',
    'select id from book order by id offset 2 rows fetch first 3 rows only',
    ['ORDER BY', 'OFFSET', 'FETCH'],
  ],
  ['a bound OFFSET', 'select id from book offset $1', ['OFFSET']],
  ['after a UNION', 'select id from book union select id from author order by 1', ['ORDER BY']],
  ['in a window function', 'select id, row_number() over (order by title) n from book', []],
  ['in an aggregate', "select string_agg(title, ',' order by title) from book", []],
  ['in a subquery', 'select id from book where id in (select id from book order by id limit 3)', []],
  ['in a derived table', 'select id from (select id from book order by id) b', []],
  ['in a comment', 'select id from book -- order by title', []],
  ['in a # comment', 'select id from book # order by title', [], 'mysql'],
  ['in a block comment', 'select id from book /* limit 5 */', []],
  ['in a string', "select id, 'order by' as o from book", []],
  ['a column named offset', 'select id, offset from book where offset > 1', [], 'mysql'],
  ['a quoted column named limit', 'select id, "limit" from book', []],
];

describe('orderingClauses', () => {
  it.each(ordering)('%s', (_, query, clauses, engine = 'postgres') => {
    expect(orderingClauses(query, engine)).toEqual(clauses);
  });
});
