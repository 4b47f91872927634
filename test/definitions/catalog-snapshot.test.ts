/**
 * Table tests of the catalog snapshot's format (lib/definitions/catalog-snapshot.ts): what a container accepts as
 * a snapshot, which entry answers for a definition, the tables a fingerprint covers, and the fingerprint
 * statement's parameters. Pure: no database (test/integration/catalog-snapshot.test.ts runs them on real ones).
 */
import type { QueryCatalog } from '../../lib/db/database';
import { engineNamed } from '../../lib/db/engines/registry';
import {
  type CatalogSnapshot,
  type CatalogTarget,
  definitionDigest,
  parseSnapshot,
  serializeSnapshot,
  snapshotEntry,
  tablesOf,
} from '../../lib/definitions/catalog-snapshot';
import type { EngineName } from '../../lib/resource';

const xml = '<sqlResource><query>select id from item</query></sqlResource>';
const catalog: QueryCatalog = {
  columns: [
    { label: 'id', schema: 'public', table: 'item', column: 'id', dbType: 'integer', type: 'integer' },
    { label: 'n', schema: null, table: null, column: null, dbType: 'bigint', type: 'integer' },
    { label: 'maker', schema: 'public', table: 'maker', column: 'name', dbType: 'text', type: 'string' },
  ],
  tables: {
    item: { schema: 'public', table: 'item', columns: [], primaryKey: ['id'], foreignKeys: [], uniqueKeys: [] },
    gone: null,
  },
};

function snapshot(engine: EngineName, database = 'shop'): CatalogSnapshot {
  const text = serializeSnapshot(
    { '': { dialect: engine, database, tables: tablesOf([catalog]), fingerprint: 'f'.repeat(64) } },
    { Item: { database: '', definition: definitionDigest(xml), catalog } },
    new Date('2026-11-23T00:00:00Z'),
  );
  return parseSnapshot(text) as CatalogSnapshot;
}

describe('parseSnapshot', () => {
  const good = serializeSnapshot({}, {});
  it.each([
    ['not JSON', '{"format":', /^it is not JSON/],
    [
      'the format before defaults and unique keys',
      '{"format":1,"databases":{},"resources":{}}',
      /not a catalog snapshot of format 2/,
    ],
    ['a later format', '{"format":3,"databases":{},"resources":{}}', /not a catalog snapshot of format 2/],
    ['null', 'null', /not a catalog snapshot of format 2/],
    ['no resources', '{"format":2,"databases":{}}', /no databases or no resources/],
    [
      'an entry for an unknown database',
      '{"format":2,"databases":{},"resources":{"Item":{"database":"x","definition":"d","catalog":{"columns":[]}}}}',
      /entry for resource Item is broken/,
    ],
    [
      'a database without fingerprint',
      '{"format":2,"databases":{"":{"dialect":"postgres","tables":[]}},"resources":{}}',
      /entry for database \(default\) is broken/,
    ],
  ])('refuses %s, saying what is wrong', (_name, text, problem) => {
    const parsed = parseSnapshot(text);
    expect(parsed).toEqual({ problem: expect.stringMatching(problem) });
  });

  it('reads back what serializeSnapshot wrote', () => {
    expect(parseSnapshot(good)).toEqual({ format: 2, written: expect.any(String), databases: {}, resources: {} });
    expect(snapshot('postgres').resources.Item?.catalog).toEqual(catalog);
  });
});

describe('snapshotEntry', () => {
  const target = (extra: Partial<CatalogTarget> = {}): CatalogTarget => ({
    database: '',
    engine: 'postgres',
    databaseName: 'shop',
    ...extra,
  });
  it.each<[string, EngineName, string, string, CatalogTarget, boolean]>([
    ['the same file on the same database', 'postgres', 'Item', xml, target(), true],
    ['PostgreSQL: another database of the same shape', 'postgres', 'Item', xml, target({ databaseName: 'prod' }), true],
    ['MySQL: the same database name', 'mysql', 'Item', xml, target({ engine: 'mysql' }), true],
    ['MySQL: another database name', 'mysql', 'Item', xml, target({ engine: 'mysql', databaseName: 'prod' }), false],
    ['an edited definition', 'postgres', 'Item', `${xml} `, target(), false],
    ['another engine', 'postgres', 'Item', xml, target({ engine: 'mysql' }), false],
    ['another <database>', 'postgres', 'Item', xml, target({ database: 'other' }), false],
    ['a resource it does not hold', 'postgres', 'Other', xml, target(), false],
    ['a name of Object.prototype', 'postgres', 'constructor', xml, target(), false],
  ])('%s (%s)', (_case, engine, name, text, at, found) => {
    expect(snapshotEntry(snapshot(engine), name, text, at) !== undefined).toBe(found);
  });
});

describe('tablesOf', () => {
  it('names each table once, sorted: the declared ones and those the columns come from', () => {
    expect(tablesOf([catalog, catalog])).toEqual([
      { schema: 'public', table: 'item' },
      { schema: 'public', table: 'maker' },
    ]);
  });
});

describe("each engine's fingerprint statement", () => {
  const tables = [
    { schema: 'public', table: 'item' },
    { schema: 'shop', table: 'maker' },
  ];
  it('binds each table as a schema and a name (PostgreSQL: once)', () => {
    const statement = engineNamed('postgres').fingerprint(tables);
    expect(statement.params).toEqual(['public', 'item', 'shop', 'maker']);
    expect(statement.text).toContain('($1::text, $2::text), ($3::text, $4::text)');
  });
  it('binds each table as a schema and a name (MySQL: once per part of the union)', () => {
    const statement = engineNamed('mysql').fingerprint(tables);
    expect(statement.params).toEqual(['public', 'item', 'shop', 'maker', 'public', 'item', 'shop', 'maker']);
    expect(statement.text.split('?')).toHaveLength(9);
  });
});
