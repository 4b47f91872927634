/**
 * Conditional requests, on PGlite and each server whose URL is set: every read carries a strong ETag of its body and
 * answers If-None-Match with a 304; a write by key with If-Match writes only while each row it addresses is still the
 * version the client read (else 412, nothing written), with the rows locked so that of two clients writing the same
 * version exactly one wins; a PUT by path key answers with the row's new ETag; a definition may require If-Match
 * (428 without it).
 */
import { closeDatabases } from '../../lib/db/select-database';
import { type TestDatabase, targets } from '../support/databases';
import { type DefinitionFolder, definitionFolder, tagDefinition } from '../support/definition-folder';
import { testData, testSchema } from '../support/schema';
import { type Call, invoke, type Reply, useService } from '../support/service';

const json = { accept: 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe.each(targets())('conditional requests on $name', (target) => {
  let db: TestDatabase;
  let folder: DefinitionFolder;
  const get = (path: string, headers: Record<string, string> = json, query?: string): Promise<Reply> =>
    invoke({ method: 'GET', path, headers, ...(query === undefined ? {} : { query }) });
  const write = (call: Omit<Call, 'headers'> & { headers?: Record<string, string> }) =>
    invoke({ ...call, headers: { ...json, ...call.headers } });
  const weightOf = async (id: number) =>
    (await db.exec(`SELECT weight FROM tag WHERE tag_id = ${id}`)).map((row) => Number(row.weight))[0];

  beforeAll(async () => {
    db = await target.create();
    for (const statement of testSchema(target.engine)) await db.exec(statement);
    for (const statement of testData(target.engine)) await db.exec(statement);
    folder = definitionFolder('conditional', {
      Tag: tagDefinition,
      StrictTag: { ...tagDefinition, more: '  <http><request ifMatch="required"/></http>\n' },
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

  describe('reads', () => {
    it('carry a strong ETag of their body: the same body the same tag, XML and JSON each their own', async () => {
      const first = await get('/res/Tag');
      const again = await get('/res/Tag');
      const xml = await get('/res/Tag', { accept: 'application/xml' });
      const page = await get('/res/Tag', json, '_limit=1');
      expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(xml.headers.etag).not.toBe(first.headers.etag);
      expect(page.headers.etag).not.toBe(first.headers.etag);
    });

    it.each([
      ['the tag itself', (tag: string) => tag],
      ['the tag among others', (tag: string) => `"other", ${tag}`],
      ['the tag marked weak', (tag: string) => `W/${tag}`],
      ['*', () => '*'],
    ])('If-None-Match with %s answers 304 with no body, the ETag, Cache-Control and Vary', async (_, header) => {
      const { headers } = await get('/res/Tag/1');
      const reply = await get('/res/Tag/1', { ...json, 'if-none-match': header(headers.etag as string) });
      expect(reply.status).toBe(304);
      expect(reply.body).toBe('');
      expect(reply.headers.etag).toBe(headers.etag);
      expect(reply.headers['cache-control']).toBe(headers['cache-control']);
      expect(reply.headers.vary).toBe('Accept');
    });

    it('If-None-Match with another version, or the JSON tag on an XML read, answers 200 with the body', async () => {
      const { headers } = await get('/res/Tag/1');
      for (const [accept, tag] of [
        ['application/json', '"not-this-one"'],
        ['application/xml', headers.etag as string],
      ]) {
        const reply = await get('/res/Tag/1', { accept: accept as string, 'if-none-match': tag as string });
        expect(reply.status).toBe(200);
        expect(reply.body).not.toBe('');
      }
    });

    it('a HEAD with If-None-Match is a 304 too', async () => {
      const { headers } = await get('/res/Tag/2');
      const reply = await invoke({
        method: 'HEAD',
        path: '/res/Tag/2',
        headers: { ...json, 'if-none-match': headers.etag as string },
      });
      expect(reply.status).toBe(304);
      expect(reply.headers['content-length']).toBeUndefined();
    });

    it('a malformed If-None-Match, or If-Match on a read, is a 400 that names the header', async () => {
      const bad = await get('/res/Tag/1', { ...json, 'if-none-match': 'abc' });
      expect([bad.status, bad.body]).toEqual([400, expect.stringContaining('If-None-Match must be * or a list')]);
      const ifMatch = await get('/res/Tag/1', { ...json, 'if-match': '*' });
      expect([ifMatch.status, ifMatch.body]).toEqual([400, expect.stringContaining('a GET takes If-None-Match')]);
    });
  });

  describe('writes by key', () => {
    it('a PUT by path key with If-Match answers with the ETag the next read carries, in its own representation', async () => {
      for (const accept of ['application/json', 'application/xml']) {
        const { headers } = await get('/res/Tag/3', { accept });
        const put = await write({
          method: 'PUT',
          path: '/res/Tag/3',
          headers: { ...form, accept, 'if-match': headers.etag as string },
          body: `weight=${accept.length}`,
        });
        expect(put.status).toBe(200);
        expect(put.headers.etag).toBe((await get('/res/Tag/3', { accept })).headers.etag);
        expect(put.headers.etag).not.toBe(headers.etag);
      }
    });

    it('a PUT without If-Match is not read back: it carries no ETag', async () => {
      const put = await write({ method: 'PUT', path: '/res/Tag/3', headers: form, body: 'weight=4' });
      expect(put.status).toBe(200);
      expect(put.headers.etag).toBeUndefined();
    });

    it('with If-Match of the current version (read as XML or JSON) writes; with an older one is a 412', async () => {
      const read = await get('/res/Tag/2');
      const xmlTag = (await get('/res/Tag/2', { accept: 'application/xml' })).headers.etag as string;
      const ok = await write({
        method: 'PUT',
        path: '/res/Tag/2',
        headers: { ...form, 'if-match': xmlTag },
        body: 'weight=5',
      });
      expect([ok.status, JSON.parse(ok.body).rowsAffected]).toEqual([200, 1]);
      const stale = await write({
        method: 'PUT',
        path: '/res/Tag/2',
        headers: { ...form, 'if-match': read.headers.etag as string },
        body: 'weight=6',
      });
      expect(stale.status).toBe(412);
      expect(stale.body).toBe(
        'Row tag_id 2 of Tag has changed since the version in If-Match was read; nothing was written (read it again for its ETag)',
      );
      expect(await weightOf(2)).toBe(5);
      const gone = await write({
        method: 'DELETE',
        path: '/res/Tag/2',
        headers: { 'if-match': read.headers.etag as string },
      });
      expect(gone.status).toBe(412);
      expect(await weightOf(2)).toBe(5);
    });

    it('takes the ETag of the row read as CSV too', async () => {
      const { headers } = await get('/res/Tag/1', { accept: 'text/csv' });
      const reply = await write({ method: 'DELETE', path: '/res/Tag/1', headers: { 'if-match': '"stale"' } });
      expect(reply.status).toBe(412);
      const ok = await write({
        method: 'PUT',
        path: '/res/Tag/1',
        headers: { ...form, 'if-match': headers.etag as string },
        body: 'weight=3',
      });
      expect(ok.status).toBe(200);
    });

    it('If-Match: * writes a row that exists, and is a 412 for one that does not', async () => {
      const put = await write({
        method: 'PUT',
        path: '/res/Tag/1',
        headers: { ...form, 'if-match': '*' },
        body: 'weight=3',
      });
      expect(put.status).toBe(200);
      const missing = await write({
        method: 'PUT',
        path: '/res/Tag/99',
        headers: { ...form, 'if-match': '*' },
        body: 'weight=3',
      });
      expect([missing.status, missing.body]).toEqual([
        412,
        'Row tag_id 99 of Tag does not exist, so If-Match cannot hold; nothing was written',
      ]);
    });

    it('a DELETE by key with the current version deletes the row', async () => {
      await db.exec("INSERT INTO tag (tag_id, label, weight) VALUES (40, 'doomed', 1)");
      const { headers } = await get('/res/Tag/40');
      const reply = await write({
        method: 'DELETE',
        path: '/res/Tag/40',
        headers: { 'if-match': headers.etag as string },
      });
      expect([reply.status, JSON.parse(reply.body).rowsAffected]).toEqual([200, 1]);
      expect(await db.exec('SELECT tag_id FROM tag WHERE tag_id = 40')).toEqual([]);
    });

    it('rows in the body each need their version among the If-Match tags; one stale row writes nothing', async () => {
      await db.exec("INSERT INTO tag (tag_id, label, weight) VALUES (50, 'five-o', 1), (51, 'five-one', 1)");
      const tag50 = (await get('/res/Tag/50')).headers.etag as string;
      const tag51 = (await get('/res/Tag/51')).headers.etag as string;
      const body = JSON.stringify({
        tags: [
          { tag_id: 50, weight: 2 },
          { tag_id: 51, weight: 2 },
        ],
      });
      const headers = { 'content-type': 'application/json', 'if-match': `${tag50}, ${tag51}` };
      const both = await write({ method: 'PUT', path: '/res/Tag', headers, body });
      expect([both.status, JSON.parse(both.body).rowsAffected]).toEqual([200, 2]);
      const fresh50 = (await get('/res/Tag/50')).headers.etag as string;
      const again = JSON.stringify({
        tags: [
          { tag_id: 50, weight: 3 },
          { tag_id: 51, weight: 3 },
        ],
      });
      const stale = await write({
        method: 'PUT',
        path: '/res/Tag',
        headers: { 'content-type': 'application/json', 'if-match': `${fresh50}, ${tag51}` },
        body: again,
      });
      expect([stale.status, stale.body]).toEqual([412, expect.stringContaining('Row tag_id 51 of Tag has changed')]);
      expect([await weightOf(50), await weightOf(51)]).toEqual([2, 2]);
    });

    it('of two clients writing the version both read, exactly one wins and the row holds its values', async () => {
      await db.exec("INSERT INTO tag (tag_id, label, weight) VALUES (60, 'contested', 1)");
      const { headers } = await get('/res/Tag/60');
      const replies = await Promise.all(
        [7, 8].map((weight) =>
          write({
            method: 'PUT',
            path: '/res/Tag/60',
            headers: { ...form, 'if-match': headers.etag as string },
            body: `weight=${weight}`,
          }),
        ),
      );
      const statuses = replies.map((reply) => reply.status).sort();
      expect(statuses).toEqual([200, 412]);
      const winner = replies.findIndex((reply) => reply.status === 200);
      expect(await weightOf(60)).toBe([7, 8][winner]);
      expect((await get('/res/Tag/60')).headers.etag).toBe(replies[winner]?.headers.etag);
    });

    it("a hierarchical row's version covers its children: a changed child makes the parent's tag stale", async () => {
      const { headers } = await get('/res/TeamPlayers/2');
      await db.exec('UPDATE player SET shirt = 2 WHERE player_id = 4');
      const stale = await write({
        method: 'PUT',
        path: '/res/TeamPlayers/2',
        headers: { ...form, 'if-match': headers.etag as string },
        body: 'name=Wasps',
      });
      expect(stale.status).toBe(412);
      const fresh = (await get('/res/TeamPlayers/2')).headers.etag as string;
      const ok = await write({
        method: 'PUT',
        path: '/res/TeamPlayers/2',
        headers: { ...form, 'if-match': fresh },
        body: 'name=Wasps',
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.etag).toBe((await get('/res/TeamPlayers/2')).headers.etag);
    });
  });

  describe('what If-Match does not apply to', () => {
    it.each([
      ['a POST', { method: 'POST', path: '/res/Tag', body: 'tag_id=70&label=seventy' }, 'a POST creates rows'],
      [
        'a PUT by filter',
        { method: 'PUT', path: '/res/Tag', query: 'label=old', body: 'weight=1' },
        'chooses its rows by query filters',
      ],
      [
        'a DELETE by filter',
        { method: 'DELETE', path: '/res/Tag', query: 'label=nope' },
        'chooses its rows by query filters',
      ],
    ])('%s with If-Match is a 400 that says why', async (_, call, why) => {
      const reply = await write({ ...call, headers: { ...form, 'if-match': '*' } });
      expect([reply.status, reply.body]).toEqual([400, expect.stringContaining(why)]);
    });

    it('If-None-Match on a write is a 400 that points to If-Match', async () => {
      const reply = await write({
        method: 'PUT',
        path: '/res/Tag/1',
        headers: { ...form, 'if-none-match': '*' },
        body: 'weight=1',
      });
      expect([reply.status, reply.body]).toEqual([
        400,
        expect.stringContaining('a PUT is made conditional with If-Match'),
      ]);
    });
  });

  describe('a resource that requires If-Match', () => {
    it.each([
      ['PUT', 'weight=2'],
      ['DELETE', undefined],
    ])('a %s by key without it is a 428, and nothing is written', async (method, body) => {
      const reply = await write({ method, path: '/res/StrictTag/1', headers: form, ...(body ? { body } : {}) });
      expect([reply.status, reply.body]).toEqual([
        428,
        'Resource StrictTag requires If-Match on a write by key: read the row first and send its ETag as If-Match',
      ]);
      expect(await weightOf(1)).toBe(3);
    });

    it('a PUT by key with it writes', async () => {
      const { headers } = await get('/res/StrictTag/1');
      const reply = await write({
        method: 'PUT',
        path: '/res/StrictTag/1',
        headers: { ...form, 'if-match': headers.etag as string },
        body: 'weight=2',
      });
      expect(reply.status).toBe(200);
      expect(await weightOf(1)).toBe(2);
    });
  });
});
