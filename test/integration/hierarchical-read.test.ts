/**
 * R1 and R2 on hierarchical resources, on every database: children nested in their parent (XML elements, JSON
 * arrays, [] for a childless parent), extension fields on their row, order, child filters, and the hierarchical
 * _limit rule with the spec's own example (spec 4.2 rules 4-5, D8, D11).
 */
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, parseXml } from '../support/service';

const json = async (path: string, query = '') => {
  const reply = await invoke({ method: 'GET', path, query: query ? `${query}&_output=json` : '_output=json' });
  expect(reply.status).toBe(200);
  return JSON.parse(reply.body);
};

describe.each(targets())('hierarchical reads on $name', (target) => {
  const fx = useFixture(target);

  it('one-to-many in JSON: children under the child collection, [] for a childless parent, extensions on their row', async () => {
    expect(await json('/res/TeamPlayers')).toEqual({
      teams: [
        {
          team_no: 1,
          team_name: 'Ants',
          motto: 'small but many',
          players: [
            { pid: 1, player_name: 'Ada', shirt: 7, nickname: 'the ace' },
            { pid: 2, player_name: 'Ben', shirt: 9, nickname: null },
            { pid: 3, player_name: 'Cy', shirt: 10, nickname: null },
          ],
        },
        {
          team_no: 2,
          team_name: 'Bees',
          motto: null,
          players: [{ pid: 4, player_name: 'Di', shirt: 1, nickname: null }],
        },
        { team_no: 3, team_name: 'Crows', motto: null, players: [] },
      ],
    });
  });

  it('one-to-many in XML: child elements inside the parent element', async () => {
    const reply = await invoke({ method: 'GET', path: '/res/TeamPlayers/2' });
    expect(reply.headers['content-type']).toBe('application/xml');
    expect(parseXml(reply.body)).toEqual({
      '?xml': { version: '1.0', encoding: 'UTF-8' },
      readResponse: {
        team: [{ team_no: '2', team_name: 'Bees', player: [{ pid: '4', player_name: 'Di', shirt: '1' }] }],
      },
    });
    const childless = parseXml((await invoke({ method: 'GET', path: '/res/TeamPlayers/3' })).body);
    expect(childless.readResponse).toEqual({ team: [{ team_no: '3', team_name: 'Crows' }] });
  });

  it('many-to-many: linked children with their extension and association fields', async () => {
    expect(await json('/res/TeamTags', 'team_no=(1,3)')).toEqual({
      teams: [
        {
          team_no: 1,
          team_name: 'Ants',
          tags: [
            { tid: 1, label: 'fast', weight: 3, since: 2001, color: 'red' },
            { tid: 2, label: 'loud', weight: 1, since: 2002, color: null },
          ],
        },
        { team_no: 3, team_name: 'Crows', tags: [] },
      ],
    });
  });

  it('a filter on a child field keeps the parents with a matching child, with only those children (D8)', async () => {
    expect(await json('/res/TeamPlayers', 'shirt=%3E8')).toEqual({
      teams: [
        {
          team_no: 1,
          team_name: 'Ants',
          motto: 'small but many',
          players: [
            { pid: 2, player_name: 'Ben', shirt: 9, nickname: null },
            { pid: 3, player_name: 'Cy', shirt: 10, nickname: null },
          ],
        },
      ],
    });
    expect((await json('/res/TeamTags', 'label=fast')).teams.map((t: { team_no: number }) => t.team_no)).toEqual([
      1, 2,
    ]);
  });

  it('_limit and _offset count joined rows, then regroup (spec 4.2 rule 4)', async () => {
    expect((await json('/res/TeamPlayers', '_limit=2')).teams).toEqual([
      expect.objectContaining({
        team_no: 1,
        players: [expect.objectContaining({ pid: 1 }), expect.objectContaining({ pid: 2 })],
      }),
    ]);
    const page = await json('/res/TeamPlayers', '_limit=2&_offset=2');
    expect(page.teams.map((t: { team_no: number; players: unknown[] }) => [t.team_no, t.players.length])).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it("the spec's example: limit 100 over parents with 0, 44 and 130 children gives 0, 44 and the first 55", async () => {
    for (const table of ['fan', 'team_tag', 'player_ext', 'player', 'team_ext', 'team'])
      await fx.db.exec(`DELETE FROM ${table}`);
    await fx.db.exec("INSERT INTO team (team_id, name) VALUES (10, 'zero'), (20, 'forty-four'), (30, 'one-thirty')");
    const players = [
      ...Array.from({ length: 44 }, (_, i) => `(${1000 + i}, 20, 'p${i}', 1)`),
      ...Array.from({ length: 130 }, (_, i) => `(${2000 + i}, 30, 'q${i}', 1)`),
    ];
    await fx.db.exec(`INSERT INTO player (player_id, team_id, name, shirt) VALUES ${players.join(', ')}`);
    const { teams } = await json('/res/TeamPlayers', '_limit=100');
    expect(teams.map((t: { team_no: number; players: unknown[] }) => [t.team_no, t.players.length])).toEqual([
      [10, 0],
      [20, 44],
      [30, 55],
    ]);
    const third = teams[2].players.map((p: { pid: number }) => p.pid);
    expect(third).toEqual(Array.from({ length: 55 }, (_, i) => 2000 + i));
  });
});
