/**
 * An insert of one row on PostgreSQL adds its change event in the same statement (lib/events/insert-events): the
 * event SQL writes must be, character for character, the one changeEvents writes for the stored row (the event every
 * other write gives), for every kind of value: numbers with their exact digits and the ones JSON has no number for,
 * booleans, bytes (base64 of any length), dates and times, texts with quotes, backslashes, control characters and
 * characters beyond the BMP, and NULL; and the ordering key, a long key's included, the same, so a row's events stay
 * in order whichever way each was written. The insert itself answers as it does without events, in one round trip.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { config } from '../../lib/config';
import { engineNamed, sqlShapeOf } from '../../lib/db/engines/registry';
import { resolveResource } from '../../lib/definitions/resolve-resource';
import { changeEvents } from '../../lib/events/change-events';
import { insertAddingEvents } from '../../lib/events/insert-events';
import type { ResourceTable } from '../../lib/resource';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, useService } from '../support/service';

const definition = (name: string, query: string) => `<?xml version="1.0" encoding="UTF-8"?>
<rs:sqlResource xmlns:rs="http://restsql.org/schema">
  <query>${query}</query>
  <metadata><table name="${name.toLowerCase()}" role="Parent"/></metadata>
  <events on="insert" before="true"/>
</rs:sqlResource>
`;

const postgresKinds = `CREATE TABLE kinds (
  id serial PRIMARY KEY, big bigint, amount numeric(30,10), loose numeric DEFAULT 'NaN', single real DEFAULT 'Infinity',
  double double precision DEFAULT '-Infinity', flag boolean, bytes bytea DEFAULT decode(repeat('00ff10', 40), 'hex'),
  day date, clock time, moment timestamp, instant timestamptz DEFAULT '2026-12-01 10:11:12.5+02', label text,
  code varchar(40), doc json, ref uuid, tags text[]
)`;

/** MariaDB's: no float (mysql2 reads one as a JS number, so such a resource's insert takes a transaction). */
const mariadbKinds = `CREATE TABLE kinds (
  id int AUTO_INCREMENT PRIMARY KEY, big bigint, amount decimal(30,10), flag tinyint(1),
  bytes varbinary(200) DEFAULT (UNHEX(REPEAT('00ff10', 40))), day date, clock time, moment datetime(6),
  instant timestamp NULL DEFAULT '2026-12-01 10:11:12', label text, code varchar(40), doc longtext,
  grade enum('low', 'high'), tags set('a', 'b c')
) DEFAULT CHARSET=utf8mb4`;

type Row = Record<string, unknown>;

/** The rows inserted, by JSON; the columns a row leaves out take their defaults. */
const postgresCases: [string, Row][] = [
  ['every field NULL', { label: null, flag: null, bytes: null, double: null }],
  [
    'ordinary values',
    {
      big: '9007199254740993',
      amount: '12345678901234567890.1234567890',
      loose: '0.1',
      single: 1.5,
      double: 0.1,
      flag: true,
      day: '2026-12-01',
      clock: '10:11:12.5',
      moment: '2026-12-01T10:11:12.123456',
      label: 'Dune',
      code: 'A-1',
      doc: '{"a": [1, 2]}',
      ref: '9b0e2c1e-58a3-4e4a-9d8e-6f2d1c0b7a55',
      tags: '{a,"b c"}',
    },
  ],
  ['values the database fills in: numbers JSON has no number for, bytes longer than a base64 line', { flag: false }],
  ['a float printed with an exponent', { double: 1e21, single: 1e-7, big: -1 }],
  ['quotes, backslashes and control characters', { label: 'a"b\\c\n\t\u0001\u001f\u007f\u2028', code: "it's" }],
  ['characters beyond the BMP', { label: '😀 é 中文 𝄞', code: '😀' }],
];

/** MariaDB's: its types written exactly from a prepared statement's answer (lib/db/engines/mysql/mysql-event-sql). */
const mariadbCases: [string, Row][] = [
  ['every field NULL', { label: null, flag: null, bytes: null, instant: null }],
  [
    'ordinary values',
    {
      big: '9007199254740993',
      amount: '12345678901234567890.1234567890',
      flag: true,
      day: '2026-12-01',
      clock: '10:11:12',
      moment: '2026-12-01T10:11:12.123456',
      label: 'Dune',
      code: 'A-1',
      doc: '{"a": [1, 2]}',
      grade: 'high',
      tags: 'a,b c',
    },
  ],
  ['values the database fills in: bytes longer than a base64 line, a timestamp', { flag: false, big: -1 }],
  [
    'quotes, backslashes and control characters, escapes JSON_QUOTE writes in capitals',
    { label: 'a"b\\c\n\t\u0001\u000b\u001f\u007f\u2028 \\u001F', code: "it's" },
  ],
  ['characters beyond the BMP', { label: '😀 é 中文 𝄞', code: '😀' }],
];

describe.each(targets())('an insert that adds its own event on $name', (target) => {
  const fx = useFixture(target);
  let dir: string;
  const postgres = target.engine === 'postgres';
  const cases = postgres ? postgresCases : mariadbCases;

  beforeAll(async () => {
    for (const statement of engineNamed(target.engine).sql.eventTables) await fx.db.exec(statement);
    await fx.db.exec(postgres ? postgresKinds : mariadbKinds);
    const id = postgres ? 'serial' : 'int AUTO_INCREMENT';
    await fx.db.exec(`CREATE TABLE uniques (id ${id} PRIMARY KEY, name varchar(20) NOT NULL UNIQUE)`);
    if (postgres) await fx.db.exec('CREATE TABLE named_keys (name text PRIMARY KEY, note text)');
    dir = mkdtempSync(path.join(os.tmpdir(), 'rrs-insert-events-'));
    writeFileSync(path.join(dir, 'Kinds.xml'), definition('Kinds', 'SELECT * FROM kinds'));
    writeFileSync(path.join(dir, 'Uniques.xml'), definition('Uniques', 'SELECT id, name FROM uniques'));
    if (postgres)
      writeFileSync(
        path.join(dir, 'Named_keys.xml'),
        definition('Named_keys', 'SELECT name, note AS remark FROM named_keys'),
      );
    // MariaDB adds the event in the insert where statements are prepared (the server mode)
    await useService({
      DATABASE_URL: fx.db.url,
      DEFINITIONS_DIR: dir,
      EVENTS_SOURCE: 'https://api.example.com',
      DB_PREPARE: postgres ? undefined : 'true',
    });
  });
  afterAll(async () => {
    await useService({ EVENTS_SOURCE: undefined, DB_PREPARE: undefined });
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await fx.db.exec('DELETE FROM rrs_events');
  });

  /** Inserts `row`; what the outbox holds, and what changeEvents gives for the row as stored. */
  async function insertBothWays(resourceName: string, row: Row, keyColumn: string) {
    const reply = await invoke({
      method: 'POST',
      path: `/res/${resourceName}`,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ [`${resourceName.toLowerCase()}s`]: [row] }),
    });
    expect([reply.status, reply.body]).toEqual([200, expect.stringContaining('"rowsAffected":1')]);
    const [held, more] = await fx.db.exec('SELECT id, ordering_key, event FROM rrs_events ORDER BY seq');
    expect(more).toBeUndefined();
    const event = JSON.parse(String(held?.event)) as { id: string; time: string; data: { key: Row } };
    const { resource, db } = await resolveResource(config(), resourceName);
    // the insert added its event itself (and the outbox's event is SQL's)
    expect(insertAddingEvents(sqlShapeOf(target.engine), resource)?.(Object.keys(row))).toBeDefined();
    const table = Object.values(resource.tables)[0] as ResourceTable;
    const key = event.data.key[keyColumn];
    const placeholder = sqlShapeOf(target.engine).placeholder(1);
    const stored = (
      await db.run({ text: `SELECT * FROM ${table.name} WHERE ${keyColumn} = ${placeholder}`, params: [String(key)] })
    ).rows;
    const [expected] = changeEvents(resource, [{ verb: 'insert', table, after: stored[0] }], true, {
      source: 'https://api.example.com',
      requestId: reply.headers['x-request-id'],
      time: Date.parse(event.time),
      newId: () => event.id,
    });
    return { held, expected, reply };
  }

  it.each(cases)('%s: the event SQL writes is the one changeEvents writes', async (_, row) => {
    const { held, expected } = await insertBothWays('Kinds', row, 'id');
    expect(held?.event).toBe(expected?.event);
    expect(held?.ordering_key).toBe(expected?.orderingKey);
    expect(held?.id).toBe(expected?.id);
  });

  // the ordering key ["Named_keys","named_keys","<name>"] is 30 characters and the name's (on MariaDB, an insert
  // adds its event itself only where the database generates the key)
  const namedKeys = postgres ? it.each : () => () => {};
  namedKeys([
    ['a short key', 'pear', false],
    ['a key of 1,000 characters beyond the BMP (1,940 UTF-16 units), within the limit', '😀'.repeat(970), false],
    ['a key one character past the limit, kept as its hash', '😀'.repeat(971), true],
    ['a long key with quotes', `"${'x'.repeat(1200)}\\`, true],
  ])('%s: the same ordering key both ways', async (_, name, hashed) => {
    const { held, expected } = await insertBothWays('Named_keys', { name, remark: 'r' }, 'name');
    expect(held?.event).toBe(expected?.event);
    expect(held?.ordering_key).toBe(expected?.orderingKey);
    expect(String(held?.ordering_key).startsWith('sha256:')).toBe(hashed);
  });

  it('answers with the row as stored, as an insert without events does', async () => {
    const { reply } = await insertBothWays('Kinds', { label: 'x', flag: false }, 'id');
    expect(JSON.parse(reply.body)).toMatchObject({
      rowsAffected: 1,
      kindss: [{ label: 'x', flag: false, day: null }],
    });
  });

  it('answers with every value as a read of the row gives it (a prepared statement answers as a query does)', async () => {
    const [, ordinary] = cases[1] as [string, Row];
    const { reply, held } = await insertBothWays('Kinds', ordinary, 'id');
    const [written] = (JSON.parse(reply.body) as { kindss: Row[] }).kindss;
    const id = (JSON.parse(String(held?.event)) as { data: { key: { id: number } } }).data.key.id;
    const read = await invoke({ method: 'GET', path: `/res/Kinds/${id}`, headers: { accept: 'application/json' } });
    expect(written).toEqual((JSON.parse(read.body) as { kindss: Row[] }).kindss[0]);
  });

  it('an insert refused by a constraint is refused as without events (409), and announces nothing', async () => {
    const insert = () =>
      invoke({
        method: 'POST',
        path: '/res/Uniques',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=twice',
      });
    expect((await insert()).status).toBe(200);
    const again = await insert();
    expect([again.status, again.body]).toEqual([409, expect.stringContaining('name')]);
    const held = await fx.db.exec('SELECT event FROM rrs_events');
    expect(held.map((row) => (JSON.parse(String(row.event)) as { data: { after: Row } }).data.after.name)).toEqual([
      'twice',
    ]);
    expect(await fx.count('uniques', "name = 'twice'")).toBe(1);
  });

  it('an insert whose event cannot be written is not written: a 500, and no row', async () => {
    await fx.db.exec('DROP TABLE rrs_events');
    try {
      const reply = await invoke({
        method: 'POST',
        path: '/res/Kinds',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'label=unannounced',
      });
      expect(reply.status).toBe(500);
      expect(await fx.count('kinds', "label = 'unannounced'")).toBe(0);
    } finally {
      for (const statement of engineNamed(target.engine).sql.eventTables) await fx.db.exec(statement);
    }
  });
});
