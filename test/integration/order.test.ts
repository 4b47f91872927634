/**
 * `_order=field,-field` on reads, on PGlite and each server whose URL is set: the fields asked for first, in their
 * directions, then the key (so pages stay stable); NULL below every value on every engine (first ascending, last
 * descending); on a hierarchical resource, parent fields order the parents and child fields the children inside
 * their parent. A bad `_order` is a 400 that names what is wrong.
 */
import { closeDatabases } from '../../lib/db/select-database';
import { type TestDatabase, targets } from '../support/databases';
import { type DefinitionFolder, definitionFolder, tagDefinition } from '../support/definition-folder';
import { testData, testSchema } from '../support/schema';
import { invoke, useService } from '../support/service';

describe.each(targets())('_order on $name', (target) => {
  let db: TestDatabase;
  let folder: DefinitionFolder;
  const json = { accept: 'application/json' };
  async function read(query: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const [name, raw] = query.split('?');
    const reply = await invoke({ method: 'GET', path: `/res/${name}`, query: raw, headers: json });
    return { status: reply.status, body: JSON.parse(reply.body) };
  }
  const tags = async (query: string) => ((await read(query)).body.tags as { label: string }[]).map((tag) => tag.label);

  beforeAll(async () => {
    db = await target.create();
    for (const statement of testSchema(target.engine)) await db.exec(statement);
    for (const statement of testData(target.engine)) await db.exec(statement);
    // weights 3, 1, 0, NULL, NULL, 3: ties and NULLs
    await db.exec(
      "INSERT INTO tag (tag_id, label, weight) VALUES (4, 'new', NULL), (5, 'blank', NULL), (6, 'agile', 3)",
    );
    folder = definitionFolder('order', {
      Tag: tagDefinition,
      TeamPlayers: {
        query:
          'select team.team_id, team.name, player.player_id, player.name as player_name, player.shirt from team left join player on player.team_id = team.team_id',
        tables:
          '<table name="team" role="Parent" rowAlias="team" rowSetAlias="teams"/><table name="player" role="Child" rowAlias="player" rowSetAlias="players"/>',
      },
    });
    await useService({ DATABASE_URL: db.url, DEFINITIONS_DIR: folder.path });
  });
  afterAll(async () => {
    await closeDatabases();
    await db?.drop();
    folder?.remove();
  });

  it.each([
    ['Tag', ['fast', 'loud', 'old', 'new', 'blank', 'agile']],
    ['Tag?_order=label', ['agile', 'blank', 'fast', 'loud', 'new', 'old']],
    ['Tag?_order=-label', ['old', 'new', 'loud', 'fast', 'blank', 'agile']],
    // ties broken by the key; NULL first going up and last going down, on every engine
    ['Tag?_order=weight', ['new', 'blank', 'old', 'loud', 'fast', 'agile']],
    ['Tag?_order=-weight', ['fast', 'agile', 'loud', 'old', 'new', 'blank']],
    ['Tag?_order=-tag_id', ['agile', 'blank', 'new', 'old', 'loud', 'fast']],
    // with filters and paging: the page of the ordered rows
    ['Tag?weight=!null&_order=-weight,label&_limit=2&_offset=1', ['fast', 'loud']],
  ])('GET /res/%s', async (query, labels) => {
    expect(await tags(query)).toEqual(labels);
  });

  it('orders ties by the next field asked for', async () => {
    expect(await tags('Tag?_order=-weight,-label')).toEqual(['fast', 'agile', 'loud', 'old', 'new', 'blank']);
    expect(await tags('Tag?_order=-weight,label')).toEqual(['agile', 'fast', 'loud', 'old', 'blank', 'new']);
  });

  it('orders parents by a parent field, and children inside their parent by a child field', async () => {
    const { status, body } = await read('TeamPlayers?_order=-name,-shirt');
    expect(status).toBe(200);
    const teams = body.teams as { name: string; players: { player_name: string }[] }[];
    expect(teams.map((team) => [team.name, team.players.map((p) => p.player_name)])).toEqual([
      ['Crows', []],
      ['Bees', ['Di']],
      ['Ants', ['Cy', 'Ben', 'Ada']],
    ]);
  });

  it('a child field alone orders the children; the parents stay in key order', async () => {
    const { body } = await read('TeamPlayers?_order=-player_name');
    const teams = body.teams as { name: string; players: { player_name: string }[] }[];
    expect(teams.map((team) => [team.name, team.players.map((p) => p.player_name)])).toEqual([
      ['Ants', ['Cy', 'Ben', 'Ada']],
      ['Bees', ['Di']],
      ['Crows', []],
    ]);
  });

  it.each([
    ['Tag?_order=nope', 'Unknown field nope in resource Tag; its fields are tag_id, label, weight'],
    [
      'Tag?_order=label,,weight',
      'Parameter _order has an empty item: give field labels separated by commas, with - before a label to order from its highest value',
    ],
    [
      'Tag?_order=label,-label',
      'Parameter _order names label twice; give field labels separated by commas, with - before a label to order from its highest value, each once',
    ],
  ])('GET /res/%s is a 400 that says why', async (query, message) => {
    const [name, raw] = query.split('?');
    const reply = await invoke({ method: 'GET', path: `/res/${name}`, query: raw, headers: json });
    expect([reply.status, reply.body]).toEqual([400, message]);
  });
});
