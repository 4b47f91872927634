/**
 * Change events on every database: every write shape (C1-C3, U1-U4, D1-D4, flat and hierarchical) adds exactly one
 * event per row it committed to the outbox, in its transaction, children and association rows included; a write
 * that fails adds none; an operation the definition does not list, or a definition without <events>, adds none.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CloudEvent } from 'cloudevents';
import { engineNamed } from '../../lib/db/engines/registry';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, testDefinitions, useService } from '../support/service';

type Json = Record<string, unknown>;

const withEvents = (file: string, events: string) =>
  readFileSync(path.join(testDefinitions, file), 'utf8').replace('</query>', `</query>\n  ${events}`);

const definitions: Record<string, string> = {
  Item: withEvents('Item.xml', '<events on="insert update delete" before="true"/>'),
  TeamPlayers: withEvents('TeamPlayers.xml', '<events on="insert update delete"/>'),
  TeamTags: withEvents('TeamTags.xml', '<events on="insert update delete" before="true"/>'),
  ItemInserts: withEvents('Item.xml', '<events on="insert"/>'),
  Quiet: readFileSync(path.join(testDefinitions, 'Item.xml'), 'utf8'),
};

async function write(method: string, resource: string, body?: unknown, query?: string) {
  const form = typeof body === 'string' && !body.startsWith('<');
  const xml = typeof body === 'string' && !form;
  const type = form ? 'application/x-www-form-urlencoded' : xml ? 'application/xml' : 'application/json';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = type;
  const reply = await invoke({
    method,
    path: `/res/${resource}`,
    query,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: reply.status, json: () => JSON.parse(reply.body) as Json, requestId: reply.headers['x-request-id'] };
}

describe.each(targets())('change events on $name', (target) => {
  const fx = useFixture(target);
  let dir: string;

  /** The outbox's events, in order, as CloudEvents. */
  const outbox = async (): Promise<Json[]> =>
    (await fx.db.exec('SELECT event FROM rrs_events ORDER BY seq')).map((row) => JSON.parse(String(row.event)));
  /** What each event says: its type, table, key, parent, and the row after and (when asked) before. */
  const said = async () =>
    (await outbox()).map((event) => {
      const data = event.data as Json;
      return {
        type: event.type,
        subject: event.subject,
        table: data.table,
        key: data.key,
        ...(data.parent ? { parent: data.parent } : {}),
        after: data.after,
        ...('before' in data ? { before: data.before } : {}),
      };
    });

  beforeAll(async () => {
    for (const statement of engineNamed(target.engine).sql.eventTables) await fx.db.exec(statement);
    // the tables are created the way `npm run events:setup` does, which is safe to run again
    for (const statement of engineNamed(target.engine).sql.eventTables) await fx.db.exec(statement);
    dir = mkdtempSync(path.join(os.tmpdir(), 'rrs-events-'));
    for (const [name, xml] of Object.entries(definitions)) writeFileSync(path.join(dir, `${name}.xml`), xml);
    await useService({ DATABASE_URL: fx.db.url, DEFINITIONS_DIR: dir, EVENTS_SOURCE: 'https://api.example.com' });
  });
  beforeEach(async () => {
    await fx.db.exec('DELETE FROM rrs_events');
  });
  afterAll(async () => {
    await useService({ EVENTS_SOURCE: undefined });
    rmSync(dir, { recursive: true, force: true });
  });

  it('C1: one event per row stored, a CloudEvent with the row as the resource shows it', async () => {
    const reply = await write('POST', 'Item', 'name=kiwi&price=1.50&qty=3&color=green');
    expect(reply.json().rowsAffected).toBe(2);
    const [item, ext, ...more] = await outbox();
    expect(more).toEqual([]);
    expect(item).toEqual({
      specversion: '1.0',
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      source: 'https://api.example.com/res/Item',
      type: 'Item.inserted',
      subject: '101',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      datacontenttype: 'application/json',
      data: {
        resource: 'Item',
        table: 'item',
        key: { item_id: 101 },
        after: expect.objectContaining({ id: 101, name: 'kiwi', price: 1.5, qty: 3, note: null }),
        before: null,
        requestId: reply.requestId,
        caller: null,
      },
    });
    expect(Math.abs(Date.parse(String(item?.time)) - Date.now())).toBeLessThan(60_000);
    // a valid CloudEvents 1.0 event, as the specification's own SDK reads it (strict: it throws otherwise)
    for (const event of [item, ext]) expect(new CloudEvent({ ...event }, true).validate()).toBe(true);
    // the extension row names its parent; only the fields the resource shows are carried
    expect(ext?.data).toMatchObject({
      table: 'item_ext',
      key: { item_id: 101 },
      parent: { table: 'item', key: { item_id: 101 } },
      after: { color: 'green', tag: null },
    });
    expect(item?.id).not.toBe(ext?.id);
  });

  it('C2 and C3: parents, children and their extension rows, each naming its parent', async () => {
    const body = { teams: [{ team_name: 'Eels', motto: 'wet', players: [{ player_name: 'Eva', nickname: 'eve' }] }] };
    expect((await write('POST', 'TeamPlayers', body)).json().rowsAffected).toBe(4);
    expect((await write('POST', 'TeamPlayers/2', { players: [{ player_name: 'Dot' }] })).json().rowsAffected).toBe(1);
    expect(await said()).toEqual([
      {
        type: 'TeamPlayers.inserted',
        subject: '101',
        table: 'team',
        key: { team_id: 101 },
        after: { team_no: 101, team_name: 'Eels' },
      },
      {
        type: 'TeamPlayers.inserted',
        subject: '101',
        table: 'team_ext',
        key: { team_id: 101 },
        parent: { table: 'team', key: { team_id: 101 } },
        after: { motto: 'wet' },
      },
      {
        type: 'TeamPlayers.inserted',
        subject: '101',
        table: 'player',
        key: { player_id: 101 },
        parent: { table: 'team', key: { team_id: 101 } },
        after: { pid: 101, player_name: 'Eva', shirt: null },
      },
      {
        type: 'TeamPlayers.inserted',
        subject: '101',
        table: 'player_ext',
        parent: { table: 'player', key: { player_id: 101 } },
        key: { player_id: 101 },
        after: { nickname: 'eve' },
      },
      {
        type: 'TeamPlayers.inserted',
        subject: '102',
        table: 'player',
        key: { player_id: 102 },
        parent: { table: 'team', key: { team_id: 2 } },
        after: { pid: 102, player_name: 'Dot', shirt: null },
      },
    ]);
  });

  it('C2 and C3 many-to-many: new parents and the association rows to existing children', async () => {
    expect((await write('POST', 'TeamTags/3', '<request><tag tid="2"/><tag tid="3"/></request>')).status).toBe(200);
    const events = await said();
    expect(events.map((e) => [e.type, e.table, e.key])).toEqual([
      ['TeamTags.inserted', 'team_tag', { team_id: 3, tag_id: 2 }],
      ['TeamTags.inserted', 'team_tag', { team_id: 3, tag_id: 3 }],
    ]);
    expect(events[0]).toMatchObject({
      parent: { table: 'team', key: { team_id: 3 } },
      after: { since: 0 },
      before: null,
    });
  });

  it('U1, U2 and U3: the row before and after each update', async () => {
    await write('PUT', 'Item', {
      items: [
        { id: 1, qty: 11 },
        { id: 2, qty: 12 },
      ],
    });
    const u1 = await said();
    expect(u1.map((e) => [e.type, e.subject, (e.before as Json).qty, (e.after as Json).qty])).toEqual([
      ['Item.updated', '1', 10, 11],
      ['Item.updated', '2', 0, 12],
    ]);
    await fx.db.exec('DELETE FROM rrs_events');
    // U2: every row the filter matches (prices 1.50, 0.00 and 3.10)
    await write('PUT', 'Item', 'note=cheap', 'price=<15');
    const u2 = (await said()).sort((a, b) => String(a.subject).localeCompare(String(b.subject)));
    expect(u2.map((e) => [e.type, e.subject, (e.before as Json).note, (e.after as Json).note])).toEqual([
      ['Item.updated', '1', 'crisp', 'cheap'],
      ['Item.updated', '2', null, 'cheap'],
      ['Item.updated', '4', 'a_b', 'cheap'],
    ]);
    await fx.db.exec('DELETE FROM rrs_events');
    await write('PUT', 'Item/3', 'color=black&qty=0');
    expect((await said()).map((e) => [e.table, e.subject, e.before, e.after])).toEqual([
      ['item', '3', expect.objectContaining({ qty: 7 }), expect.objectContaining({ qty: 0, price: 20.99 })],
      ['item_ext', '3', { color: 'dark', tag: null }, { color: 'black', tag: null }],
    ]);
    // a row set to the values it has is still a row the update wrote (MySQL counts it as matched)
    await fx.db.exec('DELETE FROM rrs_events');
    expect((await write('PUT', 'Item/3', 'qty=0')).json()).toEqual({ rowsAffected: 1 });
    expect((await said()).map((e) => [e.type, e.subject])).toEqual([['Item.updated', '3']]);
  });

  it('U4: the children and association rows updated, and child extension rows created', async () => {
    await write(
      'PUT',
      'TeamPlayers/1',
      '<request><player pid="1" shirt="70"/><player pid="3" nickname="sea"/></request>',
    );
    await write('PUT', 'TeamTags/1', { tags: [{ tid: 2, weight: 8, since: 1990 }] });
    expect((await said()).map((e) => [e.type, e.table, e.key, e.after])).toEqual([
      ['TeamPlayers.updated', 'player', { player_id: 1 }, { pid: 1, player_name: 'Ada', shirt: 70 }],
      ['TeamPlayers.inserted', 'player_ext', { player_id: 3 }, { nickname: 'sea' }],
      ['TeamTags.updated', 'tag', { tag_id: 2 }, { tid: 2, label: 'loud', weight: 8 }],
      ['TeamTags.updated', 'team_tag', { team_id: 1, tag_id: 2 }, { since: 1990 }],
    ]);
  });

  it('D1, D2, D3 and D4: the rows deleted, children and extension rows first as the write deletes them', async () => {
    await write('DELETE', 'Item', { items: [{ id: 2 }] });
    await write('DELETE', 'Item', undefined, 'name=apple');
    await fx.db.exec('DELETE FROM team_tag WHERE team_id = 2');
    await write('DELETE', 'TeamPlayers/2');
    await write('DELETE', 'TeamTags/1', { tags: [{ tid: 2 }] });
    const events = await said();
    expect(events.map((e) => [e.type, e.table, e.subject, e.after])).toEqual(
      expect.arrayContaining([
        ['Item.deleted', 'item', '2', null],
        ['Item.deleted', 'item_ext', '1', null],
        ['Item.deleted', 'item', '1', null],
        ['TeamPlayers.deleted', 'player', '4', null],
        ['TeamPlayers.deleted', 'team', '2', null],
        ['TeamTags.deleted', 'team_tag', '1,2', null],
      ]),
    );
    expect(events).toHaveLength(6);
    expect(events.find((e) => e.table === 'item' && e.subject === '1')?.before).toMatchObject({ name: 'apple' });
    // TeamPlayers does not ask for the row before
    expect(events.find((e) => e.table === 'team')).not.toHaveProperty('before');
  });

  it('a write that fails announces nothing, nor does an operation not listed or a definition without <events>', async () => {
    expect((await write('POST', 'Item', 'name=apple')).status).toBe(409);
    const late = { teams: [{ team_name: 'Ok', players: [{ player_name: 'Fine' }, { player_name: 'x'.repeat(41) }] }] };
    expect((await write('POST', 'TeamPlayers', late)).status).toBe(400);
    expect((await write('PUT', 'ItemInserts/1', 'qty=2')).status).toBe(200);
    expect((await write('POST', 'Quiet', 'name=quiet')).status).toBe(200);
    expect(await outbox()).toEqual([]);
    expect((await write('POST', 'ItemInserts', 'name=loud')).status).toBe(200);
    expect((await said()).map((e) => e.type)).toEqual(['ItemInserts.inserted']);
  });

  it('a write whose events cannot be written is not written: a 500, and neither the row nor its extension row', async () => {
    await fx.db.exec('DROP TABLE rrs_events');
    try {
      const reply = await write('POST', 'Item', 'name=unannounced&color=blue');
      expect(reply.status).toBe(500);
      expect(await fx.count('item', "name = 'unannounced'")).toBe(0);
      expect(await fx.count('item_ext', "color = 'blue'")).toBe(0);
      expect((await write('PUT', 'Item/1', 'qty=99')).status).toBe(500);
      expect(await fx.count('item', 'qty = 99')).toBe(0);
    } finally {
      for (const statement of engineNamed(target.engine).sql.eventTables) await fx.db.exec(statement);
    }
  });

  it('GET /health/events shows the backlog; an outbox that cannot be read is a 503 that says how to set it up', async () => {
    await write('POST', 'Item', 'name=waiting');
    const health = async () => {
      const reply = await invoke({ method: 'GET', path: '/health/events' });
      return { status: reply.status, body: JSON.parse(reply.body) };
    };
    expect(await health()).toEqual({
      status: 200,
      body: {
        status: 'ok',
        databases: [
          { database: 'DATABASE_URL', status: 'ok', pending: 1, deadLettered: 0, oldestPendingS: expect.any(Number) },
        ],
      },
    });
    await fx.db.exec('DROP TABLE rrs_events');
    try {
      await useService({ EVENTS_SOURCE: 'https://api.example.com' });
      expect(await health()).toMatchObject({
        status: 503,
        body: {
          status: 'failed',
          databases: [
            {
              database: 'DATABASE_URL',
              status: 'failed',
              error: expect.stringMatching(
                /rrs_events.*; create its tables with npm run events:setup -- <database URL>$/,
              ),
            },
          ],
        },
      });
    } finally {
      for (const statement of engineNamed(target.engine).sql.eventTables) await fx.db.exec(statement);
    }
  });
});
