/**
 * Property-based fuzzing of the real handlers on PGlite (fast-check, seeded and bounded): generated paths,
 * query strings, headers and XML, JSON and form bodies. Whatever arrives, the answer is never a 5xx, no promise
 * is left rejected, and a write the service refuses changes no row. The bugs found by earlier probing are fixed
 * regression cases. FUZZ_SEED and FUZZ_RUNS override the seed and the number of runs.
 */
import fc from 'fast-check';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { type Call, invoke } from '../support/service';

const seed = Number(process.env.FUZZ_SEED ?? 20261123);
const runs = Number(process.env.FUZZ_RUNS ?? 2000);

/** Every resource of test/fixtures/definitions but Broken, which is a 500 on purpose (its definition is). */
const resources = [
  'Item',
  'Pair',
  'Loose',
  'Events',
  'TeamPlayers',
  'TeamTags',
  'TeamRoster',
  'PlayerTeam',
  'PlayerMotto',
  'TeamByWeight',
  'shop.Widget',
];
const labels = [
  'id',
  'name',
  'price',
  'qty',
  'big',
  'ratio',
  'active',
  'born',
  'at_time',
  'stamp',
  'data',
  'note',
  'color',
  'tag',
  'double_price',
  'code',
  'num',
  'label',
  'word',
  'n',
  'team_no',
  'team_name',
  'motto',
  'pid',
  'player_name',
  'shirt',
  'nickname',
  'tid',
  'weight',
  'since',
  'happened_at',
  'level',
  'message',
  'team_id',
  '_limit',
  '_offset',
  '_output',
  '_LIMIT',
];

/** Values that reach every rule of the query grammar and every value type's converter. */
const value = fc.oneof(
  fc.constantFrom('null', '!null', '', ' ', '\\', '\\null', '%', '_', '(', ')', '()', '(,)', '!', '<', '>=', '\\\\'),
  fc.constantFrom(
    '9223372036854775808',
    '-9223372036854775809',
    '1e-999999',
    '1e999999',
    '1.005',
    '12345678901.5',
    'NaN',
    '0x10',
    '2024-02-30',
    '2024-01-01 10:00+99',
    '2024-01-01T25:00',
    '0000-01-01',
    '24:00:01',
    'AP8Q',
    '====',
    'true',
    'yes',
    '\u0000',
    '\uFFFF',
    'dürüm',
    '😀',
    "'; drop table item; --",
    '%\\',
    'a\\',
    '\\(%',
  ),
  fc
    .tuple(fc.constantFrom('', '!', '<', '<=', '>', '>=', '\\', '\\!', '(', '%'), fc.string({ maxLength: 12 }))
    .map(([prefix, rest]) => prefix + rest),
  fc.array(fc.string({ maxLength: 6 }), { maxLength: 4 }).map((items) => `(${items.join(',')})`),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.double({ noNaN: false }).map(String),
);

const name = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...labels) }, fc.string({ maxLength: 8 }));

/** Sometimes percent-encoded, sometimes raw, sometimes with a broken escape. */
const encoded = (text: string, mode: number) =>
  mode === 0 ? encodeURIComponent(text) : mode === 1 ? text : `${encodeURIComponent(text)}%${mode === 2 ? 'zz' : ''}`;

const query = fc
  .array(fc.tuple(name, value, fc.nat(3)), { maxLength: 5 })
  .map((pairs) => pairs.map(([n, v, mode]) => `${encoded(n, mode % 2)}=${encoded(v, mode)}`).join('&'));

const resourceName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...resources) },
  fc.constantFrom('Nope', 'a..b', '../etc', 'x'.repeat(300), 'shop', 'Item.xml', '%2e%2e'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

const path = fc
  .tuple(resourceName, fc.array(fc.oneof(value, fc.constant('')), { maxLength: 3 }))
  .map(([resource, keys]) => ['/res', resource, ...keys.map((k) => encodeURIComponent(k))].join('/'));

/** A row of attributes with names a resource has, or not. */
const row = fc.dictionary(name, fc.oneof(value, fc.constant(null), fc.integer(), fc.boolean()), { maxKeys: 5 });
const rowNames = fc.constantFrom('item', 'pair', 'team', 'player', 'tag', 'squad', 'member', 'loose', 'event', 'x');
const collections = fc.constantFrom('items', 'pairList', 'teams', 'players', 'tags', 'squads', 'members', 'xs');

const xmlText = (text: unknown) =>
  String(text).replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]};`);
const xmlRow = fc
  .tuple(rowNames, row, fc.array(fc.tuple(rowNames, row), { maxLength: 2 }))
  .map(([element, values, children]) => {
    const attributes = (v: Record<string, unknown>) =>
      Object.entries(v)
        .filter(([k, x]) => /^[A-Za-z_][\w.-]*$/.test(k) && x !== null)
        .map(([k, x]) => ` ${k}="${xmlText(x)}"`)
        .join('');
    const inner = children.map(([c, v]) => `<${c}${attributes(v)}/>`).join('');
    return `<${element}${attributes(values)}>${inner}</${element}>`;
  });

const body = fc.oneof(
  fc
    .array(xmlRow, { maxLength: 3 })
    .map((rows) => ({ type: 'application/xml', text: `<request>${rows.join('')}</request>` })),
  fc
    .tuple(
      collections,
      fc.array(row, { maxLength: 3 }),
      fc.option(fc.tuple(collections, fc.array(row, { maxLength: 2 }))),
    )
    .map(([key, rows, nested]) => ({
      type: 'application/json',
      text: JSON.stringify({ [key]: rows.map((r) => (nested ? { ...r, [nested[0]]: nested[1] } : r)) }),
    })),
  row.map((r) => ({
    type: 'application/x-www-form-urlencoded',
    text: Object.entries(r)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('&'),
  })),
  fc
    .tuple(
      fc.constantFrom('application/xml', 'application/json', 'application/x-www-form-urlencoded', 'text/plain'),
      fc.string({ maxLength: 60 }),
    )
    .map(([type, text]) => ({ type, text })),
  fc.json({ maxDepth: 3 }).map((text) => ({ type: 'application/json', text })),
);

const accept = fc.constantFrom(
  undefined,
  'application/json',
  'application/xml',
  'text/html',
  '*/*',
  'application/problem+json',
  'text/csv',
  'application/json;q=0',
);

/** Anything at all: most of it is refused, which is the point. */
const hostile = fc
  .tuple(
    fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
    path,
    query,
    fc.option(body),
    accept,
    fc.option(fc.constantFrom('PUT', 'DELETE', 'GET', 'x')),
  )
  .map(
    ([method, p, q, b, a, override]): Call => ({
      method,
      path: p,
      query: q,
      headers: {
        ...(a ? { accept: a } : {}),
        ...(b ? { 'content-type': b.type } : {}),
        ...(override ? { 'x-http-method-override': override } : {}),
      },
      body: b?.text,
    }),
  );

type Kind = 'int' | 'dec' | 'float' | 'bool' | 'date' | 'time' | 'stamp' | 'bytes' | 'text';

/** The resources' real labels with their kinds, row and collection names: requests that get past parsing. */
const shapes: readonly { name: string; row: string; rows: string; key: string[]; fields: Record<string, Kind> }[] = [
  {
    name: 'Item',
    row: 'item',
    rows: 'items',
    key: ['id'],
    fields: {
      id: 'int',
      name: 'text',
      price: 'dec',
      qty: 'int',
      big: 'int',
      ratio: 'float',
      active: 'bool',
      born: 'date',
      at_time: 'time',
      stamp: 'stamp',
      data: 'bytes',
      note: 'text',
      color: 'text',
      tag: 'text',
    },
  },
  {
    name: 'Pair',
    row: 'pair',
    rows: 'pairList',
    key: ['code', 'num'],
    fields: { code: 'text', num: 'int', label: 'text' },
  },
  { name: 'Loose', row: 'loose', rows: 'looses', key: [], fields: { word: 'text', n: 'int' } },
  {
    name: 'Events',
    row: 'event',
    rows: 'events',
    key: [],
    fields: { happened_at: 'stamp', level: 'text', message: 'text' },
  },
  {
    name: 'PlayerTeam',
    row: 'player',
    rows: 'players',
    key: ['pid'],
    fields: { pid: 'int', name: 'text', shirt: 'int', team_id: 'int' },
  },
  { name: 'shop.Widget', row: 'widget', rows: 'widgets', key: ['id'], fields: { id: 'int', title: 'text' } },
];

const plausible: Readonly<Record<Kind, fc.Arbitrary<string>>> = {
  int: fc.oneof(
    fc.integer({ min: -5, max: 120 }).map(String),
    fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  ),
  dec: fc.oneof(
    fc.integer({ min: 0, max: 99999 }).map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`),
    fc.constantFrom('1e2', '1.5e-1', '0.001', '99999999', '-1', '1.234'),
  ),
  float: fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  bool: fc.constantFrom('true', 'false', '1', '0', 'TRUE', 'maybe'),
  date: fc.constantFrom('2024-02-29', '2023-02-29', '1999-12-31', '0001-01-01', '9999-12-31', '2024-13-01'),
  time: fc.constantFrom('08:30', '23:59:59.999999', '24:00', '24:00:01', '12:60'),
  stamp: fc.constantFrom(
    '2024-01-01 10:00',
    '2024-01-01T10:00:00.5',
    '2024-01-01',
    '2024-01-01 10:00Z',
    '2024-01-01 25:00',
  ),
  bytes: fc.constantFrom('AP8Q', '', 'AA==', 'A', '===='),
  text: fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.constantFrom('apple', 'banana', 'ABC', 'x'.repeat(100)),
  ),
};

const filterValue = (kind: Kind) =>
  fc
    .tuple(fc.constantFrom('', '', '', '!', '<', '<=', '>', '>=', '\\'), plausible[kind], fc.boolean())
    .map(([op, v, like]) => (op === '' && like ? `${v}%` : `${op}${v}`));

const known = fc.constantFrom(...shapes).chain((shape) => {
  const labelOf = fc.constantFrom(...Object.keys(shape.fields));
  const filters = fc.array(
    labelOf.chain((l) => filterValue(shape.fields[l] as Kind).map((v) => `${l}=${encodeURIComponent(v)}`)),
    { maxLength: 3 },
  );
  const values = fc
    .dictionary(labelOf, fc.constant(null), { maxKeys: 4 })
    .chain((picked) =>
      fc.record(
        Object.fromEntries(
          Object.keys(picked).map((l) => [l, fc.oneof(plausible[shape.fields[l] as Kind], fc.constant('null'))]),
        ),
      ),
    );
  const keyPath = fc
    .tuple(...shape.key.map((k) => plausible[shape.fields[k] as Kind]))
    .map((parts) => (parts.length ? `/${parts.map((p) => encodeURIComponent(p)).join('/')}` : ''));
  const form = values.map((v) => ({
    type: 'application/x-www-form-urlencoded',
    text: Object.entries(v)
      .map(([k, x]) => `${k}=${encodeURIComponent(x)}`)
      .join('&'),
  }));
  const json = fc.array(values, { minLength: 1, maxLength: 3 }).map((rows) => ({
    type: 'application/json',
    text: JSON.stringify({
      [shape.rows]: rows.map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, x]) => [k, x === 'null' ? null : x])),
      ),
    }),
  }));
  const xml = fc.array(values, { minLength: 1, maxLength: 3 }).map((rows) => ({
    type: 'application/xml',
    text: `<request>${rows
      .map(
        (r) =>
          `<${shape.row}${Object.entries(r)
            .map(([k, x]) => ` ${k}="${xmlText(x)}"`)
            .join('')}/>`,
      )
      .join('')}</request>`,
  }));
  return fc.oneof(
    fc.tuple(filters, fc.option(fc.integer({ min: 0, max: 5 }))).map(
      ([f, limit]): Call => ({
        method: 'GET',
        path: `/res/${shape.name}`,
        query: [...f, ...(limit === null ? [] : [`_limit=${limit}`])].join('&'),
      }),
    ),
    keyPath.map((k): Call => ({ method: 'GET', path: `/res/${shape.name}${k}` })),
    fc.tuple(form, fc.oneof(json, xml)).chain(([f, structured]) =>
      fc.constantFrom<Call>(
        { method: 'POST', path: `/res/${shape.name}`, headers: { 'content-type': f.type }, body: f.text },
        {
          method: 'POST',
          path: `/res/${shape.name}`,
          headers: { 'content-type': structured.type },
          body: structured.text,
        },
        {
          method: 'PUT',
          path: `/res/${shape.name}`,
          headers: { 'content-type': structured.type },
          body: structured.text,
        },
        {
          method: 'DELETE',
          path: `/res/${shape.name}`,
          headers: { 'content-type': structured.type },
          body: structured.text,
        },
      ),
    ),
    fc.tuple(keyPath, form).map(
      ([k, f]): Call => ({
        method: 'PUT',
        path: `/res/${shape.name}${k}`,
        headers: { 'content-type': f.type },
        body: f.text,
      }),
    ),
    fc.tuple(filters, form).map(
      ([q, f]): Call => ({
        method: 'PUT',
        path: `/res/${shape.name}`,
        query: q.join('&'),
        headers: { 'content-type': f.type },
        body: f.text,
      }),
    ),
    fc
      .tuple(filters, keyPath)
      .map(
        ([q, k]): Call =>
          q.length > 0
            ? { method: 'DELETE', path: `/res/${shape.name}`, query: q.join('&') }
            : { method: 'DELETE', path: `/res/${shape.name}${k}` },
      ),
  );
});

const request = fc.oneof({ weight: 2, arbitrary: known }, { weight: 1, arbitrary: hostile });

/** The regression cases: each failed (a 500) before its fix. */
const regressions: Call[] = [
  { method: 'GET', path: `/res/${'x'.repeat(300)}` },
  { method: 'GET', path: `/conf/metadata/${'x'.repeat(300)}` },
  { method: 'GET', path: '/res/Item', query: 'note=%25%5C' },
  { method: 'GET', path: '/res/Item', query: 'stamp=2024-01-01%2010:00%2B99' },
  {
    method: 'PUT',
    path: '/res/Item/1',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'stamp=2024-01-01 10:00%2B99',
  },
  {
    method: 'POST',
    path: '/res/Item',
    headers: { 'content-type': 'application/json' },
    body: '{"items":[{"name":"e","price":"1e-999999"}]}',
  },
  {
    method: 'POST',
    path: '/res/Item',
    headers: { 'content-type': 'application/xml' },
    body: '<!DOCTYPE r [<!ENTITY a "x">]><request><item name="&a;"/></request>',
  },
];

describe.each(targets().filter((t) => t.name === 'pglite'))('fuzzing the handlers on $name', (target) => {
  const fx = useFixture(target);

  /** Every row of every table, in a stable order: what a refused write must leave as it was. */
  const snapshot = async () => {
    const tables = [
      'item',
      'item_ext',
      'pair',
      'loose',
      'widget',
      'event_log',
      'team',
      'team_ext',
      'player',
      'player_ext',
      'tag',
      'tag_ext',
      'team_tag',
      'fan',
    ];
    const parts = await Promise.all(tables.map((t) => fx.db.exec(`SELECT * FROM ${t} ORDER BY 1`)));
    return JSON.stringify(parts, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));
  };

  it(`answers ${runs} generated requests and the regression cases without a 5xx, and refused writes change nothing`, async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      await fc.assert(
        fc.asyncProperty(request, async (call) => {
          const write = call.method !== 'GET';
          const before = write ? await snapshot() : '';
          const reply = await invoke(call);
          if (reply.status >= 500) throw new Error(`${reply.status}: ${reply.body}`);
          if (write && reply.status >= 400 && (await snapshot()) !== before) {
            throw new Error(`a refused write (${reply.status}: ${reply.body}) changed rows`);
          }
        }),
        { seed, numRuns: runs, examples: regressions.map((call) => [call]), endOnFailure: true },
      );
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    expect(rejections).toEqual([]);
  }, 120_000);
});
