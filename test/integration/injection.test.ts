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

  it.each(hostile)('filter values %j are compared, never executed', async (value) => {
    for (const query of [
      `name=${enc(value)}`,
      `name=(${enc(value)},apple)`,
      `note=${enc(`%${value}`)}`,
      `name=!${enc(value)}`,
      `id=${enc(value)}`,
    ]) {
      const reply = await invoke({ method: 'GET', path: '/res/Item', query });
      expect([200, 400]).toContain(reply.status);
    }
    const ne = await invoke({ method: 'GET', path: '/res/Item', query: `name=!${enc(value)}&_output=json` });
    if (ne.status === 200) expect(JSON.parse(ne.body).items).toHaveLength(4);
    else expect(ne.body).toMatch(/^The database rejected a value/); // PostgreSQL: no NUL in text
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
