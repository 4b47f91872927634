/**
 * A write that is one statement runs without BEGIN and COMMIT: one round trip to the database, counted by a proxy
 * as the chunks the service sends (a client sends again only once answered). Which plans are one statement is a
 * table of cases; writes of several statements keep their transaction, and one whose second statement fails
 * leaves nothing behind. On PGlite, and on each server whose URL is set.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closeDatabases } from '../../lib/db/select-database';
import { isOneStatement } from '../../lib/execute/one-statement';
import type { WritePlan } from '../../lib/plan/plan';
import type { EngineName, SqlResource } from '../../lib/resource';
import { type CountingProxy, countingProxy } from '../support/counting-proxy';
import { type TestDatabase, targets } from '../support/databases';
import { bookResource, engineNames, personTasksResource } from '../support/resources';
import { testData, testSchema } from '../support/schema';
import { invoke, useService } from '../support/service';

describe('which writes are one statement', () => {
  const book = (engine: EngineName, showsEveryRow = true): SqlResource => {
    const resource = bookResource(engine);
    const [only] = Object.entries(resource.tables).filter(([, t]) => t.role === 'Parent');
    return { ...resource, tables: Object.fromEntries(only ? [only] : []), showsEveryRow };
  };
  const row = { parent: { title: 'Dune' }, extensions: [] };
  const byKey = { kind: 'keys', keys: [['1']] } as const;
  const cases: {
    name: string;
    plan: WritePlan;
    resource?: (e: EngineName) => SqlResource;
    postgres: boolean;
    mysql: boolean;
  }[] = [
    {
      name: 'an insert of one row (RETURNING gives it back)',
      plan: { kind: 'insert', rows: [row] },
      postgres: true,
      mysql: false,
    },
    { name: 'an insert of two rows', plan: { kind: 'insert', rows: [row, row] }, postgres: false, mysql: false },
    {
      name: 'an insert with a caller query',
      plan: { kind: 'insert', rows: [row], query: { parts: ['q'], values: [] } },
      postgres: false,
      mysql: false,
    },
    {
      name: 'an insert of no field',
      plan: { kind: 'insert', rows: [{ parent: {}, extensions: [] }] },
      postgres: false,
      mysql: false,
    },
    {
      name: 'an update by key',
      plan: { kind: 'update', updates: [{ target: byKey, parent: { title: 'x' }, extensions: [] }], children: [] },
      postgres: true,
      mysql: true,
    },
    {
      name: 'an update by key of a resource that shows some rows only (checked first)',
      plan: { kind: 'update', updates: [{ target: byKey, parent: { title: 'x' }, extensions: [] }], children: [] },
      resource: (e) => book(e, false),
      postgres: false,
      mysql: false,
    },
    {
      name: 'two updates',
      plan: {
        kind: 'update',
        updates: [
          { target: byKey, parent: { title: 'x' }, extensions: [] },
          { target: byKey, parent: { title: 'y' }, extensions: [] },
        ],
        children: [],
      },
      postgres: false,
      mysql: false,
    },
    { name: 'a delete by key', plan: { kind: 'delete', target: byKey, children: [] }, postgres: true, mysql: true },
    {
      name: 'a delete of 501 keys (two statements)',
      plan: {
        kind: 'delete',
        target: { kind: 'keys', keys: Array.from({ length: 501 }, (_, i) => [String(i)]) },
        children: [],
      },
      postgres: false,
      mysql: false,
    },
    {
      name: 'a write on a resource of two tables',
      plan: { kind: 'delete', target: byKey, children: [] },
      resource: (e) => ({ ...book(e), tables: bookResource(e).tables }),
      postgres: false,
      mysql: false,
    },
    {
      name: 'a write on a hierarchical resource',
      plan: { kind: 'delete', target: byKey, children: [] },
      resource: personTasksResource,
      postgres: false,
      mysql: false,
    },
  ];
  it.each(cases.flatMap((c) => engineNames.map((engine) => ({ ...c, engine }))))('$engine: $name', (c) => {
    const resource = (c.resource ?? book)(c.engine);
    expect(isOneStatement(resource, c.plan)).toBe(c[c.engine]);
  });
});

const definition = (query: string, tables: string) => `<rs:sqlResource xmlns:rs="http://restsql.org/schema">
  <query>${query}</query>
  <metadata>${tables}</metadata>
</rs:sqlResource>
`;

describe.each(targets())('round trips of a write on $name', (target) => {
  let db: TestDatabase;
  let proxy: CountingProxy;
  let folder: string;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  const count = async (where: string) => Number((await db.exec(`SELECT COUNT(*) AS n FROM tag WHERE ${where}`))[0]?.n);
  /** What the request answered, and how many round trips it took to the database. */
  async function roundTrips(call: Parameters<typeof invoke>[0]): Promise<[number, number]> {
    const before = proxy.sent();
    const reply = await invoke(call);
    return [reply.status, proxy.sent() - before];
  }

  beforeAll(async () => {
    db = await target.create();
    for (const statement of testSchema(target.engine)) await db.exec(statement);
    for (const statement of testData(target.engine)) await db.exec(statement);
    folder = mkdtempSync(path.join(tmpdir(), 'rrs-one-statement-'));
    writeFileSync(
      path.join(folder, 'Tag.xml'),
      definition(
        'select tag_id, label, weight from tag',
        '<table name="tag" role="Parent" rowAlias="tag" rowSetAlias="tags"/>',
      ),
    );
    proxy = await countingProxy(db.url);
    await useService({ DATABASE_URL: proxy.url, DEFINITIONS_DIR: folder });
    expect((await invoke({ method: 'GET', path: '/res/Tag/1' })).status).toBe(200); // connects, reads the catalog
  });
  afterAll(async () => {
    await closeDatabases();
    proxy?.close();
    await db?.drop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('an insert of one row: one round trip where the database gives the row back in the same statement', async () => {
    const [status, trips] = await roundTrips({
      method: 'POST',
      path: '/res/Tag',
      headers: form,
      body: 'label=new&weight=2',
    });
    expect(status).toBe(200);
    // MySQL and MariaDB read the row back by its generated key: a statement of its own, so in a transaction
    expect(trips).toBe(target.engine === 'postgres' ? 1 : 4);
    expect(await count("label = 'new'")).toBe(1);
  });

  it('an update and a delete by key: one round trip each', async () => {
    expect(await roundTrips({ method: 'PUT', path: '/res/Tag/2', headers: form, body: 'weight=9' })).toEqual([200, 1]);
    expect(await count('tag_id = 2 AND weight = 9')).toBe(1);
    await db.exec("INSERT INTO tag (tag_id, label, weight) VALUES (90, 'gone', 1)");
    expect(await roundTrips({ method: 'DELETE', path: '/res/Tag/90' })).toEqual([200, 1]);
    expect(await count('tag_id = 90')).toBe(0);
  });

  it('a one-statement write that fails is a clear error and writes nothing', async () => {
    const [status] = await roundTrips({ method: 'PUT', path: '/res/Tag/2', headers: form, body: 'label=fast' });
    expect(status).toBe(409);
    expect(await count("label = 'fast'")).toBe(1);
  });

  it('a write of two statements keeps its transaction: the second failing leaves nothing of the first', async () => {
    const body = JSON.stringify({
      tags: [
        { tag_id: 1, weight: 7 },
        { tag_id: 2, label: 'fast' },
      ],
    });
    const [status, trips] = await roundTrips({ method: 'PUT', path: '/res/Tag', headers: json, body });
    expect(status).toBe(409);
    expect(trips).toBeGreaterThanOrEqual(4); // BEGIN, two UPDATEs, ROLLBACK
    expect(await count('tag_id = 1 AND weight = 3')).toBe(1);
  });
});
