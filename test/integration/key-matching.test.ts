/**
 * Keys are matched as the database compares them, never by their text, through the real handlers on every
 * database: for each kind of key where the text a client sends can differ from the text the database returns for
 * the same row (UUID letter case, a case-insensitive collation, CHAR padding, decimal scale, a timestamp without
 * seconds), a write by that spelling reaches its row: through a resource that shows each caller their own rows
 * (update, delete, and a many-to-many insert under a parent, which is checked against the caller's rows), and an
 * extension row stored under yet another spelling is updated, not inserted twice.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EngineName } from '../../lib/resource';
import { signInOff, startAuth, type TestAuth } from '../support/auth';
import { callWithToken } from '../support/call-with-token';
import { type TestDatabase, targets } from '../support/databases';
import { useService } from '../support/service';

interface KeyKind {
  readonly name: string;
  readonly type: string;
  /** The extension's key column, where the database lets it differ from the parent's. */
  readonly extType?: string;
  readonly stored: string;
  /** How the extension row spells the same key (default: as stored). */
  readonly extStored?: string;
  /** How the client spells it. */
  readonly given: string;
}

const kinds: Record<EngineName, readonly KeyKind[]> = {
  postgres: [
    {
      name: 'uuid',
      type: 'uuid',
      stored: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
      given: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
    },
    { name: 'char', type: 'char(5)', stored: 'ab', given: 'ab' },
    { name: 'decimal', type: 'numeric(6,2)', extType: 'numeric', stored: '5', extStored: '5.0', given: '5.0' },
    { name: 'timestamp', type: 'timestamp', stored: '2024-01-01 10:00:00', given: '2024-01-01 10:00' },
  ],
  mysql: [
    { name: 'ci', type: 'varchar(20)', stored: 'ABC', extStored: 'abc', given: 'abc' },
    { name: 'char', type: 'char(5)', stored: 'ab', given: 'ab ' },
    { name: 'decimal', type: 'decimal(6,2)', stored: '5', given: '5.0' },
    { name: 'datetime', type: 'datetime', stored: '2024-01-01 10:00:00', given: '2024-01-01 10:00' },
  ],
};

function schema(kind: KeyKind, engine: EngineName): string[] {
  const tableOptions = engine === 'mysql' ? ' ENGINE=InnoDB' : '';
  const t = kind.name;
  return [
    `CREATE TABLE key_${t} (k ${kind.type} PRIMARY KEY, v varchar(20), owner varchar(20) NOT NULL)${tableOptions}`,
    `CREATE TABLE key_${t}_ext (k ${kind.extType ?? kind.type} PRIMARY KEY, note varchar(20),
       CONSTRAINT key_${t}_ext_fk FOREIGN KEY (k) REFERENCES key_${t} (k))${tableOptions}`,
    `CREATE TABLE bag_${t} (bag_id int PRIMARY KEY, owner varchar(20) NOT NULL)${tableOptions}`,
    `CREATE TABLE bag_${t}_item (bag_id int NOT NULL, k ${kind.type} NOT NULL, PRIMARY KEY (bag_id, k),
       CONSTRAINT bag_${t}_item_bag_fk FOREIGN KEY (bag_id) REFERENCES bag_${t} (bag_id),
       CONSTRAINT bag_${t}_item_key_fk FOREIGN KEY (k) REFERENCES key_${t} (k))${tableOptions}`,
  ];
}

function data(kind: KeyKind): string[] {
  const t = kind.name;
  return [
    `DELETE FROM bag_${t}_item`,
    `DELETE FROM bag_${t}`,
    `DELETE FROM key_${t}_ext`,
    `DELETE FROM key_${t}`,
    `INSERT INTO key_${t} (k, v, owner) VALUES ('${kind.stored}', 'old', 'alice')`,
    `INSERT INTO key_${t}_ext (k, note) VALUES ('${kind.extStored ?? kind.stored}', 'old')`,
    `INSERT INTO bag_${t} (bag_id, owner) VALUES (1, 'alice')`,
  ];
}

function definitions(kind: KeyKind): Record<string, string> {
  const t = kind.name;
  const resource = (query: string, tables: string) =>
    `<sqlResource><query>${query}</query><metadata>${tables}</metadata></sqlResource>`;
  return {
    [`MyKey_${t}`]: resource(
      `select k, v, owner from key_${t} where owner = {{claim:sub}}`,
      `<table name="key_${t}" role="Parent" rowAlias="key"/>`,
    ),
    [`KeyNote_${t}`]: resource(
      `select key_${t}.k, v, note from key_${t} left join key_${t}_ext on key_${t}_ext.k = key_${t}.k`,
      `<table name="key_${t}" role="Parent" rowAlias="key"/><table name="key_${t}_ext" role="ParentExtension"/>`,
    ),
    [`MyBag_${t}`]: resource(
      `select b.bag_id, b.owner, key_${t}.k, key_${t}.v from bag_${t} b
       left join bag_${t}_item i on i.bag_id = b.bag_id left join key_${t} on key_${t}.k = i.k
       where b.owner = {{claim:sub}}`,
      `<table name="bag_${t}" role="Parent" rowAlias="bag"/><table name="bag_${t}_item" role="Join"/>
       <table name="key_${t}" role="Child" rowAlias="key"/>`,
    ),
  };
}

describe.each(targets())('keys matched as the database compares them, on $name', (target) => {
  let db: TestDatabase;
  let auth: TestAuth;
  let dir: string;
  const table = kinds[target.engine];

  beforeAll(async () => {
    auth = await startAuth();
    db = await target.create();
    dir = mkdtempSync(path.join(os.tmpdir(), 'rrs-keys-'));
    for (const kind of table) {
      for (const statement of schema(kind, target.engine)) await db.exec(statement);
      for (const [name, xml] of Object.entries(definitions(kind))) writeFileSync(path.join(dir, `${name}.xml`), xml);
    }
    writeFileSync(path.join(dir, 'privileges.properties'), '*.*=writer\n');
    await useService({
      DATABASE_URL: db.url,
      DEFINITIONS_DIR: dir,
      PRIVILEGES: path.join(dir, 'privileges.properties'),
      ...auth.env,
    });
  });
  afterAll(async () => {
    await useService(signInOff);
    await db?.drop();
    await auth?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function call(method: string, where: string, body?: string | object) {
    const reply = await callWithToken(auth, { sub: 'alice' }, method, `/res/${where}`, body);
    return { status: reply.status, body: reply.status === 200 ? reply.json() : reply.body };
  }

  describe.each(table)('a $type key stored as "$stored", sent as "$given"', (kind) => {
    const t = kind.name;
    const inPath = encodeURIComponent(kind.given);
    beforeEach(async () => {
      for (const statement of data(kind)) await db.exec(statement);
    });
    const values = async (sql: string) => (await db.exec(sql)).map((row) => Object.values(row).map(String).join(':'));

    it("updates and deletes the caller's own row by it", async () => {
      expect(await call('PUT', `MyKey_${t}/${inPath}`, 'v=path')).toEqual({ status: 200, body: { rowsAffected: 1 } });
      expect(await call('PUT', `MyKey_${t}`, { keys: [{ k: kind.given, v: 'body' }] })).toEqual({
        status: 200,
        body: { rowsAffected: 1 },
      });
      expect(await values(`SELECT v FROM key_${t}`)).toEqual(['body']);
      await db.exec(`DELETE FROM key_${t}_ext`);
      expect(await call('DELETE', `MyKey_${t}/${inPath}`)).toEqual({ status: 200, body: { rowsAffected: 1 } });
      expect(await values(`SELECT v FROM key_${t}`)).toEqual([]);
    });

    it('associates it with a parent of the caller, checked against their rows', async () => {
      expect(await call('POST', `MyBag_${t}/1`, { keys: [{ k: kind.given }] })).toMatchObject({
        status: 200,
        body: { rowsAffected: 1 },
      });
      expect(await values(`SELECT bag_id FROM bag_${t}_item`)).toEqual(['1']);
    });

    it('updates its extension row, stored under its own spelling, instead of inserting another', async () => {
      expect(await call('PUT', `KeyNote_${t}/${inPath}`, 'note=new')).toEqual({
        status: 200,
        body: { rowsAffected: 1 },
      });
      expect(await values(`SELECT note FROM key_${t}_ext`)).toEqual(['new']);
    });
  });
});
