/**
 * Table tests of binding a caller's claims into a resource's query (planRead, planWrite), and of the statements
 * compiled from it, PostgreSQL and MySQL side by side: the claims are the first parameters, never text. Pure.
 */

import { findClaim } from '../../lib/auth/find-claim';
import { sqlShapeOf } from '../../lib/db/engines/registry';
import type { CallerQuery, Claims, SelectSpec } from '../../lib/plan/plan';
import { planCallerQuery } from '../../lib/plan/plan-caller-query';
import { planRead } from '../../lib/plan/plan-read';
import { planWrite } from '../../lib/plan/plan-write';
import type { WriteRequest } from '../../lib/request/resource-request';
import type { ClaimPlaceholder, EngineName, SqlResource } from '../../lib/resource';
import { compileSelect, compileSelectWhere } from '../../lib/sql/compile-select';
import type { CompiledQuery } from '../../lib/sql/compiled-query';
import { bookResource, engineNames, serviceErrorOf, serviceErrorOfAsync } from '../support/resources';

/** Book, its query limited per caller: `owner = {{claim:sub}} and shelf in ({{claim:org.shelf}}, 0)`. */
function mine(engine: EngineName): SqlResource {
  const book = bookResource(engine);
  const parts = [`${book.query} where owner = `, ' and shelf in (', ', 0)'];
  const claims = [value('sub'), value('org.shelf')];
  return { ...book, name: 'MyBooks', claimQuery: { parts, claims } };
}

const value = (name: string): ClaimPlaceholder => ({ name, use: 'value' });

/** Book for callers who are admins or owners: `{{claim:admin}} or owner like {{claim-prefix:team}}`. */
function teams(engine: EngineName): SqlResource {
  const book = bookResource(engine);
  const parts = [`${book.query} where `, ' or owner like ', ''];
  const claims: ClaimPlaceholder[] = [
    { name: 'admin', use: 'condition' },
    { name: 'team', use: 'prefix' },
  ];
  return { ...book, name: 'TeamBooks', claimQuery: { parts, claims } };
}

const aliceClaims: Claims = { sub: 'alice', org: { shelf: 'top' } };

describe('findClaim', () => {
  it.each([
    [{ sub: 'alice' }, 'sub', 'alice'],
    [{ 'cognito:username': 'al' }, 'cognito:username', 'al'],
    [{ org: { tenant: { id: 4 } } }, 'org.tenant.id', 4],
    [{ 'org.tenant': 'flat' }, 'org.tenant', 'flat'],
    [{ org: { tenant: 'x' } }, 'org.other', undefined],
    [{ org: ['x'] }, 'org.0', undefined],
    [{}, 'sub', undefined],
    [{ sub: 'a' }, 'toString', undefined],
    [{ sub: 'a' }, '__proto__', undefined],
  ] as const)('%j has %s = %j', (claims, name, value) => {
    expect(findClaim(claims, name)).toEqual(value);
  });

  it('a claim both by its dotted name and nested is ambiguous: a 403, neither is used', () => {
    expect(serviceErrorOf(() => findClaim({ 'org.tenant': 'flat', org: { tenant: 'nested' } }, 'org.tenant'))).toEqual({
      name: 'ForbiddenError',
      status: 403,
      code: 'claim_ambiguous',
      message:
        "The caller's token carries the claim org.tenant twice, by that name and nested (org → tenant), so neither is used",
    });
  });
});

describe('planCallerQuery', () => {
  it('a query without claims runs as written, whatever the claims', () => {
    expect(planCallerQuery(bookResource('postgres'), aliceClaims)).toBeUndefined();
  });

  it.each([
    [{ sub: 'alice', 'org.shelf': 3 }, ['alice', '3']],
    [{ sub: 'alice', org: { shelf: 'top' } }, ['alice', 'top']],
    [{ sub: 'alice', org: { shelf: true } }, ['alice', true]],
    [{ sub: 0, org: { shelf: 1e21 } }, ['0', '1e+21']],
    [{ sub: "x' OR '1'='1", org: { shelf: -1.5 } }, ["x' OR '1'='1", '-1.5']],
  ])('%j binds %j', (claims, values) => {
    expect(planCallerQuery(mine('postgres'), claims)).toEqual({ parts: mine('postgres').claimQuery?.parts, values });
  });

  it.each([
    [{}, "Resource MyBooks needs the claim sub, which the caller's token does not carry"],
    [{ sub: null, org: { shelf: 1 } }, "Resource MyBooks needs the claim sub, which the caller's token does not carry"],
    [{ sub: 'a' }, "Resource MyBooks needs the claim org.shelf, which the caller's token does not carry"],
    [
      { sub: 'a', org: { shelf: { no: 1 } } },
      "Resource MyBooks needs the claim org.shelf as one string, number or boolean, but the caller's token carries an object",
    ],
    [
      { sub: ['a', 'b'], org: { shelf: 1 } },
      "Resource MyBooks needs the claim sub as one string, number or boolean, but the caller's token carries a list",
    ],
    [
      { sub: 'a', org: { shelf: Number.NaN } },
      "Resource MyBooks needs the claim org.shelf as one string, number or boolean, but the caller's token carries a number that is not finite",
    ],
  ])('%j is a 403', (claims, message) => {
    expect(serviceErrorOf(() => planCallerQuery(mine('mysql'), claims))).toMatchObject({
      status: 403,
      code: 'claim_missing',
      message,
    });
  });
});

describe('a claim used as a condition, and a prefix claim', () => {
  it.each([
    [{ admin: true, team: 'red' }, [true, 'red%']],
    [{ admin: false, team: '50%_off\\' }, [false, '50\\%\\_off\\\\%']],
    [{ admin: false, team: 7 }, [false, '7%']],
  ])('%j binds %j', (claims, values) => {
    expect(planCallerQuery(teams('postgres'), claims)?.values).toEqual(values);
  });

  it.each([
    [
      { admin: 'yes', team: 'red' },
      "Resource TeamBooks needs the claim admin as true or false, but the caller's token carries a text",
    ],
    [
      { admin: 1, team: 'red' },
      "Resource TeamBooks needs the claim admin as true or false, but the caller's token carries a number",
    ],
    [
      { admin: '1abc', team: 'red' },
      "Resource TeamBooks needs the claim admin as true or false, but the caller's token carries a text",
    ],
    [
      { admin: false, team: '' },
      "Resource TeamBooks needs the claim team as a text that is not empty, but the caller's token carries an empty text",
    ],
    [
      { admin: false, team: true },
      "Resource TeamBooks needs the claim team as a text that is not empty, but the caller's token carries a boolean",
    ],
  ])('%j is a 403', (claims, message) => {
    expect(serviceErrorOf(() => planCallerQuery(teams('mysql'), claims))).toMatchObject({
      status: 403,
      code: 'claim_missing',
      message,
    });
  });
});

describe('planRead and planWrite carry the caller query', () => {
  it.each(engineNames)('a read through a query with claims (%s)', (engine) => {
    const plan = planRead(mine(engine), { query: { filters: [] }, pathKeys: ['3'] }, aliceClaims, 100);
    expect(plan.query).toEqual({ parts: mine(engine).claimQuery?.parts, values: ['alice', 'top'] });
    expect(plan.select.filters).toEqual([{ label: 'id', op: 'eq', value: 3n }]);
  });

  it.each(engineNames)('a read without claims has no query of its own (%s)', (engine) => {
    expect(
      planRead(bookResource(engine), { query: { filters: [] }, pathKeys: [] }, aliceClaims, 100),
    ).not.toHaveProperty('query');
  });

  const del: WriteRequest = {
    op: 'delete',
    name: 'MyBooks',
    pathKeys: ['3'],
    query: { filters: [] },
  } as unknown as WriteRequest;

  it.each(engineNames)('a write through a query with claims (%s)', async (engine) => {
    const plan = await planWrite(mine(engine), del, aliceClaims);
    expect(plan).toMatchObject({ kind: 'delete', query: { values: ['alice', 'top'] } });
  });

  it.each(engineNames)('a missing claim stops a write before anything else (%s)', async (engine) => {
    expect(await serviceErrorOfAsync(() => planWrite(mine(engine), del, {}))).toMatchObject({
      code: 'claim_missing',
    });
  });

  it.each(engineNames)('a query with claims that does not select its key serves reads only (%s)', async (engine) => {
    const resource = mine(engine);
    const keyless = { ...resource, fields: resource.fields.filter((f) => f.label !== 'id') };
    expect(await serviceErrorOfAsync(() => planWrite(keyless, del, aliceClaims))).toEqual({
      name: 'BadRequestError',
      status: 400,
      code: 'bad_request',
      message:
        'Resource MyBooks shows each caller their own rows, but its query does not select the primary key of book (book_id), which a write needs to check its rows against them: it serves reads only',
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Compiled statements

const callerQuery: CallerQuery = {
  parts: ['select id, title from book where owner = ', ' and shelf = ', ''],
  values: ['alice', '7'],
};
const pgFrom = 'FROM (select id, title from book where owner = $1 and shelf = $2\n) AS _r';
/** MySQL compares a claim's text as its bytes: no case, accent or trailing-space folding of a _ci collation. */
const myFrom =
  'FROM (select id, title from book where owner = CAST(? AS BINARY) and shelf = CAST(? AS BINARY)\n) AS _r';

const selects: { name: string; spec: SelectSpec; postgres: CompiledQuery; mysql: CompiledQuery }[] = [
  {
    name: 'the claims come first, then filters and paging',
    spec: {
      filters: [{ label: 'title', op: 'like', value: 'D%', text: false }],
      orderBy: ['id'],
      limit: 5,
      offset: 10,
    },
    postgres: {
      text: `SELECT * ${pgFrom} WHERE _r."title" LIKE $3 ESCAPE '\\' ORDER BY _r."id" LIMIT $4 OFFSET $5`,
      params: ['alice', '7', 'D%', 5, 10],
    },
    mysql: {
      text: `SELECT * ${myFrom} WHERE _r.\`title\` LIKE ? ORDER BY _r.\`id\` LIMIT ? OFFSET ?`,
      params: ['alice', '7', 'D%', 5, 10],
    },
  },
  {
    name: 'which of some keys the caller sees',
    spec: { columns: ['id'], distinct: true, filters: [], orderBy: [], keys: { labels: ['id'], keys: [[1n], [2n]] } },
    postgres: { text: `SELECT DISTINCT _r."id" ${pgFrom} WHERE "id" IN ($3, $4)`, params: ['alice', '7', '1', '2'] },
    mysql: { text: `SELECT DISTINCT _r.\`id\` ${myFrom} WHERE \`id\` IN (?, ?)`, params: ['alice', '7', 1n, 2n] },
  },
  {
    name: 'which pairs of parent and child keys the caller sees, with a filter',
    spec: {
      columns: ['id', 'no'],
      distinct: true,
      filters: [{ label: 'title', op: 'eq', value: 'x' }],
      orderBy: [],
      keys: { labels: ['id', 'no'], keys: [[1n, 2n]] },
    },
    postgres: {
      text: `SELECT DISTINCT _r."id", _r."no" ${pgFrom} WHERE _r."title" = $3 AND "id" = $4 AND "no" = $5`,
      params: ['alice', '7', 'x', '1', '2'],
    },
    mysql: {
      text: `SELECT DISTINCT _r.\`id\`, _r.\`no\` ${myFrom} WHERE _r.\`title\` = ? AND \`id\` = ? AND \`no\` = ?`,
      params: ['alice', '7', 'x', 1n, 2n],
    },
  },
];

describe('compileSelect with a caller query', () => {
  for (const { name, spec, ...expected } of selects) {
    it.each(engineNames)(`${name} (%s)`, (engine) => {
      expect(compileSelect(sqlShapeOf(engine), callerQuery, spec)).toEqual(expected[engine]);
    });
  }

  it.each(engineNames)('a boolean claim is bound as the driver takes it (%s)', (engine) => {
    const query = { parts: ['select id from t where open = ', ''], values: [true] };
    expect(compileSelect(sqlShapeOf(engine), query, { filters: [], orderBy: [] }).params).toEqual([
      engine === 'mysql' ? 1 : true,
    ]);
  });
});

describe('compileSelectWhere with a lock', () => {
  it.each([
    ['postgres', 'SELECT "id" FROM "s"."book" WHERE "id" IN ($1, $2) FOR UPDATE'],
    ['mysql', 'SELECT `id` FROM `s`.`book` WHERE `id` IN (?, ?) FOR UPDATE'],
  ] as const)('%s', (engine, text) => {
    const book = { schema: 's', table: 'book' };
    expect(compileSelectWhere(sqlShapeOf(engine), book, ['id'], [{ columns: ['id'], keys: [[1], [2]] }], true)).toEqual(
      { text, params: [1, 2] },
    );
  });
});
