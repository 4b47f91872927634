/**
 * Every kind of XML document the contract tests exchange validates against the published schemas: responses
 * of the real handlers (flat and hierarchical reads, write counts with and without echoed rows) against
 * Response.xsd, and the XML request bodies against Request.xsd. Runs on PGlite only: the documents' shape
 * does not depend on the database.
 */
import type { Target } from '../support/databases';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { type Call, invoke, parseXml } from '../support/service';
import { expectValid, validate } from './xmllint';

const pglite = targets()[0] as Target;
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const xml = { 'content-type': 'application/xml' };

/** Calls a handler, checks it answered XML with `root`, validates the body against Response.xsd, returns it. */
async function validResponse(call: Call, root: 'readResponse' | 'writeResponse'): Promise<string> {
  if (call.body?.startsWith('<')) await expectValid('Request.xsd', call.body);
  const reply = await invoke(call);
  expect({ status: reply.status, type: reply.headers['content-type'] }).toEqual({
    status: 200,
    type: 'application/xml',
  });
  expect(Object.keys(parseXml(reply.body)).filter((key) => key !== '?xml')).toEqual([root]);
  await expectValid('Response.xsd', reply.body);
  return reply.body;
}

function rowsAffected(body: string): string {
  return (parseXml(body).writeResponse as Record<string, string>).rowsAffected ?? '';
}

describe(`XML documents of the real handlers on ${pglite.name}`, () => {
  const fx = useFixture(pglite);

  it.each([
    ['R1 flat: every value type, NULLs omitted, & " < escaped', '/res/Item', '', /name="cherry &amp; co, &quot;/],
    ['R1 with no match', '/res/Item', 'name=none', /<readResponse\/>/],
    ['R2 with a missing key', '/res/Item/999', '', /<readResponse\/>/],
    ['R2 with a compound key', '/res/Pair/ABC/2', '', /<pair code="ABC" num="2" label="second"\/>/],
    ['R1 keyless, a NULL omitted', '/res/Loose', '', /<loose word="a"\/>/],
    ['R1 of a dotted name', '/res/shop.Widget', '', /<widget /],
    ['R1 one-to-many, a childless parent', '/res/TeamPlayers', '', /<\/team><team team_no="3" team_name="Crows"\/>/],
    ['R2 of a childless parent', '/res/TeamPlayers/3', '', /<readResponse><team [^>]*\/><\/readResponse>/],
    ['R1 one-to-many paged', '/res/TeamPlayers', '_limit=2&_offset=2', /<team [^>]*><player pid="3"/],
    ['R1 many-to-many', '/res/TeamTags', '', /<team [^>]*><tag tid="1" [^>]*since="2001"/],
    ['R1 many-to-many by a child field', '/res/TeamTags', 'label=fast', /<tag tid="1"/],
  ])('%s: GET %s?%s', async (_title, path, query, feature) => {
    expect(await validResponse({ method: 'GET', path, query }, 'readResponse')).toMatch(feature);
  });

  it('R2 with tabs, line breaks and characters XML cannot carry (escaped, or U+FFFD)', async () => {
    await fx.db.exec(`UPDATE item SET note = 'a' || chr(9) || 'b' || chr(10) || 'c' || chr(1) WHERE item_id = 4`);
    const body = await validResponse({ method: 'GET', path: '/res/Item/4' }, 'readResponse');
    expect(body).toContain('note="a&#9;b&#10;c\uFFFD"');
  });

  it.each([
    ['C1 form, echoes the row', { method: 'POST', path: '/res/Item', headers: form, body: 'name=fig&price=2.5' }, '1'],
    [
      'C2 flat XML, echoes the rows',
      {
        method: 'POST',
        path: '/res/Pair',
        headers: xml,
        body: '<request><pair code="QQQ" num="5" label="x &amp; y"/><pair code="QQQ" num="6"/></request>',
      },
      '2',
    ],
    [
      'C2 hierarchical XML, echoes parents and children',
      {
        method: 'POST',
        path: '/res/TeamPlayers',
        headers: xml,
        body: '<request><team team_no="3"><player player_name="P1"/><player player_name="P2"/><player player_name="P3"/></team><team team_name="Fish"/></request>',
      },
      '4',
    ],
    [
      'C2 JSON answered in XML, a new childless parent',
      {
        method: 'POST',
        path: '/res/TeamPlayers',
        headers: { 'content-type': 'application/json', accept: 'application/xml' },
        body: '{"teams":[{"team_name":"Doves","motto":"coo"}]}',
      },
      '2',
    ],
    [
      'C3 one-to-many XML, the parent by its key',
      {
        method: 'POST',
        path: '/res/TeamPlayers/2',
        headers: xml,
        body: '<request><player player_name="Dot"/></request>',
      },
      '1',
    ],
    [
      'C3 many-to-many XML',
      {
        method: 'POST',
        path: '/res/TeamTags/3',
        headers: xml,
        body: '<request><tag tid="2"/><tag tid="3"/></request>',
      },
      '2',
    ],
  ])('%s', async (_title, call, count) => {
    const body = await validResponse(call, 'writeResponse');
    expect(rowsAffected(body)).toBe(count);
    expect(body).toMatch(/<writeResponse rowsAffected="\d+"><(item|pair|team) /);
  });

  it.each([
    [
      'U1 flat XML',
      {
        method: 'PUT',
        path: '/res/Pair',
        headers: xml,
        body: '<request><pair code="ABC" num="2" label="zwei"/></request>',
      },
      '1',
    ],
    [
      'U1 XML with escaped characters',
      {
        method: 'PUT',
        path: '/res/Item',
        headers: xml,
        body: '<request><item id="3" note="a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;&#10;f"/></request>',
      },
      '1',
    ],
    ['U3 found', { method: 'PUT', path: '/res/Item/2', headers: form, body: 'qty=42&note=null' }, '1'],
    ['U3 not found', { method: 'PUT', path: '/res/Item/999', headers: form, body: 'qty=1' }, '0'],
    [
      'U4 XML child rows',
      {
        method: 'PUT',
        path: '/res/TeamPlayers/1',
        headers: xml,
        body: '<request><player pid="1" shirt="70"/><player pid="3" nickname="sea"/></request>',
      },
      '2',
    ],
    [
      'D1 flat XML',
      { method: 'DELETE', path: '/res/Pair', headers: xml, body: '<request><pair code="ABC" num="1"/></request>' },
      '1',
    ],
    [
      'D1 many-to-many XML, children under their parent',
      {
        method: 'DELETE',
        path: '/res/TeamTags',
        headers: xml,
        body: '<request><team team_no="1"><tag tid="1"/><tag tid="3"/></team></request>',
      },
      '1',
    ],
    ['D2 by filter', { method: 'DELETE', path: '/res/Item', query: 'price=%3E3' }, '3'],
    ['D3 by key', { method: 'DELETE', path: '/res/Item/1' }, '2'],
    [
      'D4 XML child rows',
      { method: 'DELETE', path: '/res/TeamTags/1', headers: xml, body: '<request><tag tid="2"/></request>' },
      '1',
    ],
  ])('%s: the count alone', async (_title, call, count) => {
    const body = await validResponse(call, 'writeResponse');
    expect(rowsAffected(body)).toBe(count);
    expect(body).toContain(`<writeResponse rowsAffected="${count}"/>`);
  });

  it('text inside a row passes Request.xsd (XSD 1.0 cannot refuse it), so the service refuses it: 400', async () => {
    const body = '<request><pair code="QQQ" num="7">text</pair></request>';
    expect((await validate('Request.xsd', body)).valid).toBe(true);
    expect((await validate('Response.xsd', '<readResponse><pair code="QQQ">text</pair></readResponse>')).valid).toBe(
      true,
    );
    const reply = await invoke({ method: 'POST', path: '/res/Pair', headers: xml, body });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatch(/text "text" inside pair/);
    expect(await fx.count('pair', "code = 'QQQ'")).toBe(0);
  });
});
