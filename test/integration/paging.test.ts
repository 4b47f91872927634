/**
 * Totals and cursor paging on reads of rows, on PGlite and each server whose URL is set: walking a resource page by
 * page through its Link rel="next" (by `_after` and by `_offset`) gives every row once, in order, with ties and
 * NULLs in the order fields, going up and down, on a flat and a hierarchical resource (a parent without children
 * has a NULL child key); `Prefer: count=exact` counts what `_limit` counts, with filters and rows per caller; a
 * changed or misplaced token is a 400.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { closeDatabases } from '../../lib/db/select-database';
import { signInOff, startAuth, type TestAuth } from '../support/auth';
import { type TestDatabase, targets } from '../support/databases';
import { type DefinitionFolder, definitionFolder, tagDefinition } from '../support/definition-folder';
import { testData, testSchema } from '../support/schema';
import { invoke, type Reply, useService } from '../support/service';

type Row = Record<string, unknown>;

/** Splits `Name?query` into the call's path and query. */
function get(url: string, headers: Record<string, string> = {}): Promise<Reply> {
  const [where, query] = url.split('?');
  const path = where?.startsWith('/') ? (where as string) : `/res/${where}`;
  return invoke({ method: 'GET', path, query: query ?? '', headers: { accept: 'application/json', ...headers } });
}

/** The target of a Link rel="next", or undefined. */
function nextOf(reply: Reply): string | undefined {
  const link = reply.headers.link;
  if (link === undefined) return undefined;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  if (!match) throw new Error(`Not a Link rel="next": ${link}`);
  return match[1];
}

describe.each(targets())('totals and cursor paging on $name', (target) => {
  let db: TestDatabase;
  let folder: DefinitionFolder;
  let auth: TestAuth;
  const tags = (reply: Reply) => (JSON.parse(reply.body).tags as Row[]).map((tag) => tag.label);
  /** Each team's rows as flat joined rows: `team/player`, `team/-` for a team without players. */
  const teamRows = (reply: Reply) =>
    (JSON.parse(reply.body).teams as { name: string; players: Row[] }[]).flatMap((team) =>
      team.players.length === 0 ? [`${team.name}/-`] : team.players.map((p) => `${team.name}/${p.player_name}`),
    );

  /** Follows Link rel="next" from `first`: each page's items and Content-Range. */
  async function walk(first: string, items: (reply: Reply) => unknown[], headers: Record<string, string> = {}) {
    const seen: unknown[] = [];
    const ranges: string[] = [];
    let url: string | undefined = first;
    while (url !== undefined) {
      const reply = await get(url, headers);
      expect(reply.status).toBe(200);
      seen.push(...items(reply));
      ranges.push(reply.headers['content-range'] as string);
      url = nextOf(reply);
      if (ranges.length > 50) throw new Error('too many pages');
    }
    return { seen, ranges };
  }

  beforeAll(async () => {
    auth = await startAuth();
    db = await target.create();
    for (const statement of testSchema(target.engine)) await db.exec(statement);
    for (const statement of testData(target.engine)) await db.exec(statement);
    // weights 3, 1, 0, then NULLs and ties: 3, NULL, 1, NULL, 0, 3
    await db.exec(
      "INSERT INTO tag (tag_id, label, weight) VALUES (4, 'new', NULL), (5, 'blank', 3), (6, 'agile', NULL), (7, 'zen', 1), (8, 'calm', NULL), (9, 'bold', 0), (10, 'keen', 3)",
    );
    // two more teams without players, and shirts with ties and NULLs
    await db.exec("INSERT INTO team (team_id, name) VALUES (4, 'Doves'), (5, 'Eels')");
    await db.exec(
      "INSERT INTO player (player_id, team_id, name, shirt) VALUES (5, 2, 'Ed', NULL), (6, 2, 'Flo', 1), (7, 4, 'Gus', NULL), (8, 1, 'Hal', 9)",
    );
    // a timestamp with its time zone on PostgreSQL, written back with its offset
    const zoned = target.engine === 'postgres' ? 'timestamptz' : 'timestamp';
    await db.exec(`CREATE TABLE paging_event (event_id int PRIMARY KEY, at ${zoned} NULL)`);
    await db.exec(
      "INSERT INTO paging_event (event_id, at) VALUES (1, '2024-01-02 10:00:00.5'), (2, NULL), (3, '2024-01-01 09:00:00'), (4, '2024-01-02 10:00:00.5'), (5, '2023-12-31 23:59:59.999999'), (6, NULL)",
    );
    folder = definitionFolder('paging', {
      Event: {
        query: 'select event_id, at from paging_event',
        tables: '<table name="paging_event" role="Parent" rowAlias="event" rowSetAlias="events"/>',
      },
      Tag: tagDefinition,
      TeamPlayers: {
        query:
          'select team.team_id, team.name, player.player_id, player.name as player_name, player.shirt from team left join player on player.team_id = team.team_id',
        tables:
          '<table name="team" role="Parent" rowAlias="team" rowSetAlias="teams"/><table name="player" role="Child" rowAlias="player" rowSetAlias="players"/>',
      },
      // rows per caller: every tag but the one named as the caller
      OtherTags: {
        query: 'select tag_id, label, weight from tag where label &lt;&gt; {{claim:sub}}',
        tables: '<table name="tag" role="Parent" rowAlias="tag" rowSetAlias="tags"/>',
      },
    });
    writeFileSync(path.join(folder.path, 'privileges.properties'), '*.select=reader\n');
    await useService({ DATABASE_URL: db.url, DEFINITIONS_DIR: folder.path, CURSOR_SECRET: 'paging test secret' });
  });
  afterAll(async () => {
    await useService({ ...signInOff, CURSOR_SECRET: undefined });
    await closeDatabases();
    await db?.drop();
    folder?.remove();
    await auth?.close();
  });

  describe('walking a flat resource page by page gives every row once, in order', () => {
    it.each(['', '_order=weight', '_order=-weight', '_order=weight,-label', '_order=-weight,-tag_id', '_order=-label'])(
      '%s',
      async (order) => {
        const all = tags(await get(`Tag?${order}`));
        expect(all).toHaveLength(10);
        for (const limit of [1, 3, 4, 10]) {
          const byCursor = await walk(`Tag?${order}&_limit=${limit}`, tags);
          expect(byCursor.seen).toEqual(all);
          const byOffset = await walk(`Tag?${order}&_limit=${limit}&_offset=0`, tags);
          expect(byOffset.seen).toEqual(all);
          expect(byCursor.ranges).toHaveLength(Math.ceil(10 / limit));
        }
      },
    );

    it.each(['_order=at', '_order=-at'])('timestamps, with their time zone on PostgreSQL: %s', async (order) => {
      const ids = (reply: Reply) => (JSON.parse(reply.body).events as Row[]).map((event) => event.event_id);
      const all = ids(await get(`Event?${order}`));
      expect(all).toHaveLength(6);
      expect((await walk(`Event?${order}&_limit=1`, ids)).seen).toEqual(all);
    });

    it('with filters, which the Link keeps', async () => {
      const all = tags(await get('Tag?weight=!null&_order=-weight'));
      expect(all).toHaveLength(7);
      expect((await walk('Tag?weight=!null&_order=-weight&_limit=2', tags)).seen).toEqual(all);
    });
  });

  describe('walking a hierarchical resource counts flat joined rows, teams without players included', () => {
    it.each(['', '_order=-name,-shirt', '_order=-player_name', '_order=shirt', '_order=name,-shirt'])(
      '%s',
      async (order) => {
        const all = teamRows(await get(`TeamPlayers?${order}`));
        expect(all).toHaveLength(10);
        for (const limit of [1, 2, 3]) {
          // a team split across two pages shows once on each
          expect((await walk(`TeamPlayers?${order}&_limit=${limit}`, teamRows)).seen).toEqual(all);
          expect((await walk(`TeamPlayers?${order}&_limit=${limit}&_offset=0`, teamRows)).seen).toEqual(all);
        }
      },
    );
  });

  describe('Content-Range, Link and Preference-Applied', () => {
    it('a first page: positions, the total when asked for, and a Link with _after', async () => {
      const reply = await get('Tag?_order=label&_limit=4', { prefer: 'count=exact' });
      expect(reply.headers['content-range']).toBe('0-3/10');
      expect(reply.headers['preference-applied']).toBe('count=exact');
      expect(reply.headers.vary).toBe('Accept, Prefer');
      expect(reply.headers.link).toMatch(/^<\/res\/Tag\?_order=label&_limit=4&_after=[A-Za-z0-9_.-]+>; rel="next"$/);
    });

    it('without Prefer, the total is *; other preferences are ignored', async () => {
      const reply = await get('Tag?_limit=4', { prefer: 'return=minimal, count=planned' });
      expect(reply.headers['content-range']).toBe('0-3/*');
      expect(reply.headers['preference-applied']).toBeUndefined();
    });

    it('offset pages: positions from the offset, the Link moves the offset on', async () => {
      const reply = await get('Tag?_offset=4&_limit=4&weight=!null', { prefer: 'count=exact' });
      expect(reply.headers['content-range']).toBe('4-6/7');
      expect(reply.headers.link).toBeUndefined();
      const middle = await get('Tag?_limit=3&_offset=3');
      expect(middle.headers['content-range']).toBe('3-5/*');
      expect(middle.headers.link).toBe('</res/Tag?_limit=3&_offset=6>; rel="next"');
    });

    it('a page after a cursor says * for its positions; an empty page says * too', async () => {
      const first = await get('Tag?_limit=4');
      const after = await get(nextOf(first) as string, { prefer: 'count=exact' });
      expect(after.headers['content-range']).toBe('*/10');
      const empty = await get('Tag?_offset=20&_limit=5', { prefer: 'count=exact' });
      expect(empty.headers['content-range']).toBe('*/10');
      expect(empty.headers.link).toBeUndefined();
    });

    it('a read without _limit: all its rows, no Link', async () => {
      const reply = await get('Tag?label=%25a%25', { prefer: 'count=exact' });
      expect(reply.headers['content-range']).toBe('0-3/4');
      expect(reply.headers.link).toBeUndefined();
    });

    it('a page that ends exactly at the last row has no Link', async () => {
      expect((await get('Tag?_limit=10')).headers.link).toBeUndefined();
      expect((await get('Tag?_limit=9')).headers.link).toBeDefined();
    });

    it('a hierarchical total counts the flat joined rows, with filters', async () => {
      const reply = await get('TeamPlayers?_limit=2', { prefer: 'count=exact' });
      expect(reply.headers['content-range']).toBe('0-1/10');
      const filtered = await get('TeamPlayers?shirt=!null&_limit=2', { prefer: 'count=exact' });
      expect(filtered.headers['content-range']).toBe('0-1/6');
    });

    it('a read by key answers without them', async () => {
      const reply = await get('Tag/1', { prefer: 'count=exact' });
      expect(reply.status).toBe(200);
      expect(reply.headers['content-range']).toBeUndefined();
      expect(reply.headers['preference-applied']).toBeUndefined();
      expect(reply.headers.vary).toBe('Accept');
    });

    it('a total through rows per caller counts only the caller’s rows', async () => {
      await useService({ ...auth.env, PRIVILEGES: path.join(folder.path, 'privileges.properties') });
      try {
        const token = await auth.token({ roles: ['reader'], sub: 'fast' });
        const headers = { authorization: `Bearer ${token}`, prefer: 'count=exact' };
        const reply = await get('OtherTags?weight=!null&_limit=2&_order=-weight', headers);
        expect(reply.headers['content-range']).toBe('0-1/6');
        const all = tags(await get('OtherTags?weight=!null&_order=-weight', headers));
        expect((await walk('OtherTags?weight=!null&_order=-weight&_limit=2', tags, headers)).seen).toEqual(all);
      } finally {
        await useService(signInOff);
      }
    });
  });

  describe('tokens are checked: a token that does not fit is a 400, never another query', () => {
    let token: string;
    beforeAll(async () => {
      const link = nextOf(await get('Tag?weight=!null&_order=-weight&_limit=2')) as string;
      token = new URLSearchParams(link.split('?')[1]).get('_after') as string;
    });
    const accept = { accept: 'application/problem+json' };
    const refused = async (url: string, words: RegExp) => {
      const reply = await get(url, accept);
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body)).toMatchObject({ code: 'bad_cursor' });
      expect(JSON.parse(reply.body).detail).toMatch(words);
    };

    it('the same filters in another order are the same filters', async () => {
      const reply = await get(`Tag?_order=-weight&weight=!null&_limit=2&_after=${token}`);
      expect(reply.status).toBe(200);
      expect(tags(reply)).toEqual(['keen', 'loud']);
    });

    it.each([
      ['a changed character', (t: string) => `${t.slice(0, 5)}${t[5] === 'A' ? 'B' : 'A'}${t.slice(6)}`, /changed/],
      ['a changed tag', (t: string) => `${t.slice(0, -1)}${t.endsWith('A') ? 'B' : 'A'}`, /changed/],
      ['no tag', (t: string) => t.split('.')[0] as string, /does not decode/],
      ['not base64url', () => 'a+b.c', /does not decode/],
      [
        'a payload of its own with the old tag',
        (t: string) =>
          `${Buffer.from(JSON.stringify({ r: 'Tag', o: '-weight,tag_id', f: 'x', v: ['9', '1'] })).toString('base64url')}.${t.split('.')[1]}`,
        /changed/,
      ],
    ])('%s', async (_name, change, words) => {
      await refused(`Tag?weight=!null&_order=-weight&_limit=2&_after=${change(token)}`, words);
    });

    it('another resource, order or filters', async () => {
      for (const [url, words] of [
        ['TeamPlayers?_limit=2', /belongs to resource Tag, not TeamPlayers/],
        ['Tag?weight=!null&_order=weight&_limit=2', /made for the order -weight,tag_id/],
        ['Tag?weight=!null&_limit=2', /made for the order/],
        ['Tag?weight=3&_order=-weight&_limit=2', /other filters/],
        ['Tag?_order=-weight&_limit=2', /other filters/],
      ] as const) {
        await refused(`${url}&_after=${token}`, words);
      }
    });

    it('a token made with another CURSOR_SECRET', async () => {
      await useService({ CURSOR_SECRET: 'another secret' });
      try {
        await refused(`Tag?weight=!null&_order=-weight&_limit=2&_after=${token}`, /another CURSOR_SECRET/);
      } finally {
        await useService({ CURSOR_SECRET: 'paging test secret' });
      }
    });

    it.each([
      ['Tag?_after=abc&_offset=2', /_after and _offset cannot be used together/],
      ['Tag/1?_after=abc', /a read by key has no next page/],
      ['Tag?_after=', /Parameter _after is empty/],
    ])('%s', async (url, words) => {
      const reply = await get(url, accept);
      expect([reply.status, JSON.parse(reply.body).code]).toEqual([400, 'bad_parameter']);
      expect(JSON.parse(reply.body).detail).toMatch(words);
    });

    it('_after on a write is refused like _limit', async () => {
      const reply = await invoke({
        method: 'PUT',
        path: '/res/Tag',
        query: `label=fast&_after=${token}`,
        headers: { accept: 'application/problem+json', 'content-type': 'application/json' },
        body: JSON.stringify({ weight: 4 }),
      });
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body).detail).toMatch(/Parameter _after is for GET only/);
    });
  });
});
