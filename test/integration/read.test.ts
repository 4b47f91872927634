/**
 * Reads by filter and by key on flat resources through the real handlers, on every database: the query grammar,
 * path keys, order and paging, the XML and JSON representations, looking a resource up by name, and the read
 * errors.
 */
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, parseXml } from '../support/service';

const get = (path: string, query = '', headers: Record<string, string> = {}) =>
  invoke({ method: 'GET', path, query, headers });

function xmlRows(body: string, row: string): Record<string, string>[] {
  const doc = parseXml(body).readResponse as Record<string, unknown> | string;
  return typeof doc === 'object' ? ((doc[row] as Record<string, string>[]) ?? []) : [];
}

async function ids(query: string): Promise<string[]> {
  const reply = await get('/res/Item', query);
  expect(reply.status).toBe(200);
  return xmlRows(reply.body, 'item').map((r) => r.id as string);
}

describe.each(targets())('reads on $name', (target) => {
  const fx = useFixture(target);

  it('R1 returns every row in key order as XML by default, NULL attributes omitted (D9, D10)', async () => {
    const reply = await get('/res/Item');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/xml');
    expect(reply.headers['cache-control']).toBe('no-cache, no-transform');
    const rows = xmlRows(reply.body, 'item');
    expect(rows.map((r) => r.id)).toEqual(['1', '2', '3', '4']);
    expect(rows[0]).toEqual({
      id: '1',
      name: 'apple',
      price: '1.50',
      qty: '10',
      big: '9007199254740993',
      ratio: '0.25',
      active: 'true',
      born: '2020-02-29',
      at_time: '08:30:00',
      stamp: '2021-03-04 05:06:07.123456',
      data: 'AP8Q',
      note: 'crisp',
      color: 'red',
      tag: 'fruit',
      double_price: '3.00',
    });
    expect(rows[1]).toEqual({
      id: '2',
      name: 'banana',
      price: '0.00',
      qty: '0',
      big: '-5',
      ratio: '1.5',
      active: 'false',
      double_price: '0.00',
    });
    expect(rows[2]?.name).toBe('cherry & co, "quoted" <tag>');
    expect(rows[3]?.name).toBe('dürüm');
  });

  it('R1 in JSON keeps exact digits, booleans and nulls (D9, D10)', async () => {
    const reply = await get('/res/Item', 'id=2&_output=json');
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.body).toBe(
      '{"items":[{"id":2,"name":"banana","price":0.00,"qty":0,"big":-5,"ratio":1.5,"active":false,"born":null,"at_time":null,' +
        '"stamp":null,"data":null,"note":null,"color":null,"tag":null,"double_price":0.00}]}',
    );
    const apple = await get('/res/Item/1', '', { accept: 'application/json' });
    expect(apple.body).toContain('"big":9007199254740993,');
    expect(apple.body).toContain('"price":1.50,');
  });

  it.each([
    ['name=apple', ['1']],
    ['name=!apple', ['2', '3', '4']],
    ['name=!apple&name=!banana', ['3', '4']],
    ['price=%3E1.5', ['3', '4']],
    ['price=%3E%3D1.5', ['1', '3', '4']],
    ['price=%3C1.5', ['2']],
    ['price=%3C%3D1.5', ['1', '2']],
    ['price=%3E0&price=%3C20', ['1', '4']],
    ['name=(apple,banana,nope)', ['1', '2']],
    ['id=(1,3)', ['1', '3']],
    ['name=%25an%25', ['2']],
    ['name=a%25', ['1']],
    ['note=%25100\\%25', ['3']],
    ['note=a_b', ['4']],
    ['note=a\\_b', []],
    ['note=%25\\_%25', ['4']],
    ['qty=null', ['4']],
    ['qty=!null', ['1', '2', '3']],
    ['born=2020-02-29', ['1']],
    ['active=true', ['1', '4']],
    ['active=0', ['2']],
    ['stamp=%3E2000-01-01', ['1']],
    ['big=9007199254740993', ['1']],
    ['price=%251%25', ['1', '4']],
    ['stamp=%3C2000-01-01+00:00', ['3']],
    ['color=red&price=%3C2', ['1']],
    ['tag=null', ['2', '3', '4']],
    ['name=nothing', []],
    ['_limit=2', ['1', '2']],
    ['_limit=2&_offset=1', ['2', '3']],
    ['_offset=3', ['4']],
    ['_LIMIT=1&_Offset=0', ['1']],
    ['name=cherry+%26+co%2C+%22quoted%22+%3Ctag%3E', ['3']],
  ])('R1 filter %s (D6, D8)', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it.each([
    ['note=%5C(%25', ['2']],
    ['note=%5C(draft)%25', ['2']],
    ['note=%5C(draft)', []],
    ['note=%5C(draft)+x', ['2']],
    ['note=%5C!%25', ['4']],
    ['note=%5C!bang', ['4']],
    ['note=%5C%3C%25', []],
    ['note=(%25', ['2']],
    ['note=!null&note=!crisp', ['2', '3', '4']],
    ['note=!null&note=!crisp&note=!(draft)+x', ['3', '4']],
    ['qty=!null&qty=!0&qty=!7', ['1']],
    ['note=%25%5C', ['3']],
    ['note=%25%5C%5C', ['3']],
    ['note=C:%5Cdir%5C', ['3']],
    ['note=C:%5Cd%25', ['3']],
    ['note=%25%5Cdir%25', ['3']],
  ])('R1 escaped operator characters, backslashes and repeated negations: %s', async (query, expected) => {
    await fx.db.exec("UPDATE item SET note = '(draft) x' WHERE item_id = 2");
    await fx.db.exec("UPDATE item SET note = '!bang' WHERE item_id = 4");
    await fx.db.exec(
      fx.db.engine === 'postgres'
        ? "UPDATE item SET note = 'C:\\dir\\' WHERE item_id = 3"
        : "UPDATE item SET note = 'C:\\\\dir\\\\' WHERE item_id = 3",
    );
    expect(await ids(query)).toEqual(expected);
  });

  it('R1 with no match is an empty readResponse or empty collection (spec 4.2 rule 1, D11)', async () => {
    const xml = await get('/res/Item', 'name=none');
    expect(xml.status).toBe(200);
    expect(parseXml(xml.body).readResponse).toBe('');
    expect(xml.body).toContain('<readResponse/>');
    const json = await get('/res/Item', 'name=none&_output=json');
    expect(JSON.parse(json.body)).toEqual({ items: [] });
  });

  it('R2 reads one row by key, a compound key by slashes, and nothing for a missing key (D7)', async () => {
    expect(xmlRows((await get('/res/Item/3')).body, 'item').map((r) => r.id)).toEqual(['3']);
    const pair = await get('/res/Pair/ABC/2', '_output=json');
    expect(JSON.parse(pair.body)).toEqual({ pairList: [{ code: 'ABC', num: 2, label: 'second' }] });
    expect(pair.headers['cache-control']).toBe('max-age=60');
    const missing = await get('/res/Item/999');
    expect(missing.status).toBe(200);
    expect(xmlRows(missing.body, 'item')).toEqual([]);
    expect(JSON.parse((await get('/res/Pair/ABC/9', '_output=json')).body)).toEqual({ pairList: [] });
  });

  it('a dotted name is a folder (D3) and alias names the row (D2)', async () => {
    const reply = await get('/res/shop.Widget', '_output=json');
    expect(JSON.parse(reply.body)).toEqual({ widgets: [{ id: 1, title: 'sprocket' }] });
  });

  it('a keyless table is ordered by all its fields (D8)', async () => {
    const reply = await get('/res/Loose', '_output=json');
    const rows = JSON.parse(reply.body).looses;
    expect(rows.map((r: { word: string }) => r.word)).toEqual(['a', 'a', 'b']);
    expect(rows[2]).toEqual({ word: 'b', n: 2 });
  });

  it.each([
    ['nosuch=1', 400, /nosuch.*Item/],
    ['double_price=3', 400, /double_price.*computed/],
    ['id=47 or 1=1', 400, /^Could not convert id value "47 or 1=1" to number$/],
    ['id=abc', 400, /Could not convert id value "abc" to number/],
    ['id=(1,,2)', 400, /^Could not convert id value "" to number: empty value in the list$/],
    ['id=(1,%20,2)', 400, /^Could not convert id value " " to number: empty value in the list$/],
    ['born=2023-02-30', 400, /born/],
    ['name=a&name=b', 400, /name/],
    ['_limit=-1', 400, /_limit/],
    ['_output=text', 400, /_output/],
  ])('R1 %s → %i naming the problem (D6, D19)', async (query, status, message) => {
    const reply = await get('/res/Item', query);
    expect(reply.status).toBe(status);
    expect(reply.headers['content-type']).toMatch(/^text\/plain/);
    expect(reply.body).toMatch(message);
  });

  it.each([
    ['/res/Pair/ABC', /2 part/],
    ['/res/Pair/ABC/1/2', /2 part/],
    ['/res/Item/x', /^Could not convert id value "x" to number$/],
  ])('R2 %s → 400 (D7)', async (path, message) => {
    const reply = await get(path);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatch(message);
  });

  it.each([
    ['/res', 'x'.repeat(300)],
    ['/res', `a.${'y'.repeat(260)}.b`],
    ['/res', 'z'.repeat(5000)],
    ['/conf/metadata', 'x'.repeat(300)],
    ['/conf/definition', 'w'.repeat(4200)],
  ])('%s/ with a name longer than the file system allows is the unknown-resource 404', async (prefix, name) => {
    const reply = await get(`${prefix}/${name}`);
    expect(reply.status).toBe(404);
    expect(reply.body).toBe(
      `SQL Resource ${name} not found - expected ${process.env.DEFINITIONS_DIR}/${name.split('.').join('/')}.xml`,
    );
  });

  it('an unknown resource is the exact 404, also for names that can never be a file', async () => {
    const reply = await get('/res/Nope');
    expect(reply.status).toBe(404);
    expect(reply.body).toBe(`SQL Resource Nope not found - expected ${process.env.DEFINITIONS_DIR}/Nope.xml`);
    const outside = await get('/res/..%2Fetc');
    expect(outside.status).toBe(404);
    expect(outside.body).toBe(`SQL Resource ../etc not found - expected ${process.env.DEFINITIONS_DIR}////etc.xml`);
    const nested = await get('/res/a.b.Nope');
    expect(nested.body).toBe(`SQL Resource a.b.Nope not found - expected ${process.env.DEFINITIONS_DIR}/a/b/Nope.xml`);
  });

  it('a broken definition is a 500 naming the file and the problem (D1)', async () => {
    const reply = await get('/res/Broken');
    expect(reply.status).toBe(500);
    expect(reply.body).toMatch(/Broken\.xml.*label.*pair.*not declared/);
  });

  it('negotiates the response type (D12) and answers problem+json on request (D19)', async () => {
    expect((await get('/res/Item/1', '', { accept: 'application/json' })).headers['content-type']).toBe(
      'application/json',
    );
    expect(
      (await get('/res/Item/1', '', { accept: 'application/json;q=0.5, application/xml' })).headers['content-type'],
    ).toBe('application/xml');
    expect(
      (await get('/res/Item/1', '', { accept: 'application/json, application/xml' })).headers['content-type'],
    ).toBe('application/xml');
    expect((await get('/res/Item/1', '_output=json', { accept: 'application/xml' })).headers['content-type']).toBe(
      'application/json',
    );
    const refused = await get('/res/Item/1', '', { accept: 'text/plain' });
    expect(refused.status).toBe(406);
    expect(refused.body).toMatch(/application\/xml or application\/json/);
    const problem = await get('/res/Item', 'nosuch=1', { accept: 'application/problem+json' });
    expect(problem.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(problem.body)).toMatchObject({ status: 400, code: 'bad_parameter', title: 'Bad Request' });
  });

  it('REST API (v1) events read the same, repeated parameters included', async () => {
    const reply = await invoke(
      { method: 'GET', path: '/res/Item', query: 'price=%3E0&price=%3C20&_output=json' },
      'v1',
    );
    expect(JSON.parse(reply.body).items.map((r: { id: number }) => r.id)).toEqual([1, 4]);
  });
});
