/**
 * The catalog snapshot on real databases: written as `npm run validate -- --snapshot` writes it, a cold container
 * builds its resources from it with no catalog statement (the first read is one statement) and answers exactly as
 * with the catalog; its fingerprint check finds a changed table and the resources load again from the catalog;
 * an edited definition, /conf/reload, a broken file, and on MySQL a snapshot of another database name all read
 * the catalog instead. Statements are counted from the request log line (db_calls).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { config } from '../../lib/config';
import { schemaFingerprint } from '../../lib/db/schema-fingerprint';
import { selectDatabase } from '../../lib/db/select-database';
import { snapshotFileName } from '../../lib/definitions/catalog-snapshot';
import { resolveResource } from '../../lib/definitions/resolve-resource';
import { validateDefinitions } from '../../lib/definitions/validate-definitions';
import { writeCatalogSnapshot } from '../../lib/definitions/write-snapshot';
import { type Captured, captureOutput, useObserveEnv } from '../observe/capture-output';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { type Call, invoke, testDefinitions, useService } from '../support/service';

const observeEnv = { LOG_LEVEL: 'INFO', POWERTOOLS_METRICS_DISABLED: 'true' };

describe.each(targets())('catalog snapshot on $name', (target) => {
  const fx = useFixture(target);
  let dir = '';
  let output: Captured;
  let warn: jest.SpyInstance;
  const snapshotFile = () => path.join(dir, snapshotFileName);

  useObserveEnv(observeEnv);
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rrs-snapshot-'));
    cpSync(testDefinitions, dir, { recursive: true });
    warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    warn.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => useService({ DEFINITIONS_DIR: testDefinitions }));

  /** A fresh container: no client, no cached resource, nothing read of a snapshot. */
  const coldContainer = () => useService({ DATABASE_URL: fx.db.url, DEFINITIONS_DIR: dir });

  /** What `npm run validate -- --snapshot` does: load every definition from the catalog, write what loaded. */
  async function writeSnapshot(): Promise<string[]> {
    await coldContainer();
    const loaded = (await validateDefinitions(config())).filter((r) => r.status !== 'failed').map((r) => r.name);
    await writeCatalogSnapshot(config(), loaded);
    return loaded;
  }

  /** The call's reply and the number of statements its request ran. */
  async function counted(call: Call): Promise<{ status: number; body: string; statements: number }> {
    output = captureOutput();
    try {
      const reply = await invoke(call);
      const [line] = output.logLines();
      return { status: reply.status, body: reply.body, statements: Number(line?.db_calls) };
    } finally {
      output.restore();
    }
  }

  const reads: [string, Call][] = [
    ['Pair', { method: 'GET', path: '/res/Pair', query: '_output=json' }],
    ['TeamPlayers', { method: 'GET', path: '/res/TeamPlayers', query: '_output=json' }],
    ['Item', { method: 'GET', path: '/res/Item/1' }],
    ['TeamPlayers', { method: 'GET', path: '/conf/metadata/TeamPlayers', query: '_output=json' }],
  ];

  it('spares a cold container the catalog: its first read is one statement, answered as from the catalog', async () => {
    const fromCatalog = [];
    for (const [, call] of reads) {
      await coldContainer();
      fromCatalog.push(await counted(call));
    }
    const loaded = await writeSnapshot();
    expect(loaded).toEqual(expect.arrayContaining(['Pair', 'TeamPlayers', 'Item']));
    expect(loaded).not.toContain('Broken');
    for (const [i, [name, call]] of reads.entries()) {
      await coldContainer();
      const fromSnapshot = await counted(call);
      expect(fromSnapshot).toEqual({ ...fromCatalog[i], statements: call.path.startsWith('/conf') ? 0 : 1 });
      expect(fromCatalog[i]?.statements).toBeGreaterThan(fromSnapshot.statements);
      const check = (await resolveResource(config(), name)).snapshotCheck;
      expect(await check?.settled).toBe(true);
    }
    // a write too: as many statements as the same insert in a warm container, nothing of the catalog
    await coldContainer();
    const insert = (num: number) =>
      counted({
        method: 'POST',
        path: '/res/Pair',
        query: '_output=json',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pairList: [{ code: 'NEW', num, label: 'new' }] }),
      });
    const cold = await insert(1);
    const warm = await insert(2);
    expect(cold).toMatchObject({ status: 200, statements: warm.statements });
    expect(await fx.count('pair', "code = 'NEW'")).toBe(2);
    expect(await (await resolveResource(config(), 'Pair')).snapshotCheck?.settled).toBe(true);
    expect(warn).not.toHaveBeenCalled();
  });

  it('finds a changed table with its check, then loads from the catalog', async () => {
    await writeSnapshot();
    await fx.db.exec('ALTER TABLE pair ADD extra int');
    try {
      await coldContainer();
      // the first load builds Pair from the snapshot and starts the check (the request that does so is served
      // from the snapshot meanwhile: the first test counts it)
      const check = (await resolveResource(config(), 'Pair')).snapshotCheck;
      expect(await check?.settled).toBe(false);
      expect(check?.stale).toBe(true);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/catalog snapshot .* no longer matches database/));
      const next = await counted({ method: 'GET', path: '/res/Pair', query: '_output=json' });
      expect(next.status).toBe(200);
      expect(next.statements).toBeGreaterThan(1);
      expect((await resolveResource(config(), 'Pair')).snapshotCheck).toBeUndefined();
      // every resource of that database: none is built from the stale snapshot again
      expect((await counted({ method: 'GET', path: '/res/Item/1' })).statements).toBeGreaterThan(1);
    } finally {
      await fx.db.exec('ALTER TABLE pair DROP COLUMN extra');
    }
  });

  it("makes a container's first write wait for the check: with a changed table, it writes from the catalog", async () => {
    await writeSnapshot();
    await fx.db.exec('ALTER TABLE pair ADD extra int');
    try {
      await coldContainer();
      const insert = (num: number) =>
        counted({
          method: 'POST',
          path: '/res/Pair',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ pairList: [{ code: 'NEW', num, label: 'new' }] }),
        });
      const first = await insert(1);
      const warm = await insert(2);
      expect([first.status, warm.status]).toEqual([200, 200]);
      // the first one waited for the check, found the snapshot stale, and read the catalog before writing
      expect(first.statements).toBeGreaterThan(warm.statements);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/no longer matches database/));
      expect((await resolveResource(config(), 'Pair')).snapshotCheck).toBeUndefined();
    } finally {
      await fx.db.exec('ALTER TABLE pair DROP COLUMN extra');
    }
  });

  it('serves a request the stale snapshot fails once more, from the catalog', async () => {
    const gadget =
      '<sqlResource><query>select * from widget</query><metadata><table name="widget" role="Parent"/></metadata></sqlResource>';
    writeFileSync(path.join(dir, 'Gadget.xml'), gadget);
    await writeSnapshot();
    await fx.db.exec('ALTER TABLE widget RENAME COLUMN widget_id TO gadget_id');
    try {
      await coldContainer();
      // the snapshot's key is widget_id: the statement fails, the check finds the table changed, and the
      // request is served again from the catalog, whose key is gadget_id
      const read = await counted({ method: 'GET', path: '/res/Gadget/1', query: '_output=json' });
      expect(read.status).toBe(200);
      expect(JSON.parse(read.body)).toEqual({ widgets: [{ gadget_id: 1, title: 'sprocket' }] });
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/no longer matches database/));
    } finally {
      await fx.db.exec('ALTER TABLE widget RENAME COLUMN gadget_id TO widget_id');
    }
  });

  it('confirms an unchanged schema: the resources stay built from the snapshot', async () => {
    await writeSnapshot();
    await coldContainer();
    await counted({ method: 'GET', path: '/res/Pair' });
    const check = (await resolveResource(config(), 'Pair')).snapshotCheck;
    expect(await check?.settled).toBe(true);
    expect((await counted({ method: 'GET', path: '/res/Item/1' })).statements).toBe(1);
    // one check per database and container: Item shares Pair's
    expect((await resolveResource(config(), 'Item')).snapshotCheck).toBe(check);
    expect(warn).not.toHaveBeenCalled();
  });

  it('reads the catalog for an edited definition, after /conf/reload, and with a broken snapshot', async () => {
    await writeSnapshot();
    const pair = path.join(dir, 'Pair.xml');
    writeFileSync(pair, readFileSync(pair, 'utf8').replace('select code, num, label', 'select label, code, num'));
    await coldContainer();
    expect((await counted({ method: 'GET', path: '/res/Pair' })).statements).toBeGreaterThan(1);
    expect((await counted({ method: 'GET', path: '/res/Item/1' })).statements).toBe(1);

    const reload = await counted({ method: 'GET', path: '/conf/reload/Item' });
    expect(reload).toMatchObject({ status: 200, body: 'Reload of Item succeeded' });
    expect(reload.statements).toBeGreaterThan(0);
    expect((await resolveResource(config(), 'Item')).snapshotCheck).toBeUndefined();

    writeFileSync(snapshotFile(), '{"format":1,');
    await coldContainer();
    const read = await counted({ method: 'GET', path: '/res/Item/1' });
    expect(read).toMatchObject({ status: 200 });
    expect(read.statements).toBeGreaterThan(1);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^Ignoring the catalog snapshot .*: it is not JSON/));
  });

  it('ignores a snapshot of the format before defaults and unique keys, saying so, and reads the catalog', async () => {
    await writeSnapshot();
    // what the previous format held: no default flag on columns, no unique keys on tables
    const old = JSON.stringify(JSON.parse(readFileSync(snapshotFile(), 'utf8')), (key, value) =>
      key === 'hasDefault' || key === 'uniqueKeys' ? undefined : key === 'format' ? 1 : value,
    );
    expect(old).toContain('"format":1');
    expect(old).not.toMatch(/hasDefault|uniqueKeys/);
    writeFileSync(snapshotFile(), old);
    await coldContainer();
    const read = await counted({ method: 'GET', path: '/res/Item/1' });
    expect(read.status).toBe(200);
    expect(read.statements).toBeGreaterThan(1);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /^Ignoring the catalog snapshot .*: it is not a catalog snapshot of format 2; write it again/,
      ),
    );
  });

  it(`${target.engine === 'mysql' ? 'is not used' : 'serves'} when written on a database of another name`, async () => {
    await writeSnapshot();
    const snapshot = JSON.parse(readFileSync(snapshotFile(), 'utf8'));
    for (const database of Object.values<{ database: string }>(snapshot.databases)) database.database = 'elsewhere';
    writeFileSync(snapshotFile(), JSON.stringify(snapshot));
    await coldContainer();
    const read = await counted({ method: 'GET', path: '/res/Item/1' });
    expect(read.status).toBe(200);
    // on MySQL the database name is the schema every table is qualified with: another one must never be used
    if (target.engine === 'mysql') expect(read.statements).toBeGreaterThan(1);
    else expect(read.statements).toBe(1);
  });

  const pg = target.engine === 'postgres';
  it.each([
    ['a column added', 'ALTER TABLE pair ADD extra int', 'ALTER TABLE pair DROP COLUMN extra'],
    [
      'a column retyped',
      pg ? 'ALTER TABLE pair ALTER COLUMN label TYPE varchar(50)' : 'ALTER TABLE pair MODIFY label varchar(50)',
      pg ? 'ALTER TABLE pair ALTER COLUMN label TYPE varchar(40)' : 'ALTER TABLE pair MODIFY label varchar(40)',
    ],
    [
      'a column made NOT NULL',
      pg ? 'ALTER TABLE pair ALTER COLUMN label SET NOT NULL' : 'ALTER TABLE pair MODIFY label varchar(40) NOT NULL',
      pg ? 'ALTER TABLE pair ALTER COLUMN label DROP NOT NULL' : 'ALTER TABLE pair MODIFY label varchar(40)',
    ],
    [
      'a default set',
      "ALTER TABLE pair ALTER COLUMN label SET DEFAULT 'x'",
      'ALTER TABLE pair ALTER COLUMN label DROP DEFAULT',
    ],
    [
      'a column renamed',
      'ALTER TABLE pair RENAME COLUMN label TO caption',
      'ALTER TABLE pair RENAME COLUMN caption TO label',
    ],
    [
      'a unique key added',
      'ALTER TABLE pair ADD CONSTRAINT pair_label_uq UNIQUE (label)',
      pg ? 'ALTER TABLE pair DROP CONSTRAINT pair_label_uq' : 'ALTER TABLE pair DROP INDEX pair_label_uq',
    ],
    [
      'a unique index created',
      'CREATE UNIQUE INDEX pair_label_ix ON pair (label)',
      pg ? 'DROP INDEX pair_label_ix' : 'DROP INDEX pair_label_ix ON pair',
    ],
    [
      'a foreign key added',
      'ALTER TABLE loose ADD CONSTRAINT loose_widget FOREIGN KEY (n) REFERENCES widget (widget_id)',
      pg ? 'ALTER TABLE loose DROP CONSTRAINT loose_widget' : 'ALTER TABLE loose DROP FOREIGN KEY loose_widget',
    ],
  ])('the fingerprint changes with %s', async (_change, change, revert) => {
    await coldContainer();
    const db = await selectDatabase(config());
    const tables = ['pair', 'loose', 'widget'].map((table) => ({
      schema: pg ? 'public' : new URL(fx.db.url).pathname.slice(1),
      table,
    }));
    await fx.db.exec('DELETE FROM loose'); // rows the foreign key would refuse; beforeEach restores them
    const before = await schemaFingerprint(db, db.engine, tables);
    expect(await schemaFingerprint(db, db.engine, tables)).toBe(before);
    await fx.db.exec(change);
    try {
      expect(await schemaFingerprint(db, db.engine, tables)).not.toBe(before);
    } finally {
      await fx.db.exec(revert);
    }
  });
});
