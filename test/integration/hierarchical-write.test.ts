/**
 * Hierarchical writes on every database (spec 4.3-4.5, D14-D17): rowsAffected asserted exactly, every effect
 * verified by a read afterwards, and for each kind of operation a late failure that must leave nothing changed.
 */
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, parseXml } from '../support/service';

const JSON_BODY = { 'content-type': 'application/json' };
const XML_BODY = { 'content-type': 'application/xml' };

type Row = Record<string, unknown>;

async function read(path: string, query = ''): Promise<Row[]> {
  const reply = await invoke({ method: 'GET', path, query: query ? `${query}&_output=json` : '_output=json' });
  expect(reply.status).toBe(200);
  return JSON.parse(reply.body).teams;
}

async function write(method: string, path: string, body?: unknown, query?: string) {
  const reply = await invoke({
    method,
    path,
    query,
    headers: body === undefined ? { accept: 'application/json' } : typeof body === 'string' ? XML_BODY : JSON_BODY,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: reply.status, body: reply.body, json: () => JSON.parse(reply.body) };
}

const players = async (team: number) =>
  ((await read(`/res/TeamPlayers/${team}`))[0]?.players as Row[] | undefined)?.map((p) => p.player_name) ?? [];
const tags = async (team: number) =>
  ((await read(`/res/TeamTags/${team}`))[0]?.tags as Row[] | undefined)?.map((t) => t.label) ?? [];

describe.each(targets())('hierarchical writes on $name', (target) => {
  const fx = useFixture(target);
  const counts = async () =>
    Object.fromEntries(
      await Promise.all(
        ['team', 'team_ext', 'player', 'player_ext', 'tag', 'tag_ext', 'team_tag'].map(
          async (t) => [t, await fx.count(t)] as const,
        ),
      ),
    );
  const initial = { team: 3, team_ext: 1, player: 4, player_ext: 1, tag: 3, tag_ext: 1, team_tag: 3 };

  describe('C2 and C3 (spec 4.3, D15, D17)', () => {
    it('a parent alone, with its extension row', async () => {
      const reply = await write('POST', '/res/TeamPlayers', { teams: [{ team_name: 'Doves', motto: 'coo' }] });
      expect(reply.json()).toEqual({
        rowsAffected: 2,
        teams: [{ team_no: 101, team_name: 'Doves', motto: 'coo', players: [] }],
      });
      expect(await read('/res/TeamPlayers/101')).toEqual([
        { team_no: 101, team_name: 'Doves', motto: 'coo', players: [] },
      ]);
    });

    it('a new parent with its children in one request: generated keys flow from parent to children', async () => {
      const body = {
        teams: [
          {
            team_name: 'Eels',
            players: [{ player_name: 'Eva', shirt: 5, nickname: 'slippery' }, { player_name: 'Eli' }],
          },
        ],
      };
      const reply = await write('POST', '/res/TeamPlayers', body);
      expect(reply.json()).toEqual({
        rowsAffected: 4,
        teams: [
          {
            team_no: 101,
            team_name: 'Eels',
            motto: null,
            players: [
              { pid: 101, player_name: 'Eva', shirt: 5, nickname: 'slippery' },
              { pid: 102, player_name: 'Eli', shirt: null, nickname: null },
            ],
          },
        ],
      });
      expect(await players(101)).toEqual(['Eva', 'Eli']);
    });

    it("the spec's count: an existing parent with three children and a new childless parent count 4", async () => {
      const xml = `<request><team team_no="3"><player player_name="P1"/><player player_name="P2"/><player player_name="P3"/></team><team team_name="Fish"/></request>`;
      const reply = await write('POST', '/res/TeamPlayers', xml);
      expect(reply.status).toBe(200);
      const doc = parseXml(reply.body).writeResponse as Row;
      expect(doc.rowsAffected).toBe('4');
      expect(doc.team).toEqual([
        {
          team_no: '3',
          player: [
            { pid: '101', player_name: 'P1' },
            { pid: '102', player_name: 'P2' },
            { pid: '103', player_name: 'P3' },
          ],
        },
        { team_no: '101', team_name: 'Fish' },
      ]);
      expect(await players(3)).toEqual(['P1', 'P2', 'P3']);
      expect((await read('/res/TeamPlayers/3'))[0]?.team_name).toBe('Crows');
    });

    it('C3 creates children of the parent in the path and echoes the parent by its key', async () => {
      const reply = await write('POST', '/res/TeamPlayers/2', { players: [{ player_name: 'Dot', shirt: 2 }] });
      expect(reply.json()).toEqual({
        rowsAffected: 1,
        teams: [{ team_no: 2, players: [{ pid: 101, player_name: 'Dot', shirt: 2, nickname: null }] }],
      });
      expect(await players(2)).toEqual(['Di', 'Dot']);
    });

    it('C2 many-to-many associates existing children with a new parent; children carry only their key', async () => {
      const reply = await write('POST', '/res/TeamTags', {
        teams: [{ team_name: 'Gnus', tags: [{ tid: 3 }, { tid: 1, since: 1999 }] }],
      });
      expect(reply.json()).toEqual({
        rowsAffected: 3,
        teams: [
          {
            team_no: 101,
            team_name: 'Gnus',
            tags: [
              { tid: 3, label: 'old', weight: 0, since: 0, color: null },
              { tid: 1, label: 'fast', weight: 3, since: 1999, color: 'red' },
            ],
          },
        ],
      });
      expect(await tags(101)).toEqual(['fast', 'old']);
      expect(await fx.count('tag')).toBe(3);
    });

    it('C3 many-to-many associates the listed children with the path parent', async () => {
      const reply = await write('POST', '/res/TeamTags/3', '<request><tag tid="2"/><tag tid="3"/></request>');
      expect((parseXml(reply.body).writeResponse as Row).rowsAffected).toBe('2');
      expect(await tags(3)).toEqual(['loud', 'old']);
    });

    it.each([
      ['POST', '/res/TeamTags/3', { tags: [{ tid: 2, label: 'renamed' }] }, 400, /only its key.*label/],
      ['POST', '/res/TeamTags/3', { tags: [{ label: 'new' }] }, 400, /lacks its key/],
      ['POST', '/res/TeamTags/3', { tags: [{ tid: 99 }] }, 409, /Conflict/],
      ['POST', '/res/TeamPlayers/99', { players: [{ player_name: 'X' }] }, 404, /TeamPlayers has no team 99/],
      ['POST', '/res/TeamPlayers', { teams: [{ team_name: 'H', pid: 5 }] }, 400, /pid belongs to the player rows/],
      ['POST', '/res/TeamPlayers/2', { players: [{ team_name: 'H' }] }, 400, /team_name belongs to the team rows/],
      ['POST', '/res/TeamPlayers/2', 'team_name=x', 400, /takes XML or JSON player rows/],
    ])('%s %s %j → %i, nothing written', async (method, path, body, status, message) => {
      const reply =
        typeof body === 'string' && !body.startsWith('<')
          ? await invoke({ method, path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })
          : await write(method, path, body);
      expect(reply.status).toBe(status);
      expect(reply.body).toMatch(message);
      expect(await counts()).toEqual(initial);
    });

    it('atomic: a nested create whose last child violates a constraint leaves nothing written (D14)', async () => {
      const body = {
        teams: [{ team_name: 'Ibis', players: [{ player_name: 'ok' }, { player_name: 'bad', shirt: 100 }] }],
      };
      const viaValidation = await write('POST', '/res/TeamPlayers', body);
      expect(viaValidation.status).toBe(400);
      // the same through a database CHECK (the definition's rule does not cover this path)
      const reply = await write('POST', '/res/TeamPlayers/1', {
        players: [{ player_name: 'ok' }, { player_name: 'x'.repeat(41) }],
      });
      expect(reply.status).toBe(400);
      const assoc = await write('POST', '/res/TeamTags', {
        teams: [{ team_name: 'Jays', tags: [{ tid: 1 }, { tid: 98 }] }],
      });
      expect(assoc.status).toBe(409);
      expect(await counts()).toEqual(initial);
    });
  });

  describe('U1 and U4 (spec 4.4, D17)', () => {
    it('U1 updates parents, and children nested under a key-only parent, for different parents in one request', async () => {
      const body = {
        teams: [
          { team_no: 2, team_name: 'Bumblebees' },
          {
            team_no: 1,
            players: [
              { pid: 2, shirt: 19 },
              { pid: 4, shirt: 44 },
            ],
          },
        ],
      };
      const reply = await write('PUT', '/res/TeamPlayers', body);
      // team 2 renamed (1) + player 2 of team 1 (1); player 4 belongs to team 2, not 1: untouched
      expect(reply.json()).toEqual({ rowsAffected: 2 });
      const [ants] = await read('/res/TeamPlayers/1');
      expect(((ants?.players ?? []) as Row[]).find((p) => p.pid === 2)?.shirt).toBe(19);
      const [bees] = await read('/res/TeamPlayers/2');
      expect(bees).toMatchObject({ team_name: 'Bumblebees', players: [{ pid: 4, shirt: 1 }] });
    });

    it('a parent update together with its children is a 400 that says so, and changes nothing (spec 4.4 rule 3)', async () => {
      const reply = await write('PUT', '/res/TeamPlayers', {
        teams: [
          { team_no: 2, team_name: 'ok' },
          { team_no: 1, motto: 'x', players: [{ pid: 1, shirt: 3 }] },
        ],
      });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatch(/updates both the team and its player rows/);
      expect(await read('/res/TeamPlayers/2')).toMatchObject([{ team_name: 'Bees' }]);
      expect(await read('/res/TeamPlayers/1')).toMatchObject([{ motto: 'small but many' }]);
    });

    it('U4 updates children of the path parent, child extension rows created when missing (D16a)', async () => {
      const reply = await write(
        'PUT',
        '/res/TeamPlayers/1',
        '<request><player pid="1" shirt="70"/><player pid="3" nickname="sea"/></request>',
      );
      expect((parseXml(reply.body).writeResponse as Row).rowsAffected).toBe('2');
      const [ants] = await read('/res/TeamPlayers/1');
      expect(ants?.players).toEqual([
        { pid: 1, player_name: 'Ada', shirt: 70, nickname: 'the ace' },
        { pid: 2, player_name: 'Ben', shirt: 9, nickname: null },
        { pid: 3, player_name: 'Cy', shirt: 10, nickname: 'sea' },
      ]);
    });

    it('U4 many-to-many updates the linked child rows and association fields only', async () => {
      const reply = await write('PUT', '/res/TeamTags/1', {
        tags: [
          { tid: 2, weight: 8, since: 1990 },
          { tid: 3, weight: 9 },
        ],
      });
      // tag 2 row + its association row; tag 3 is not linked to team 1: untouched
      expect(reply.json()).toEqual({ rowsAffected: 2 });
      const [ants] = await read('/res/TeamTags/1');
      expect(((ants?.tags ?? []) as Row[]).find((t) => t.tid === 2)).toMatchObject({ weight: 8, since: 1990 });
      expect((await read('/res/TeamTags', 'tid=3')).length).toBe(0);
      expect((await fx.db.exec('SELECT weight FROM tag WHERE tag_id = 3'))[0]?.weight).toBe(0);
    });

    it('U4 on a missing parent is a 404; U3 updates the parent row by key', async () => {
      expect((await write('PUT', '/res/TeamPlayers/99', { players: [{ pid: 1, shirt: 1 }] })).status).toBe(404);
      const u3 = await invoke({
        method: 'PUT',
        path: '/res/TeamPlayers/3',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'motto=caw',
      });
      expect((parseXml(u3.body).writeResponse as Row).rowsAffected).toBe('1');
      expect(await read('/res/TeamPlayers/3')).toMatchObject([{ motto: 'caw', players: [] }]);
    });

    it('atomic: a U4 whose last child fails changes nothing (D14)', async () => {
      const reply = await write('PUT', '/res/TeamPlayers/1', {
        players: [
          { pid: 1, player_name: 'Zed' },
          { pid: 2, player_name: 'x'.repeat(41) },
        ],
      });
      expect(reply.status).toBe(400);
      expect(await players(1)).toEqual(['Ada', 'Ben', 'Cy']);
    });
  });

  describe('D1-D4 by the table of spec 4.5 (D17)', () => {
    it('D3 one-to-many deletes the parent, its extension row and all its children with theirs, counting all', async () => {
      // team_tag rows (outside this resource) still reference team 1: the delete is refused, nothing changes
      const refused = await write('DELETE', '/res/TeamPlayers/1');
      expect(refused.status).toBe(409);
      expect(await players(1)).toEqual(['Ada', 'Ben', 'Cy']);
      await fx.db.exec('DELETE FROM team_tag WHERE team_id = 1');
      // team + team_ext + 3 players + 1 player_ext
      const again = await write('DELETE', '/res/TeamPlayers/1');
      expect(again.json()).toEqual({ rowsAffected: 6 });
      expect(await read('/res/TeamPlayers/1')).toEqual([]);
      expect(await fx.count('player')).toBe(1);
    });

    it('D3 many-to-many deletes the parent and its associations; the child rows stay', async () => {
      await fx.db.exec('DELETE FROM player WHERE team_id = 2');
      const reply = await write('DELETE', '/res/TeamTags/2');
      expect(reply.json()).toEqual({ rowsAffected: 2 });
      expect(await fx.count('tag')).toBe(3);
      expect(await fx.count('team_tag')).toBe(2);
    });

    it('D1 with children listed deletes only those children (one-to-many) or associations (many-to-many)', async () => {
      const oneToMany = await write('DELETE', '/res/TeamPlayers', {
        teams: [{ team_no: 1, players: [{ pid: 1 }, { pid: 4 }] }],
      });
      // player 1 + its extension row; player 4 belongs to team 2
      expect(oneToMany.json()).toEqual({ rowsAffected: 2 });
      expect(await players(1)).toEqual(['Ben', 'Cy']);
      expect(await players(2)).toEqual(['Di']);
      const manyToMany = await write(
        'DELETE',
        '/res/TeamTags',
        '<request><team team_no="1"><tag tid="1"/><tag tid="3"/></team></request>',
      );
      expect((parseXml(manyToMany.body).writeResponse as Row).rowsAffected).toBe('1');
      expect(await tags(1)).toEqual(['loud']);
      expect(await fx.count('tag')).toBe(3);
    });

    it('D4 deletes children of the path parent; a missing parent is a 404', async () => {
      const reply = await write('DELETE', '/res/TeamTags/1', { tags: [{ tid: 2 }] });
      expect(reply.json()).toEqual({ rowsAffected: 1 });
      expect(await tags(1)).toEqual(['fast']);
      const players4 = await write('DELETE', '/res/TeamPlayers/1', { players: [{ pid: 3 }] });
      expect(players4.json()).toEqual({ rowsAffected: 1 });
      expect((await write('DELETE', '/res/TeamPlayers/99', { players: [{ pid: 3 }] })).status).toBe(404);
    });

    it('D2 deletes the parents of every row the filter matches, whichever field it filters on', async () => {
      await fx.db.exec('DELETE FROM team_tag');
      const reply = await write('DELETE', '/res/TeamPlayers', undefined, 'player_name=Di');
      // team 2 and its one player
      expect(reply.json()).toEqual({ rowsAffected: 2 });
      expect((await read('/res/TeamPlayers')).map((t) => t.team_no)).toEqual([1, 3]);
      const byTag = await write('DELETE', '/res/TeamTags', undefined, 'team_name=Crows');
      expect(byTag.json()).toEqual({ rowsAffected: 1 });
    });

    it('atomic: a D1 whose second parent cannot be deleted leaves the first and its children in place (D14)', async () => {
      await fx.db.exec('DELETE FROM team_tag');
      await fx.db.exec('INSERT INTO fan (fan_id, team_id) VALUES (1, 2)');
      const reply = await write('DELETE', '/res/TeamPlayers', { teams: [{ team_no: 1 }, { team_no: 2 }] });
      expect(reply.status).toBe(409);
      expect(await players(1)).toEqual(['Ada', 'Ben', 'Cy']);
      expect(await fx.count('player_ext')).toBe(1);
    });
  });
});
