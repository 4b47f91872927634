/**
 * Bulk writes through the real handlers, on every database: a POST of many rows is inserted with multi-row
 * INSERTs and still echoes every row as stored, in order, with its generated key and its extension fields; a
 * hierarchical one puts each child under its own new parent; a late unique violation is a 409 naming the field with nothing
 * written. Then insertRows on each way a server may read inserted rows back (RETURNING, the insert id counted
 * on, one by one), forced on the real server, since one server shows only one of them.
 */
import type { Database } from '../../lib/db/database';
import { insertRowsAs } from '../../lib/execute/insert-rows';
import type { ColumnValues } from '../../lib/plan/plan';
import type { ResourceTable, SqlResource } from '../../lib/resource';
import type { ServerInserts } from '../../lib/sql-shape';
import { connectTo } from '../support/connect';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke } from '../support/service';

const json = { 'content-type': 'application/json', accept: 'application/json' };
type Row = Record<string, unknown>;

async function post(path: string, body: unknown) {
  const reply = await invoke({ method: 'POST', path, headers: json, body: JSON.stringify(body) });
  return { status: reply.status, body: reply.body, json: () => JSON.parse(reply.body) as Row };
}

async function readAll(path: string, key: string): Promise<Row[]> {
  const reply = await invoke({ method: 'GET', path, query: '_output=json' });
  expect(reply.status).toBe(200);
  return JSON.parse(reply.body)[key];
}

describe.each(targets())('bulk writes on $name', (target) => {
  const fx = useFixture(target);

  it('C2 of 1,500 rows echoes each row as stored, in order, with its own generated id and extension fields', async () => {
    const items = Array.from({ length: 1500 }, (_, i) => ({
      name: `bulk-${i}`,
      ...(i % 3 === 0 ? { price: `${i}.25` } : {}),
      ...(i % 2 === 0 ? { color: 'teal' } : {}),
      note: `it's row ${i}`,
    }));
    const reply = await post('/res/Item', { items });
    expect(reply.status).toBe(200);
    const { rowsAffected, items: echoed } = reply.json() as { rowsAffected: number; items: Row[] };
    expect(rowsAffected).toBe(1500 + 750);
    expect(echoed.map((r) => r.name)).toEqual(items.map((r) => r.name));
    expect(new Set(echoed.map((r) => r.id)).size).toBe(1500);
    // a row that gives no price takes the column's default, 0, not NULL
    expect(echoed[1]).toMatchObject({ name: 'bulk-1', price: 0, color: null, note: "it's row 1" });
    expect(echoed[3]).toMatchObject({ name: 'bulk-3', price: 3.25, color: null });
    expect(echoed[4]).toMatchObject({ name: 'bulk-4', price: 0, color: 'teal' });
    const stored = new Map((await readAll('/res/Item', 'items')).map((r) => [r.id, r]));
    for (const row of echoed) {
      const { double_price: _computed, ...read } = stored.get(row.id) as Row;
      expect(row).toEqual(read);
    }
    expect(await fx.count('item_ext', "color = 'teal'")).toBe(750);
  });

  it('C2 whose row 1,200 of 1,300 repeats a name is a 409 naming the field, and writes nothing', async () => {
    const items = Array.from({ length: 1300 }, (_, i) => ({ name: i === 1199 ? 'bulk-7' : `bulk-${i}`, color: 'red' }));
    const reply = await post('/res/Item', { items });
    expect(reply.status).toBe(409);
    expect(reply.body).toMatch(/name/);
    expect(await fx.count('item')).toBe(4);
    expect(await fx.count('item_ext')).toBe(2);
  });

  const xmlRows = (rows: string[]) => `<request>${rows.join('')}</request>`;
  const postXml = (body: string) =>
    invoke({ method: 'POST', path: '/res/Item', headers: { 'content-type': 'application/xml' }, body });

  it('C2 of 2,000 XML rows whose row 1,990 has a price that is no number is a 400 naming it, and writes nothing', async () => {
    const rows = Array.from(
      { length: 2000 },
      (_, i) => `<item name="late-${i}" price="${i === 1989 ? 'lots' : '1.00'}"/>`,
    );
    const reply = await postXml(xmlRows(rows));
    expect(reply.status).toBe(400);
    expect(reply.body).toBe('Could not convert price value "lots" to number');
    expect(await fx.count('item')).toBe(4);
  });

  it('every row of 2,000 is read before any is planned: an element in row 1,900 is reported before a bad value in row 100', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) =>
      i === 99 ? '<item name="x" price="lots"/>' : i === 1899 ? '<item name="y"><x/></item>' : `<item name="r-${i}"/>`,
    );
    const reply = await postXml(xmlRows(rows));
    expect(reply.status).toBe(400);
    expect(reply.body).toBe('The XML body has an element x inside item; no elements are allowed there');
    expect(await fx.count('item')).toBe(4);
  });

  it('U1 of 1,200 rows: each row its own values, in order, a repeated key updated twice, a missing one not', async () => {
    const created = await post('/res/Item', { items: Array.from({ length: 1200 }, (_, i) => ({ name: `u-${i}` })) });
    const ids = (created.json().items as Row[]).map((r) => r.id as number);
    const items: Row[] = ids.map((id, i) => ({ id, qty: i % 1000, note: `changed ${i}` }));
    items[500] = { id: ids[500], color: 'blue' }; // an extension field: a row of its own
    items[20] = { id: ids[10], qty: 999, note: 'again' }; // row 10 once more, after its first update
    items[700] = { id: 999_999, qty: 1, note: 'nobody' };
    items[800] = { id: ids[800], price: '2.00' }; // other columns: a statement of its own
    const reply = await invoke({ method: 'PUT', path: '/res/Item', headers: json, body: JSON.stringify({ items }) });
    expect(reply.body).toBe('{"rowsAffected":1199}');
    const stored = new Map((await readAll('/res/Item', 'items')).map((r) => [r.id, r]));
    for (const [i, id] of ids.entries()) {
      const row = stored.get(id) as Row;
      if (i === 10) expect(row).toMatchObject({ qty: 999, note: 'again' });
      else if (i === 500) expect(row).toMatchObject({ qty: null, note: null, color: 'blue' });
      else if (i === 800) expect(row).toMatchObject({ qty: null, price: 2 });
      else if (i === 20 || i === 700) expect(row).toMatchObject({ qty: null, note: null });
      else expect(row).toMatchObject({ qty: i % 1000, note: `changed ${i}`, price: 0 });
    }
    expect(stored.has(999_999)).toBe(false);
  });

  it('D1 of 1,200 rows deletes them with their extension rows and counts both', async () => {
    const items = Array.from({ length: 1200 }, (_, i) => ({ name: `d-${i}`, ...(i % 4 === 0 ? { tag: 't' } : {}) }));
    const ids = ((await post('/res/Item', { items })).json().items as Row[]).map((r) => ({ id: r.id }));
    const reply = await invoke({
      method: 'DELETE',
      path: '/res/Item',
      headers: json,
      body: JSON.stringify({ items: ids }),
    });
    expect(JSON.parse(reply.body)).toEqual({ rowsAffected: 1500 });
    expect(await fx.count('item')).toBe(4);
    expect(await fx.count('item_ext')).toBe(2);
  });

  it('hierarchical C2 of 400 new teams puts each team’s players under that team', async () => {
    const teams = Array.from({ length: 400 }, (_, i) => ({
      team_name: `team-${i}`,
      ...(i % 2 === 0 ? { motto: `motto ${i}` } : {}),
      players: Array.from({ length: i % 4 }, (_, j) => ({
        player_name: `p-${i}-${j}`,
        shirt: j,
        ...(j === 1 ? { nickname: `nick ${i}` } : {}),
      })),
    }));
    const reply = await post('/res/TeamPlayers', { teams });
    expect(reply.status).toBe(200);
    const body = reply.json() as { rowsAffected: number; teams: Row[] };
    const playerCount = teams.reduce((n, t) => n + t.players.length, 0);
    const nicknames = teams.filter((t) => t.players.length > 1).length;
    expect(body.rowsAffected).toBe(400 + 200 + playerCount + nicknames);
    const stored = new Map((await readAll('/res/TeamPlayers', 'teams')).map((t) => [t.team_no, t]));
    for (const [i, team] of body.teams.entries()) {
      expect(team.team_name).toBe(`team-${i}`);
      const players = team.players as Row[];
      expect(players.map((p) => p.player_name)).toEqual(teams[i]?.players.map((p) => p.player_name));
      const read = stored.get(team.team_no) as Row;
      expect(read.motto ?? null).toBe(i % 2 === 0 ? `motto ${i}` : null);
      const readPlayers = new Map(((read.players as Row[] | undefined) ?? []).map((p) => [p.pid, p]));
      for (const player of players) expect(readPlayers.get(player.pid)).toEqual(player);
    }
  });

  it('hierarchical C2 of teams with many-to-many tags adds one association per tag', async () => {
    const teams = Array.from({ length: 50 }, (_, i) => ({
      team_name: `tt-${i}`,
      tags: [{ tid: 1 }, { tid: 2, since: i }],
    }));
    const reply = await post('/res/TeamTags', { teams });
    expect(reply.status).toBe(200);
    const body = reply.json() as { rowsAffected: number; teams: Row[] };
    expect(body.rowsAffected).toBe(150);
    expect(body.teams[7]?.tags).toEqual([
      expect.objectContaining({ tid: 1, since: 0 }),
      expect.objectContaining({ tid: 2, since: 7 }),
    ]);
    expect(await fx.count('team_tag', 'since = 7')).toBe(1);
  });
});

/** The item table of the fixture, as the catalog describes it, and a resource that only names its database. */
const item: ResourceTable = {
  name: 'item',
  schema: 'public',
  table: 'item',
  role: 'Parent',
  primaryKey: ['item_id'],
  generatedColumns: ['item_id'],
  uniqueKeys: [],
  links: [],
};
const pair: ResourceTable = { ...item, name: 'pair', table: 'pair', primaryKey: ['code', 'num'], generatedColumns: [] };

describe.each(targets())('insertRows, each way of reading rows back, on $name', (target) => {
  const fx = useFixture(target);
  let db: Database;
  const resource = { engine: target.engine } as SqlResource;
  const at = (table: ResourceTable): ResourceTable =>
    target.engine === 'mysql' ? { ...table, schema: new URL(fx.db.url).pathname.slice(1) } : table;

  beforeAll(async () => {
    const options = { connectTimeoutMs: 3000, statementTimeoutMs: 10000, poolSize: 1, idleTimeoutS: 300 };
    db = await connectTo(fx.db.url, options);
  });
  afterAll(() => db?.close());

  // PostgreSQL always returns; a MySQL-family server may take any of the three (MariaDB 10.11 takes all)
  const ways: [string, ServerInserts][] = [
    ['RETURNING', { returning: true }],
    ['one by one', { returning: false }],
    ...(target.engine === 'mysql'
      ? ([['the insert id counted on', { returning: false, idStep: 1 }]] as [string, ServerInserts][])
      : []),
  ];

  it.each(ways)('%s: rows with and without their key, in order, as stored', async (_way, server) => {
    const rows: ColumnValues[] = [
      { name: 'w1', price: '1.50' },
      { name: 'w2' },
      { item_id: 500n, name: 'w500' },
      { name: 'w3', note: 'x' },
    ];
    const stored = await db.transaction((tx) => insertRowsAs(server, tx, resource, at(item), rows));
    expect(stored.map((r) => r.name)).toEqual(['w1', 'w2', 'w500', 'w3']);
    expect(stored.map((r) => String(r.price))).toEqual(['1.50', '0.00', '0.00', '0.00']);
    expect(String(stored[2]?.item_id)).toBe('500');
    const ids = stored.map((r) => Number(r.item_id));
    for (const [i, row] of stored.entries()) {
      const [read] = await fx.db.exec(`SELECT name FROM item WHERE item_id = ${ids[i]}`);
      expect(read?.name).toBe(row.name);
    }
  });

  it.each(ways)('%s: a compound key given by every row', async (_way, server) => {
    const rows: ColumnValues[] = [
      { code: 'ZZA', num: 1n, label: 'a' },
      { code: 'ZZB', num: 2n },
    ];
    const stored = await db.transaction((tx) => insertRowsAs(server, tx, resource, at(pair), rows));
    expect(stored.map((r) => [r.code, Number(r.num), r.label])).toEqual([
      ['ZZA', 1, 'a'],
      ['ZZB', 2, null],
    ]);
  });
});
