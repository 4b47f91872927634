/**
 * Reads stop at a cap (D26), through the real handlers on every database: without `_limit`, a read that has more
 * rows than MAX_ROWS (or the definition's own `<limits maxRows>`, lower or higher) is a 413 that says how to page;
 * `_limit` above the cap is a 400 naming it; a page of the same rows is served. On a hierarchical resource the cap
 * counts the flat parent-child rows, as `_limit` does. The result-size limit holds while rows arrive: wide rows are
 * a 413, and a hierarchical parent's values are counted once, as the body writes them (a result that fits is never
 * refused because its parent repeats on every joined row).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeDatabases } from '../../lib/db/select-database';
import { type TestDatabase, targets } from '../support/databases';
import { invoke, useService } from '../support/service';

const NUMBERED = 1000;
const LONG = 'x'.repeat(6000);

const schema = [
  'CREATE TABLE numbered (id int primary key, label varchar(20) NOT NULL)',
  'CREATE TABLE wide (id int primary key, body text NOT NULL)',
  'CREATE TABLE shelf (id int primary key, about text NOT NULL)',
  'CREATE TABLE slot (id int primary key, shelf_id int NOT NULL REFERENCES shelf (id), tag varchar(10))',
];

const data = [
  `INSERT INTO numbered (id, label) VALUES ${Array.from({ length: NUMBERED }, (_, i) => `(${i + 1}, 'n${i + 1}')`).join(', ')}`,
  `INSERT INTO wide (id, body) VALUES ${Array.from({ length: 30 }, (_, i) => `(${i + 1}, '${'w'.repeat(3000)}')`).join(', ')}`,
  `INSERT INTO shelf (id, about) VALUES (1, '${LONG}'), (2, '${LONG}'), (3, '${LONG}')`,
  `INSERT INTO slot (id, shelf_id, tag) VALUES ${Array.from({ length: 12 }, (_, i) => `(${i + 1}, ${1 + Math.floor(i / 4)}, 't${i + 1}')`).join(', ')}`,
];

const flat = (query: string, table: string, extra = '') =>
  `<sqlResource><query>${query}</query>${extra}<metadata><table name="${table}" role="Parent"/></metadata></sqlResource>`;
const shelves = (extra: string) =>
  `<sqlResource><query>select s.id, s.about, t.id as slot_id, t.tag from shelf s left join slot t on t.shelf_id = s.id</query>${extra}<metadata><table name="shelf" role="Parent"/><table name="slot" role="Child"/></metadata></sqlResource>`;

const definitions: Record<string, string> = {
  Numbered: flat('select id, label from numbered', 'numbered'),
  NumberedFew: flat('select id, label from numbered', 'numbered', '<limits maxRows="100"/>'),
  NumberedMany: flat('select id, label from numbered', 'numbered', '<limits maxRows="2000"/>'),
  Wide: flat('select id, body from wide', 'wide'),
  Shelves: shelves('<limits maxRows="10"/>'),
  AllShelves: shelves(''),
};

async function get(resource: string, query = '') {
  const reply = await invoke({
    method: 'GET',
    path: `/res/${resource}`,
    query,
    headers: { accept: 'application/json, application/problem+json' },
  });
  const body = reply.headers['content-type']?.includes('json') ? JSON.parse(reply.body) : reply.body;
  return { status: reply.status, body };
}

describe.each(targets())('reads stop at a cap, on $name', (target) => {
  let db: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    db = await target.create();
    for (const statement of [...schema, ...data]) await db.exec(statement);
    dir = mkdtempSync(path.join(os.tmpdir(), 'rrs-cap-'));
    for (const [name, xml] of Object.entries(definitions)) writeFileSync(path.join(dir, `${name}.xml`), xml);
    await useService({ DATABASE_URL: db.url, DEFINITIONS_DIR: dir, MAX_ROWS: '500', MAX_RESULT_BYTES: '60000' });
  });
  afterAll(async () => {
    await useService({ MAX_ROWS: undefined, MAX_RESULT_BYTES: undefined });
    await closeDatabases();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('without _limit, more rows than MAX_ROWS is a 413 that says how to page', async () => {
    const reply = await get('Numbered');
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({
      code: 'too_many_rows',
      detail:
        'Resource Numbered has more than 500 rows for this read, the most one read returns; ask for a page with _limit (at most 500) and _offset, or narrow the read with filters',
    });
  });

  it('exactly the cap is served; one more is a 413; pages and filters bring a read under it', async () => {
    expect((await get('Numbered', 'id=<=500')).body.numbereds).toHaveLength(500);
    expect((await get('Numbered', 'id=<=501')).status).toBe(413);
    const page = await get('Numbered', '_limit=500&_offset=900');
    expect(page.status).toBe(200);
    expect(page.body.numbereds.map((row: { id: number }) => Number(row.id))).toEqual(
      Array.from({ length: 100 }, (_, i) => 901 + i),
    );
    expect((await get('Numbered', '_offset=600')).body.numbereds).toHaveLength(400);
    expect((await get('Numbered', '_limit=0')).body.numbereds).toEqual([]);
  });

  it('_limit above the cap is a 400 naming it', async () => {
    expect(await get('Numbered', '_limit=501')).toMatchObject({
      status: 400,
      body: {
        code: 'limit_too_large',
        detail:
          'Parameter _limit is 501, above 500, the most rows resource Numbered returns at once; page with _limit and _offset',
      },
    });
  });

  it("a definition's own cap holds, lower or higher than MAX_ROWS", async () => {
    const few = await get('NumberedFew');
    expect(few.status).toBe(413);
    expect(few.body.detail).toContain('more than 100 rows');
    expect((await get('NumberedFew', '_limit=101')).body.detail).toContain('above 100');
    expect((await get('NumberedFew', '_limit=100')).body.numbereds).toHaveLength(100);
    const many = await get('NumberedMany');
    expect(many.status).toBe(200);
    expect(many.body.numbereds).toHaveLength(NUMBERED);
    expect((await get('NumberedMany', '_limit=2000')).status).toBe(200);
  });

  it('wide rows over MAX_RESULT_BYTES are a 413; a page of them is served', async () => {
    expect(await get('Wide')).toMatchObject({ status: 413, body: { code: 'result_too_large' } });
    const xml = await invoke({ method: 'GET', path: '/res/Wide', headers: { accept: 'application/xml' } });
    expect(xml.status).toBe(413);
    const page = await get('Wide', '_limit=15');
    expect(page.status).toBe(200);
    expect(page.body.wides).toHaveLength(15);
  });

  it('hierarchical: the cap counts the flat parent-child rows, as _limit does', async () => {
    const reply = await get('Shelves');
    expect(reply.status).toBe(413);
    expect(reply.body.code).toBe('too_many_rows');
    const page = await get('Shelves', '_limit=10');
    expect(page.status).toBe(200);
    expect(page.body.shelfs.map((s: { slots: unknown[] }) => s.slots.length)).toEqual([4, 4, 2]);
    expect((await get('Shelves', 'id=<=2')).body.shelfs).toHaveLength(2);
  });

  it("hierarchical: a parent's values count once, as the body writes them", async () => {
    // 12 joined rows repeat 6,000 characters each (72,000 > 60,000); the body holds them three times (18,000)
    const reply = await get('AllShelves');
    expect(reply.status).toBe(200);
    expect(reply.body.shelfs.map((s: { about: string }) => s.about)).toEqual([LONG, LONG, LONG]);
  });
});
