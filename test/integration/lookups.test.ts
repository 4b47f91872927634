/**
 * Reads never depend on write links (D4), through the real handlers on every database: a flat resource whose
 * extension its Parent looks up many-to-one (read-only through it), an extension and a Child with no link the
 * catalog shows. All serve reads and paging; only the writes that need a missing link, or that would change a
 * looked-up row, are a 400 saying why, and nothing is written.
 */
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke } from '../support/service';

const form = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
const json = { 'content-type': 'application/json', accept: 'application/json' };

async function read(path: string, query = '') {
  const reply = await invoke({ method: 'GET', path, query: query ? `${query}&_output=json` : '_output=json' });
  expect(reply.status).toBe(200);
  return JSON.parse(reply.body);
}

async function call(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const reply = await invoke({ method, path, headers: { accept: 'application/json', ...headers }, body });
  return { status: reply.status, body: reply.status === 200 ? JSON.parse(reply.body) : reply.body };
}

describe.each(targets())('lookups and missing links on $name', (target) => {
  const fx = useFixture(target);

  it('a many-to-one lookup serves reads, filters and paging', async () => {
    expect(await read('/res/PlayerTeam', '_limit=2&_offset=1')).toEqual({
      players: [
        { pid: 2, name: 'Ben', shirt: 9, team_id: 1, team_name: 'Ants' },
        { pid: 3, name: 'Cy', shirt: 10, team_id: 1, team_name: 'Ants' },
      ],
    });
    expect((await read('/res/PlayerTeam', 'team_name=Bees')).players.map((p: { pid: number }) => p.pid)).toEqual([4]);
  });

  it('its Parent fields are written; the insert echoes the looked-up row as a read would', async () => {
    const created = await call('POST', '/res/PlayerTeam', form, 'name=Eve&shirt=5&team_id=2');
    expect(created).toEqual({
      status: 200,
      body: { rowsAffected: 1, players: [{ pid: 101, name: 'Eve', shirt: 5, team_id: 2, team_name: 'Bees' }] },
    });
    expect(await call('PUT', '/res/PlayerTeam/101', form, 'shirt=6&team_id=3')).toEqual({
      status: 200,
      body: { rowsAffected: 1 },
    });
    expect(await read('/res/PlayerTeam/101')).toEqual({
      players: [{ pid: 101, name: 'Eve', shirt: 6, team_id: 3, team_name: 'Crows' }],
    });
    expect(await call('DELETE', '/res/PlayerTeam/101')).toEqual({ status: 200, body: { rowsAffected: 1 } });
    expect(await fx.count('team')).toBe(3);
  });

  it.each([
    ['POST', '/res/PlayerTeam', 'name=Eve&team_id=2&team_name=Wasps'],
    ['PUT', '/res/PlayerTeam/4', 'team_name=Wasps'],
  ])('%s %s of a looked-up field is a 400 that says why', async (method, path, body) => {
    expect(await call(method, path, form, body)).toEqual({
      status: 400,
      body:
        'Field team_name of resource PlayerTeam is read-only: it belongs to team, which player looks up many-to-one ' +
        '(player.team_id → team.team_id); change it through a resource of team',
    });
    expect(await fx.count('team', "name = 'Wasps'")).toBe(0);
    expect(await fx.count('player')).toBe(4);
  });

  it('/conf/metadata shows the lookup', async () => {
    const meta = JSON.parse(
      (await invoke({ method: 'GET', path: '/conf/metadata/PlayerTeam', query: '_output=json' })).body,
    );
    expect(meta.tables[1]).toMatchObject({
      name: 'team',
      role: 'ParentExtension',
      links: [],
      lookup: { owner: 'player', columns: ['team_id'], references: ['team_id'] },
    });
  });

  it('the OpenAPI document marks looked-up fields read-only and leaves them out of form bodies', async () => {
    const doc = JSON.parse((await invoke({ method: 'GET', path: '/openapi.json' })).body);
    const row = doc.components.schemas['PlayerTeam.Row'].properties;
    expect(row.team_name).toMatchObject({ readOnly: true, description: expect.stringMatching(/player looks up team/) });
    expect(row.name.readOnly).toBeUndefined();
    expect(Object.keys(doc.components.schemas['PlayerTeam.Form'].properties)).toEqual([
      'pid',
      'name',
      'shirt',
      'team_id',
    ]);
  });

  const unlinkedExtension =
    'table team_ext (ParentExtension) has no foreign key to player (player_id), and no columns named like that key';

  it('an extension without a link serves reads and Parent updates; writes that need the link are a 400', async () => {
    expect((await read('/res/PlayerMotto', 'pid=(1,4)')).players).toEqual([
      { pid: 1, name: 'Ada', motto: 'small but many' },
      { pid: 4, name: 'Di', motto: null },
    ]);
    expect(await call('PUT', '/res/PlayerMotto/4', form, 'name=Dee')).toEqual({
      status: 200,
      body: { rowsAffected: 1 },
    });
    expect(await call('PUT', '/res/PlayerMotto/4', form, 'motto=go')).toEqual({
      status: 400,
      body: `Resource PlayerMotto cannot write field motto: ${unlinkedExtension}`,
    });
    expect(await call('DELETE', '/res/PlayerMotto/4')).toEqual({
      status: 400,
      body: `Resource PlayerMotto cannot delete player rows: ${unlinkedExtension}`,
    });
    expect(await fx.count('player')).toBe(4);
  });

  it('a Child without a link serves hierarchical reads; child writes and parent deletes are a 400', async () => {
    expect(await read('/res/TeamByWeight')).toEqual({
      teams: [
        { team_no: 1, team_name: 'Ants', tags: [{ tid: 2, label: 'loud' }] },
        { team_no: 2, team_name: 'Bees', tags: [] },
        { team_no: 3, team_name: 'Crows', tags: [{ tid: 1, label: 'fast' }] },
      ],
    });
    const unlinked = 'table tag (Child) has no foreign key to team (team_id), and no columns named like that key';
    expect(await call('POST', '/res/TeamByWeight/1', json, '{"tags":[{"label":"new"}]}')).toEqual({
      status: 400,
      body: `Resource TeamByWeight cannot insert tag rows: ${unlinked}`,
    });
    expect(await call('DELETE', '/res/TeamByWeight/2')).toEqual({
      status: 400,
      body: `Resource TeamByWeight cannot delete team rows: ${unlinked}`,
    });
    expect(await call('PUT', '/res/TeamByWeight/2', form, 'team_name=Bumblebees')).toEqual({
      status: 200,
      body: { rowsAffected: 1 },
    });
    expect(await fx.count('tag')).toBe(3);
    expect(await fx.count('team')).toBe(3);
  });
});
