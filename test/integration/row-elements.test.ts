/**
 * XML request bodies name row elements by the row names or by the tables' names, as restSQL clients do (D13),
 * through the real handlers on every database: parents and children, nested and under the parent in the path.
 */
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke } from '../support/service';

const xml = { 'content-type': 'application/xml', accept: 'application/json' };

async function send(method: string, path: string, body: string) {
  const reply = await invoke({ method, path, headers: xml, body });
  return { status: reply.status, body: reply.status === 200 ? JSON.parse(reply.body) : reply.body };
}

describe.each(targets())('row elements named by table on $name', (target) => {
  const fx = useFixture(target);

  it('D4 deletes a child named by its table', async () => {
    expect(await send('DELETE', '/res/TeamRoster/1', '<request><player pid="2"/></request>')).toEqual({
      status: 200,
      body: { rowsAffected: 1 },
    });
    expect(await fx.count('player', 'team_id = 1')).toBe(2);
  });

  it('C2 takes parents and nested children by either name, and echoes them under the row names', async () => {
    const body =
      '<request><team team_name="Dogs"><player player_name="Rex"/><member player_name="Fido"/></team>' +
      '<squad team_name="Eels"><player player_name="Zap"/></squad></request>';
    const reply = await send('POST', '/res/TeamRoster', body);
    expect(reply).toEqual({
      status: 200,
      body: {
        rowsAffected: 5,
        squads: [
          {
            team_no: 101,
            team_name: 'Dogs',
            members: [
              { pid: 101, player_name: 'Rex' },
              { pid: 102, player_name: 'Fido' },
            ],
          },
          { team_no: 102, team_name: 'Eels', members: [{ pid: 103, player_name: 'Zap' }] },
        ],
      },
    });
  });

  it('U4 updates a child named by its table; any other element name is still a 400 naming it', async () => {
    expect(await send('PUT', '/res/TeamRoster/1', '<request><player pid="1" player_name="Adah"/></request>')).toEqual({
      status: 200,
      body: { rowsAffected: 1 },
    });
    expect(await send('PUT', '/res/TeamRoster/1', '<request><tag pid="1" player_name="x"/></request>')).toEqual({
      status: 400,
      body: 'The XML body has an element tag inside request; expected member or player',
    });
    expect(await fx.count('player', "name = 'Adah'")).toBe(1);
  });
});
