/**
 * A write that is one statement runs without BEGIN and COMMIT: one round trip to the database, counted by a proxy
 * as the chunks the service sends (a client sends again only once answered). Which plans are one statement is a
 * table of cases; writes of several statements keep their transaction, and one whose second statement fails
 * leaves nothing behind. On PGlite, and on each server whose URL is set.
 */
import { engineNamed } from '../../lib/db/engines/registry';
import { closeDatabases } from '../../lib/db/select-database';
import { isOneStatement } from '../../lib/execute/one-statement';
import type { WritePlan } from '../../lib/plan/plan';
import type { EngineName, SqlResource } from '../../lib/resource';
import { type CountingProxy, countingProxy } from '../support/counting-proxy';
import { type TestDatabase, targets } from '../support/databases';
import { type DefinitionFolder, definitionFolder, tagDefinition } from '../support/definition-folder';
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
    oneStatement: boolean | 'where it returns';
  }[] = [
    {
      name: 'an insert of one row (where RETURNING gives it back)',
      plan: { kind: 'insert', rows: [row] },
      oneStatement: 'where it returns',
    },
    { name: 'an insert of two rows', plan: { kind: 'insert', rows: [row, row] }, oneStatement: false },
    {
      name: 'an insert with a caller query',
      plan: { kind: 'insert', rows: [row], query: { parts: ['q'], values: [] } },
      oneStatement: false,
    },
    {
      name: 'an insert of no field',
      plan: { kind: 'insert', rows: [{ parent: {}, extensions: [] }] },
      oneStatement: false,
    },
    {
      name: 'an update by key',
      plan: { kind: 'update', updates: [{ target: byKey, parent: { title: 'x' }, extensions: [] }], children: [] },
      oneStatement: true,
    },
    {
      name: 'an update by key of a resource that shows some rows only (checked first)',
      plan: { kind: 'update', updates: [{ target: byKey, parent: { title: 'x' }, extensions: [] }], children: [] },
      resource: (e) => book(e, false),
      oneStatement: false,
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
      oneStatement: false,
    },
    { name: 'a delete by key', plan: { kind: 'delete', target: byKey, children: [] }, oneStatement: true },
    {
      name: 'a delete of 501 keys (two statements)',
      plan: {
        kind: 'delete',
        target: { kind: 'keys', keys: Array.from({ length: 501 }, (_, i) => [String(i)]) },
        children: [],
      },
      oneStatement: false,
    },
    {
      name: 'a write on a resource of two tables',
      plan: { kind: 'delete', target: byKey, children: [] },
      resource: (e) => ({ ...book(e), tables: bookResource(e).tables }),
      oneStatement: false,
    },
    {
      name: 'a write on a hierarchical resource',
      plan: { kind: 'delete', target: byKey, children: [] },
      resource: personTasksResource,
      oneStatement: false,
    },
  ];
  const where = engineNames.flatMap((engine) => [true, false].map((insertsReturn) => ({ engine, insertsReturn })));
  it.each(cases.flatMap((c) => where.map((w) => ({ ...c, ...w }))))(
    '$engine, inserts return $insertsReturn: $name',
    (c) => {
      const resource = (c.resource ?? book)(c.engine);
      const expected = c.oneStatement === 'where it returns' ? c.insertsReturn : c.oneStatement;
      expect(isOneStatement(resource, c.plan, c.insertsReturn)).toBe(expected);
    },
  );
});

/** MariaDB 10.5+ takes INSERT ... RETURNING; MySQL does not (PostgreSQL always does). */
async function insertsReturn(db: TestDatabase): Promise<boolean> {
  const version = String((await db.exec('SELECT VERSION() AS v'))[0]?.v);
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  return /mariadb/i.test(version) && (major > 10 || (major === 10 && minor >= 5));
}

describe.each(targets())('round trips of a write on $name', (target) => {
  let db: TestDatabase;
  let proxy: CountingProxy;
  let folder: DefinitionFolder;
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
    folder = definitionFolder('one-statement', {
      Tag: tagDefinition,
      TagEvents: { ...tagDefinition, more: '  <events on="insert"/>\n' },
    });
    for (const statement of engineNamed(target.engine).sql.eventTables) await db.exec(statement);
    proxy = await countingProxy(db.url);
    await useService({ DATABASE_URL: proxy.url, DEFINITIONS_DIR: folder.path });
    expect((await invoke({ method: 'GET', path: '/res/Tag/1' })).status).toBe(200); // connects, reads the catalog
  });
  afterAll(async () => {
    await closeDatabases();
    proxy?.close();
    await db?.drop();
    folder?.remove();
  });

  it('an insert of one row: one round trip where the database gives the row back in the same statement', async () => {
    const [status, trips] = await roundTrips({
      method: 'POST',
      path: '/res/Tag',
      headers: form,
      body: 'label=new&weight=2',
    });
    expect(status).toBe(200);
    // PostgreSQL and MariaDB 10.5+ give it back (RETURNING); MySQL reads it back by its key, in a transaction
    expect(trips).toBe(target.engine === 'postgres' || (await insertsReturn(db)) ? 1 : 4);
    expect(await count("label = 'new'")).toBe(1);
    // the row as stored comes back, its generated key with it
    const echo = await invoke({ method: 'POST', path: '/res/Tag', headers: json, body: '{"tags":[{"label":"echo"}]}' });
    const stored = await db.exec("SELECT tag_id FROM tag WHERE label = 'echo'");
    expect(JSON.parse(echo.body)).toEqual({
      rowsAffected: 1,
      tags: [{ tag_id: Number(stored[0]?.tag_id), label: 'echo', weight: null }],
    });
  });

  it('an insert of one row with change events, statements prepared (the server mode): one round trip', async () => {
    await useService({ DATABASE_URL: proxy.url, DEFINITIONS_DIR: folder.path, DB_PREPARE: 'true', DB_POOL_SIZE: '1' });
    try {
      const insert = (label: string) =>
        roundTrips({ method: 'POST', path: '/res/TagEvents', headers: form, body: `label=${label}` });
      // the first prepares the statement on the connection (MariaDB: a round trip of its own)
      expect((await insert('prepared-1'))[0]).toBe(200);
      // MariaDB: one compound statement that holds its own transaction and adds the event from the stored row
      expect(await insert('prepared-2')).toEqual([200, 1]);
      const events = await db.exec('SELECT event FROM rrs_events ORDER BY seq');
      const stored = await db.exec("SELECT tag_id FROM tag WHERE label = 'prepared-2'");
      expect(JSON.parse(String(events[events.length - 1]?.event))).toMatchObject({
        subject: String(stored[0]?.tag_id),
        data: { after: { tag_id: Number(stored[0]?.tag_id), label: 'prepared-2', weight: null } },
      });
    } finally {
      await db.exec('DELETE FROM rrs_events');
      await useService({ DB_PREPARE: undefined, DB_POOL_SIZE: undefined });
      // connects again, and reads the catalog again, before the next test counts its round trips
      for (const name of ['Tag', 'TagEvents'])
        expect((await invoke({ method: 'GET', path: `/res/${name}/1` })).status).toBe(200);
    }
  });

  it('an insert of one row with change events: one round trip more at most, none on PostgreSQL', async () => {
    expect((await invoke({ method: 'GET', path: '/res/TagEvents/1' })).status).toBe(200); // reads the catalog
    const [status, trips] = await roundTrips({
      method: 'POST',
      path: '/res/TagEvents',
      headers: form,
      body: 'label=ev',
    });
    expect(status).toBe(200);
    // PostgreSQL: the INSERT adds its event to the outbox in the same statement (WITH ... INSERT), one round trip as
    // without events. MariaDB, its statements not prepared (Lambda, npm start): a transaction of two compound
    // statements, START TRANSACTION with the INSERT and the outbox's INSERT with the COMMIT (MySQL, which has no
    // compound statements, would send four).
    expect(trips).toBe(target.engine === 'postgres' ? 1 : 2);
    expect(await count("label = 'ev'")).toBe(1);
    const [event, more] = await db.exec('SELECT event FROM rrs_events');
    expect(more).toBeUndefined();
    const stored = await db.exec("SELECT tag_id FROM tag WHERE label = 'ev'");
    expect(JSON.parse(String(event?.event))).toMatchObject({
      type: 'TagEvents.inserted',
      subject: String(stored[0]?.tag_id),
      data: { table: 'tag', after: { tag_id: Number(stored[0]?.tag_id), label: 'ev', weight: null } },
    });
  });

  it('an insert of two rows: in a transaction, the rows given back by the same statement', async () => {
    const body = JSON.stringify({ tags: [{ label: 'two-a' }, { label: 'two-b' }] });
    const [status, trips] = await roundTrips({ method: 'POST', path: '/res/Tag', headers: json, body });
    expect(status).toBe(200);
    // BEGIN, one INSERT, COMMIT; PostgreSQL sends BEGIN with the INSERT, and so does MariaDB, in one compound
    // statement (MySQL also asks how its server reads back inserts, then reads them by key)
    expect(trips).toBe(target.engine === 'postgres' || (await insertsReturn(db)) ? 2 : 5);
    expect(await count("label LIKE 'two-%'")).toBe(2);
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
    // BEGIN, two UPDATEs, ROLLBACK (PostgreSQL sends BEGIN with the first UPDATE)
    expect(trips).toBeGreaterThanOrEqual(target.engine === 'postgres' ? 3 : 4);
    expect(await count('tag_id = 1 AND weight = 3')).toBe(1);
  });
});
