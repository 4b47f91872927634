/**
 * C1, C2, U1, U2, U3, D1, D2, D3 on a flat resource with an extension table, through the real handlers, on
 * every database: rowsAffected exactly (D16, D16a), the effect verified by a read after the write, one
 * transaction per request (D14), generated keys echoed (D15), guards (D18) and write errors (D19).
 */
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, parseXml } from '../support/service';

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const json = { 'content-type': 'application/json' };
const xml = { 'content-type': 'application/xml' };

async function readJson(path: string, query = ''): Promise<Record<string, unknown>[]> {
  const reply = await invoke({ method: 'GET', path, query: query ? `${query}&_output=json` : '_output=json' });
  expect(reply.status).toBe(200);
  return JSON.parse(reply.body).items ?? JSON.parse(reply.body).pairList;
}

function writeXml(body: string): { rowsAffected: string; rows: Record<string, string>[] } {
  const doc = parseXml(body).writeResponse as Record<string, unknown>;
  return { rowsAffected: doc.rowsAffected as string, rows: (doc.item as Record<string, string>[]) ?? [] };
}

describe.each(targets())('writes on $name', (target) => {
  const fx = useFixture(target);

  it('C1 inserts one form row and echoes it with its generated id (spec 4.3, D15)', async () => {
    const reply = await invoke({
      method: 'POST',
      path: '/res/Item',
      headers: form,
      body: 'name=fig&price=2.5&active=true&born=2024-01-02',
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/xml');
    const { rowsAffected, rows } = writeXml(reply.body);
    expect(rowsAffected).toBe('1');
    expect(rows).toEqual([{ id: '101', name: 'fig', price: '2.50', active: 'true', born: '2024-01-02' }]);
    expect(await readJson('/res/Item/101')).toMatchObject([{ id: 101, name: 'fig', price: 2.5, color: null }]);
  });

  it('C1 with extension fields writes the extension row too and counts it (D16a)', async () => {
    const reply = await invoke({
      method: 'POST',
      path: '/res/Item',
      headers: { ...form, accept: 'application/json' },
      body: 'name=kiwi&color=green&note=null',
    });
    expect(JSON.parse(reply.body)).toMatchObject({
      rowsAffected: 2,
      items: [{ id: 101, name: 'kiwi', color: 'green', tag: null, note: null }],
    });
    expect(await fx.count('item_ext', 'item_id = 101')).toBe(1);
  });

  it('C1 form values: null sets NULL, \\null is the text (D6, D10)', async () => {
    await invoke({ method: 'POST', path: '/res/Item', headers: form, body: 'name=n1&note=null' });
    await invoke({ method: 'POST', path: '/res/Item', headers: form, body: 'name=n2&note=%5Cnull' });
    expect(await readJson('/res/Item', 'name=(n1,n2)')).toMatchObject([{ note: null }, { note: 'null' }]);
  });

  it.each([
    ['%5C!Hello', '!Hello'],
    ['%5C!null', '!null'],
    ['%5Cnull', 'null'],
    ['%5C%5Cx', '\\x'],
    ['%5C(a,b)', '(a,b)'],
    ['%5C%3E3', '>3'],
    ['%5C%3C3', '<3'],
    ['a%5Cb', 'a\\b'],
    ['!x', '!x'],
  ])('C1, U2 and U3 form value %s stores %p: the same escape as query strings (D6)', async (raw, stored) => {
    const created = await invoke({ method: 'POST', path: '/res/Item', headers: form, body: `name=e1&note=${raw}` });
    expect(created.status).toBe(200);
    expect(await readJson('/res/Item', 'name=e1')).toMatchObject([{ note: stored }]);
    await invoke({ method: 'PUT', path: '/res/Item', query: 'id=2', headers: form, body: `note=${raw}` });
    await invoke({ method: 'PUT', path: '/res/Item/3', headers: form, body: `name=${raw}` });
    expect(await readJson('/res/Item', 'id=(2,3)')).toMatchObject([{ note: stored }, { name: stored }]);
  });

  it('C2 inserts many JSON rows; a JSON write answers JSON (D12) with every row as stored', async () => {
    const body = JSON.stringify({
      items: [
        { name: 'g1', price: '1.10', big: '12345678901234567890'.slice(0, 18) },
        { name: 'g2', tag: 'x' },
      ],
    });
    const reply = await invoke({ method: 'POST', path: '/res/Item', headers: json, body });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    const parsed = JSON.parse(reply.body);
    expect(parsed.rowsAffected).toBe(3);
    expect(parsed.items).toHaveLength(2);
    expect(parsed.items[0]).toMatchObject({ id: 101, name: 'g1', price: 1.1, color: null });
    expect(reply.body).toContain('"big":123456789012345678');
    expect(parsed.items[1]).toMatchObject({ id: 102, name: 'g2', price: 0, tag: 'x' });
    expect(await readJson('/res/Item', 'id=%3E100')).toHaveLength(2);
  });

  it.each([
    ['<!DOCTYPE request [<!ENTITY a "x">]><request><item name="&a;"/></request>', /declares a DOCTYPE/],
    ['<request><item name="&undefined;"/></request>', /uses "&undefined;"/],
    ['<request><item name="&copy;"/></request>', /uses "&copy;"/],
  ])('C2 with a DTD or an undefined entity is a 400 and stores nothing: %s', async (body, message) => {
    const reply = await invoke({ method: 'POST', path: '/res/Item', headers: xml, body });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatch(message);
    expect(await fx.count('item')).toBe(4);
  });

  it('C2 inserts XML rows', async () => {
    const reply = await invoke({
      method: 'POST',
      path: '/res/Pair',
      headers: xml,
      body: '<request><pair code="QQQ" num="5" label="x &amp; y"/><pair code="QQQ" num="6"/></request>',
    });
    expect(reply.status).toBe(200);
    const doc = parseXml(reply.body).writeResponse as Record<string, unknown>;
    expect(doc.rowsAffected).toBe('2');
    expect(doc.pair).toEqual([
      { code: 'QQQ', num: '5', label: 'x & y' },
      { code: 'QQQ', num: '6' },
    ]);
    expect(await readJson('/res/Pair/QQQ/5')).toEqual([{ code: 'QQQ', num: 5, label: 'x & y' }]);
  });

  it('C2 whose last row violates a constraint writes nothing at all (D14) and answers 409 naming the field', async () => {
    const body = JSON.stringify({ items: [{ name: 't1', color: 'blue' }, { name: 't2' }, { name: 'apple' }] });
    const reply = await invoke({ method: 'POST', path: '/res/Item', headers: json, body });
    expect(reply.status).toBe(409);
    expect(reply.body).toMatch(/name/);
    expect(await fx.count('item')).toBe(4);
    expect(await fx.count('item_ext')).toBe(2);
  });

  it('a CHECK violation on a late row is a 400 and rolls back (D14)', async () => {
    const body = '<request><item name="c1"/><item name="c2" qty="-1"/></request>';
    const reply = await invoke({ method: 'POST', path: '/res/Item', headers: xml, body });
    expect(reply.status).toBe(400);
    expect(await fx.count('item')).toBe(4);
  });

  it.each([
    ['name=', /name.*minLength=1/],
    ['name=ok&color=Red', /color.*regex/],
    ['name=ok&qty=5000', /qty.*maxValue=1000/],
    ['name=ok&double_price=1', /double_price.*read-only/],
    ['name=ok&nosuch=1', /Unknown field nosuch/],
    ['name=ok&price=cheap', /Could not convert price value "cheap" to number/],
    ['name=ok&active=maybe', /active/],
  ])('C1 %s → 400 and nothing written (D1 validatedAttribute, D13, D18)', async (body, message) => {
    const reply = await invoke({ method: 'POST', path: '/res/Item', headers: form, body });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatch(message);
    expect(await fx.count('item')).toBe(4);
  });

  it('U1 updates JSON rows by key, extension fields included (creating a missing extension row)', async () => {
    const body = JSON.stringify({
      items: [
        { id: 1, price: '9.99', color: 'pink' },
        { id: 2, tag: 'new' },
        { id: 999, price: 1 },
      ],
    });
    const reply = await invoke({ method: 'PUT', path: '/res/Item', headers: json, body });
    expect(reply.status).toBe(200);
    // item 1: item + item_ext; item 2: item_ext created; item 999: nothing
    expect(JSON.parse(reply.body)).toEqual({ rowsAffected: 3 });
    expect(await readJson('/res/Item', 'id=(1,2)')).toMatchObject([
      { id: 1, price: 9.99, color: 'pink', tag: 'fruit' },
      { id: 2, price: 0, color: null, tag: 'new' },
    ]);
  });

  it('U1 updates XML rows; a row without its key is a 400 and nothing changes (D18)', async () => {
    const ok = await invoke({
      method: 'PUT',
      path: '/res/Pair',
      headers: xml,
      body: '<request><pair code="ABC" num="2" label="zwei"/></request>',
    });
    expect(writeXml(ok.body).rowsAffected).toBe('1');
    expect(await readJson('/res/Pair/ABC/2')).toEqual([{ code: 'ABC', num: 2, label: 'zwei' }]);
    const bad = await invoke({
      method: 'PUT',
      path: '/res/Pair',
      headers: xml,
      body: '<request><pair code="ABC" num="1" label="x"/><pair code="ABC" label="y"/></request>',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatch(/Row 2 lacks its key.*code, num/);
    expect(await readJson('/res/Pair/ABC/1')).toEqual([{ code: 'ABC', num: 1, label: 'first' }]);
  });

  it('U2 updates the rows a filter matches, counting unchanged matches too (D16)', async () => {
    const reply = await invoke({
      method: 'PUT',
      path: '/res/Item',
      query: 'price=%3C2',
      headers: form,
      body: 'note=cheap',
    });
    expect(writeXml(reply.body).rowsAffected).toBe('2');
    const again = await invoke({
      method: 'PUT',
      path: '/res/Item',
      query: 'price=%3C2',
      headers: form,
      body: 'note=cheap',
    });
    expect(writeXml(again.body).rowsAffected).toBe('2');
    expect((await readJson('/res/Item', 'note=cheap')).map((r) => r.id)).toEqual([1, 2]);
  });

  it('U2 on an extension field filters on the joined row and upserts extension rows', async () => {
    const reply = await invoke({
      method: 'PUT',
      path: '/res/Item',
      query: 'name=%25a%25',
      headers: form,
      body: 'tag=has-a',
    });
    // apple (has ext), banana (no ext), cherry (has ext): 3 extension rows written
    expect(writeXml(reply.body).rowsAffected).toBe('3');
    expect((await readJson('/res/Item', 'tag=has-a')).map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('U3 updates the row in the path: 1 when found, 0 when not (spec 4.4)', async () => {
    const found = await invoke({ method: 'PUT', path: '/res/Item/2', headers: form, body: 'qty=42&note=null' });
    expect(writeXml(found.body).rowsAffected).toBe('1');
    expect(await readJson('/res/Item/2')).toMatchObject([{ qty: 42, note: null }]);
    const missing = await invoke({ method: 'PUT', path: '/res/Item/999', headers: form, body: 'qty=1' });
    expect(missing.status).toBe(200);
    expect(writeXml(missing.body).rowsAffected).toBe('0');
    const compound = await invoke({ method: 'PUT', path: '/res/Pair/XYZ/1', headers: form, body: 'label=drei' });
    expect(writeXml(compound.body).rowsAffected).toBe('1');
    expect(await readJson('/res/Pair/XYZ/1')).toEqual([{ code: 'XYZ', num: 1, label: 'drei' }]);
  });

  it.each([
    [{ method: 'PUT', path: '/res/Item', headers: form, body: 'note=x' }, 400, /Refusing to update every row/],
    [{ method: 'PUT', path: '/res/Item', query: 'id=1' }, 400, /PUT needs a body/],
    [{ method: 'DELETE', path: '/res/Item' }, 400, /Refusing to delete every row/],
    [{ method: 'PUT', path: '/res/Item', query: '_limit=1', headers: form, body: 'note=x' }, 400, /_limit/],
    [{ method: 'PUT', path: '/res/Item', headers: json, body: '{"items":[{"id":1}]}' }, 400, /only its key/],
    [{ method: 'PUT', path: '/res/Item', headers: json, body: '{"items":[{"id":1,' }, 400, /malformed/i],
    [{ method: 'POST', path: '/res/Item', headers: xml, body: '<request><item name="a"></request>' }, 400, /line 1/],
    [{ method: 'POST', path: '/res/Item', headers: xml, body: '<request><thing name="a"/></request>' }, 400, /thing/],
    [
      { method: 'POST', path: '/res/Item', headers: { 'content-type': 'text/plain' }, body: 'x' },
      415,
      /application\/json/,
    ],
    [{ method: 'POST', path: '/res/Item/1', headers: json, body: '{"items":[]}' }, 400, /flat/],
    [{ method: 'DELETE', path: '/res/Item', headers: form, body: 'id=1' }, 400, /not form/],
    [{ method: 'PATCH', path: '/res/Item' }, 405, /PATCH/],
  ])('guard %#: %j → %i (D18, D19)', async (call, status, message) => {
    const reply = await invoke(call);
    expect(reply.status).toBe(status);
    expect(reply.body).toMatch(message);
    expect(await fx.count('item')).toBe(4);
    expect(await readJson('/res/Item/1')).toMatchObject([{ note: 'crisp' }]);
  });

  it('405 carries an Allow header', async () => {
    const reply = await invoke({ method: 'PATCH', path: '/res/Item/1' });
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('GET, HEAD, POST, PUT, DELETE');
  });

  it('D1 deletes the rows listed in the body with their extension rows (D16a)', async () => {
    const reply = await invoke({
      method: 'DELETE',
      path: '/res/Item',
      headers: json,
      body: '{"items":[{"id":1},{"id":2},{"id":998}]}',
    });
    // item 1 + its extension row, item 2
    expect(JSON.parse(reply.body)).toEqual({ rowsAffected: 3 });
    expect((await readJson('/res/Item')).map((r) => r.id)).toEqual([3, 4]);
    const compound = await invoke({
      method: 'DELETE',
      path: '/res/Pair',
      headers: xml,
      body: '<request><pair code="ABC" num="1"/></request>',
    });
    expect(writeXml(compound.body).rowsAffected).toBe('1');
  });

  it('D2 deletes the rows a filter matches; D3 the row in the path', async () => {
    const d2 = await invoke({ method: 'DELETE', path: '/res/Item', query: 'price=%3E3' });
    // cherry (+ext) and dürüm
    expect(writeXml(d2.body).rowsAffected).toBe('3');
    const d3 = await invoke({ method: 'DELETE', path: '/res/Item/1', headers: { accept: 'application/json' } });
    expect(JSON.parse(d3.body)).toEqual({ rowsAffected: 2 });
    const none = await invoke({ method: 'DELETE', path: '/res/Item/1' });
    expect(writeXml(none.body).rowsAffected).toBe('0');
    expect((await readJson('/res/Item')).map((r) => r.id)).toEqual([2]);
    const pair = await invoke({ method: 'DELETE', path: '/res/Pair/ABC/2' });
    expect(writeXml(pair.body).rowsAffected).toBe('1');
  });

  it('POST with X-HTTP-Method-Override is PUT or DELETE (D13)', async () => {
    const put = await invoke({
      method: 'POST',
      path: '/res/Item/2',
      headers: { ...form, 'x-http-method-override': 'PUT' },
      body: 'qty=3',
    });
    expect(writeXml(put.body).rowsAffected).toBe('1');
    const del = await invoke({ method: 'POST', path: '/res/Item/2', headers: { 'x-http-method-override': 'delete' } });
    expect(writeXml(del.body).rowsAffected).toBe('1');
    expect(await fx.count('item', 'item_id = 2')).toBe(0);
  });

  it('REST API (v1) events write the same', async () => {
    const reply = await invoke(
      { method: 'PUT', path: '/res/Item', query: 'price=%3E0&price=%3C2', headers: form, body: 'qty=1' },
      'v1',
    );
    expect(writeXml(reply.body).rowsAffected).toBe('1');
  });
});
