/**
 * Hostile values in every position (filters, IN lists, LIKE patterns, path keys, form fields, XML and JSON
 * bodies, names): values only ever travel as parameters, so each is a harmless value or a clean 4xx, and every
 * table survives with its rows.
 */
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke } from '../support/service';

const hostile = [
  "'; DROP TABLE item; --",
  '" OR "1"="1',
  "1' OR '1'='1",
  '1; DELETE FROM item',
  '`; DROP TABLE item; #',
  "\\'; DROP TABLE item; --",
  '$1',
  '?',
  '%; DROP TABLE item; --',
  "x') OR ('a'='a",
  '\u0000',
];

const enc = encodeURIComponent;

describe.each(targets())('injection on $name', (target) => {
  const fx = useFixture(target);

  afterEach(async () => {
    expect(await fx.count('item')).toBeGreaterThanOrEqual(4);
    expect(await fx.count('pair')).toBeGreaterThanOrEqual(3);
  });

  /** The ids a read finds, or its status and body when it is refused. */
  const ids = async (query: string) => {
    const reply = await invoke({ method: 'GET', path: '/res/Item', query: `${query}&_output=json` });
    if (reply.status !== 200) return { status: reply.status, body: reply.body };
    return JSON.parse(reply.body).items.map((row: { id: number }) => row.id);
  };

  it.each(hostile)('filter values %j are compared, never executed: a tautology finds no row', async (value) => {
    const refused = { status: 400, body: expect.stringMatching(/^The database rejected a value/) };
    // PostgreSQL refuses a NUL in text; every other value is only ever compared
    const or = (found: number[]) => (target.engine === 'postgres' && value === '\u0000' ? refused : found);
    expect(await ids(`name=${enc(value)}`)).toEqual(or([]));
    expect(await ids(`name=(${enc(value)},apple)`)).toEqual(or([1]));
    expect(await ids(`note=${enc(`%${value}`)}`)).toEqual(or([]));
    expect(await ids(`name=${enc(`${value}%`)}`)).toEqual(or([]));
    expect(await ids(`name=!${enc(value)}`)).toEqual(or([1, 2, 3, 4]));
    // not a number: refused, unless it holds a %, which makes it a LIKE on the id's text
    expect(await ids(`id=${enc(value)}`)).toEqual(value.includes('%') ? [] : expect.objectContaining({ status: 400 }));
  });

  it.each(hostile)('path keys %j are converted or refused', async (value) => {
    for (const method of ['GET', 'DELETE']) {
      const reply = await invoke({ method, path: `/res/Item/${enc(value)}` });
      expect(reply.status).toBe(400);
      const pair = await invoke({ method, path: `/res/Pair/${enc(value)}/1` });
      // a text key is compared as a value; PostgreSQL refuses NUL in text with a 400
      expect([200, 400]).toContain(pair.status);
    }
  });

  it.each(hostile)('form, XML and JSON values %j are stored verbatim', async (value) => {
    if (value === '\u0000') return; // NUL cannot be stored in PostgreSQL text; covered by the 4xx/200 tests above
    const reply = await invoke({
      method: 'PUT',
      path: '/res/Item/1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `note=${enc(value)}`,
    });
    expect(reply.status).toBe(200);
    const json = await invoke({
      method: 'PUT',
      path: '/res/Item',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ id: 2, note: value }] }),
    });
    expect(json.status).toBe(200);
    const attr = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    const xml = await invoke({
      method: 'PUT',
      path: '/res/Item',
      headers: { 'content-type': 'application/xml' },
      body: `<request><item id="3" note="${attr}"/></request>`,
    });
    expect(xml.status).toBe(200);
    const read = await invoke({ method: 'GET', path: '/res/Item', query: 'id=(1,2,3)&_output=json' });
    expect(JSON.parse(read.body).items.map((r: { note: string }) => r.note)).toEqual([value, value, value]);
  });

  it('hostile field names and resource names are 4xx', async () => {
    const badField = await invoke({ method: 'GET', path: '/res/Item', query: `${enc('name; DROP TABLE item')}=1` });
    expect(badField.status).toBe(400);
    const body = JSON.stringify({ items: [{ 'name" = 1; DROP TABLE item; --': 'x' }] });
    const badBody = await invoke({
      method: 'POST',
      path: '/res/Item',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(badBody.status).toBe(400);
    const badName = await invoke({ method: 'GET', path: `/res/${enc("Item'; DROP TABLE item; --")}` });
    expect(badName.status).toBe(404);
  });
});
