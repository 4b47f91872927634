/**
 * Values are checked against their column before they reach the database, through the real handlers on every
 * database: dates and times completely (the day exists, years 0001-9999, no time zone, no more fractional
 * seconds than the column keeps), and the column's limits (length, integer range, decimal digits, float range)
 * for every value written and every filter and path key. A value the column cannot hold is a 400 naming the
 * field, the same on every database, and nothing is written: nothing is rounded or truncated on the way in.
 * The tables are this file's own: the same columns on each database, and a few that only one database has.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closeDatabases } from '../../lib/db/select-database';
import type { EngineName } from '../../lib/resource';
import { type TestDatabase, targets } from '../support/databases';
import { invoke, useService } from '../support/service';

const form = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
const json = { 'content-type': 'application/json', accept: 'application/json' };
const xml = { 'content-type': 'application/xml', accept: 'application/json' };

function schema(engine: EngineName): string[] {
  const pg = engine === 'postgres';
  return [
    `CREATE TABLE measure (id int PRIMARY KEY, small smallint, whole int, big bigint, price decimal(8,2),
      single ${pg ? 'real' : 'float'}, twice ${pg ? 'double precision' : 'double'}, code char(3), name varchar(10),
      day date, at ${pg ? 'time(0)' : 'time'}, stamp ${pg ? 'timestamp(3)' : 'datetime(3)'})`,
    pg
      ? 'CREATE TABLE extra (id int PRIMARY KEY, exact numeric, scaled numeric(3,-2), tiny numeric(2,5))'
      : `CREATE TABLE extra (id int PRIMARY KEY, exact decimal(65,30), utiny tinyint unsigned, yr year,
          ts timestamp NULL, tt tinytext, bin varbinary(4), ud decimal(5,2) unsigned, fm float(7,4))`,
    `INSERT INTO measure (id, small, whole, big, price, code, name, day, at, stamp)
      VALUES (1, 1, 1, 1, 1.00, 'ABC', 'one', '2024-01-01', '10:00:00', '2024-01-01 10:00:00.000')`,
    'INSERT INTO extra (id) VALUES (1)',
  ];
}

const definition = (table: string, columns: string) => `<sqlResource>
  <query>select ${columns} from ${table}</query>
  <metadata><table name="${table}" role="Parent"/></metadata>
</sqlResource>`;

const extraColumns: Record<EngineName, string> = {
  postgres: 'id, exact, scaled, tiny',
  mysql: 'id, exact, utiny, yr, ts, tt, bin, ud, fm',
};

const stampWords = 'timestamp (YYYY-MM-DD HH:MM[:SS[.ffffff]])';
const noZone = 'a timestamp is written without a time zone';
const beyondScale = 'price holds at most 2 digits after the decimal point';

/** A value each field holds, for the other item of an IN list. */
const valid: Record<string, string> = {
  stamp: '2024-01-01',
  day: '2024-01-01',
  at: '10:00',
  price: '1',
  small: '1',
  whole: '1',
  big: '1',
  single: '1',
  twice: '1',
  code: 'ABC',
  name: 'one',
};

/** Refused on every database, as a filter, a path key or a value written: [label, value, message]. */
const refused: [string, string, string][] = [
  ['stamp', '2024-01-01 10:00+99', `Could not convert stamp value "2024-01-01 10:00+99" to ${stampWords}: ${noZone}`],
  ['stamp', '2024-01-01T10:00:00Z', `Could not convert stamp value "2024-01-01T10:00:00Z" to ${stampWords}: ${noZone}`],
  [
    'stamp',
    '2024-01-01 10:00-02:00',
    `Could not convert stamp value "2024-01-01 10:00-02:00" to ${stampWords}: ${noZone}`,
  ],
  [
    'stamp',
    '2024-01-01 10:00:00.1234',
    `Could not convert stamp value "2024-01-01 10:00:00.1234" to ${stampWords}: stamp keeps at most 3 digits of fractional seconds`,
  ],
  [
    'stamp',
    '2024-01-01 10:00:00.1234567',
    `Could not convert stamp value "2024-01-01 10:00:00.1234567" to ${stampWords}: at most 6 digits of fractional seconds`,
  ],
  [
    'stamp',
    '0000-12-31 10:00',
    `Could not convert stamp value "0000-12-31 10:00" to ${stampWords}: years go from 0001 to 9999`,
  ],
  ['stamp', '2023-02-29 10:00', `Could not convert stamp value "2023-02-29 10:00" to ${stampWords}`],
  ['stamp', '2023-02-01 24:00', `Could not convert stamp value "2023-02-01 24:00" to ${stampWords}`],
  ['day', '0000-01-01', 'Could not convert day value "0000-01-01" to date (YYYY-MM-DD): years go from 0001 to 9999'],
  [
    'at',
    '10:00:00.5',
    'Could not convert at value "10:00:00.5" to time (HH:MM[:SS[.ffffff]]): at keeps whole seconds only',
  ],
  ['price', '1e-999999', `Could not convert price value "1e-999999" to number: ${beyondScale}`],
  ['price', '1.234', `Could not convert price value "1.234" to number: ${beyondScale}`],
  ['price', '0.0001e1', `Could not convert price value "0.0001e1" to number: ${beyondScale}`],
  [
    'price',
    '1234567',
    'Could not convert price value "1234567" to number: price holds at most 6 digits before the decimal point',
  ],
  [
    'price',
    '1e6',
    'Could not convert price value "1e6" to number: price holds at most 6 digits before the decimal point',
  ],
  ['small', '32768', 'Could not convert small value "32768" to number: small holds integers from -32768 to 32767'],
  [
    'whole',
    '-2147483649',
    'Could not convert whole value "-2147483649" to number: whole holds integers from -2147483648 to 2147483647',
  ],
  [
    'big',
    '9223372036854775808',
    'Could not convert big value "9223372036854775808" to number: big holds integers from -9223372036854775808 to 9223372036854775807',
  ],
  [
    'single',
    '1e39',
    'Could not convert single value "1e39" to number: single holds single-precision floats, at most 3.4028234663852886e+38 in size',
  ],
  [
    'single',
    '1e-50',
    'Could not convert single value "1e-50" to number: single holds single-precision floats; this value is not 0 but would be stored as 0',
  ],
  [
    'twice',
    '-1e309',
    'Could not convert twice value "-1e309" to number: twice holds double-precision floats, at most 1.7976931348623157e+308 in size',
  ],
  [
    'twice',
    '1e-400',
    'Could not convert twice value "1e-400" to number: twice holds double-precision floats; this value is not 0 but would be stored as 0',
  ],
  ['code', 'ABCD', 'Could not convert code value "ABCD" to text: code holds at most 3 characters'],
  ['code', 'AB  ', 'Could not convert code value "AB  " to text: code holds at most 3 characters'],
  ['name', 'elevenchars', 'Could not convert name value "elevenchars" to text: name holds at most 10 characters'],
];

/** Refused on one database, whose columns have other limits: [label, value, message]. */
const refusedExtra: Record<EngineName, [string, string, string][]> = {
  postgres: [
    [
      'exact',
      '1e-16384',
      'Could not convert exact value "1e-16384" to number: exact holds at most 16383 digits after the decimal point',
    ],
    [
      'exact',
      '1e131072',
      'Could not convert exact value "1e131072" to number: exact holds at most 131072 digits before the decimal point',
    ],
    ['scaled', '12345', 'Could not convert scaled value "12345" to number: scaled holds only whole multiples of 100'],
    [
      'scaled',
      '1e5',
      'Could not convert scaled value "1e5" to number: scaled holds at most 5 digits before the decimal point',
    ],
    ['tiny', '0.001', 'Could not convert tiny value "0.001" to number: tiny holds only numbers below 0.001'],
    [
      'tiny',
      '0.000001',
      'Could not convert tiny value "0.000001" to number: tiny holds at most 5 digits after the decimal point',
    ],
  ],
  mysql: [
    [
      'exact',
      '1e-31',
      'Could not convert exact value "1e-31" to number: exact holds at most 30 digits after the decimal point',
    ],
    ['utiny', '-1', 'Could not convert utiny value "-1" to number: utiny holds integers from 0 to 255'],
    ['utiny', '256', 'Could not convert utiny value "256" to number: utiny holds integers from 0 to 255'],
    ['yr', '1900', 'Could not convert yr value "1900" to number: yr holds integers from 1901 to 2155'],
    ['yr', '24', 'Could not convert yr value "24" to number: yr holds integers from 1901 to 2155'],
    [
      'ts',
      '1970-01-01 00:00:00',
      `Could not convert ts value "1970-01-01 00:00:00" to ${stampWords}: ts holds 1970-01-01 00:00:01 to 2038-01-19 03:14:07.999999`,
    ],
    [
      'ts',
      '2038-01-19 03:14:08',
      `Could not convert ts value "2038-01-19 03:14:08" to ${stampWords}: ts holds 1970-01-01 00:00:01 to 2038-01-19 03:14:07.999999`,
    ],
    [
      'tt',
      'é'.repeat(128),
      `Could not convert tt value "${'é'.repeat(128)}" to text: tt holds at most 255 bytes (UTF-8)`,
    ],
    ['bin', 'AAECAwQ=', 'Could not convert bin value "AAECAwQ=" to base64 binary: bin holds at most 4 bytes'],
    ['ud', '-0.01', 'Could not convert ud value "-0.01" to number: ud holds no numbers below 0'],
    [
      'fm',
      '1.23456',
      'Could not convert fm value "1.23456" to number: fm holds at most 4 digits after the decimal point',
    ],
    ['fm', '1000', 'Could not convert fm value "1000" to number: fm holds at most 3 digits before the decimal point'],
  ],
};

/** Stored on one database exactly as written or normalized: [label, value, the JSON read back]. */
const storedExtra: Record<EngineName, [string, string, string][]> = {
  postgres: [
    ['exact', '1.5e-3', '0.0015'],
    ['exact', `1e-16383`, `0.${'0'.repeat(16382)}1`],
    ['scaled', '12300', '12300'],
    ['scaled', '1.23e4', '12300'],
    ['tiny', '0.00099', '0.00099'],
  ],
  mysql: [
    ['exact', '1e-30', `0.${'0'.repeat(29)}1`],
    ['utiny', '255', '255'],
    ['yr', '2155', '2155'],
    ['ts', '2038-01-19 03:14:07', '"2038-01-19 03:14:07"'],
    ['tt', 'é'.repeat(127), `"${'é'.repeat(127)}"`],
    ['bin', 'AAECAw==', '"AAECAw=="'],
    ['ud', '-0.00', '0.00'],
    ['fm', '-999.9999', '-999.9999'],
  ],
};

describe.each(targets())('value limits on $name', (target) => {
  let db: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    db = await target.create();
    dir = mkdtempSync(path.join(tmpdir(), 'rrs-value-limits-'));
    writeFileSync(
      path.join(dir, 'Measure.xml'),
      definition('measure', 'id, small, whole, big, price, single, twice, code, name, day, at, stamp'),
    );
    writeFileSync(path.join(dir, 'Extra.xml'), definition('extra', extraColumns[target.engine]));
    await useService({ DATABASE_URL: db.url, DEFINITIONS_DIR: dir });
    for (const statement of schema(target.engine)) await db.exec(statement);
  });

  beforeEach(async () => {
    await db.exec('DELETE FROM measure WHERE id <> 1');
    await db.exec('DELETE FROM extra WHERE id <> 1');
  });

  afterAll(async () => {
    await closeDatabases();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The JSON text of one row, so that every digit the database gives is compared. */
  async function rowText(resource: string, id: number): Promise<string> {
    const reply = await invoke({ method: 'GET', path: `/res/${resource}/${id}`, query: '_output=json' });
    expect(reply.status).toBe(200);
    return reply.body;
  }

  async function call(method: string, resourcePath: string, body?: string, query = '', headers = form) {
    const reply = await invoke({ method, path: resourcePath, query, headers, body });
    return { status: reply.status, body: reply.status === 200 ? JSON.parse(reply.body) : reply.body };
  }

  describe.each(refused)('%s %s', (label, value, message) => {
    const bad = { status: 400, body: message };
    const encoded = `${label}=${encodeURIComponent(value)}`;

    it('is a 400 as a value written (form, JSON and XML bodies), and nothing is written', async () => {
      const before = await rowText('Measure', 1);
      expect(await call('POST', '/res/Measure', `id=2&${encoded}`)).toEqual(bad);
      expect(await call('PUT', '/res/Measure/1', encoded)).toEqual(bad);
      const jsonBody = JSON.stringify({ measures: [{ id: 2, [label]: value }] });
      expect(await call('POST', '/res/Measure', jsonBody, '', json)).toEqual(bad);
      const xmlBody = `<request><measure id="2" ${label}="${value}"/></request>`;
      expect(await call('PUT', '/res/Measure', xmlBody, '', xml)).toEqual(bad);
      expect(await rowText('Measure', 1)).toBe(before);
      expect((await call('GET', '/res/Measure', undefined, '_output=json')).body.measures).toHaveLength(1);
    });

    it('is a 400 as a filter: equal, compared, in a list; on reads and on writes', async () => {
      const filter = (prefix: string, suffix = '') => `${label}=${encodeURIComponent(`${prefix}${value}${suffix}`)}`;
      expect(await call('GET', '/res/Measure', undefined, encoded)).toEqual(bad);
      expect(await call('GET', '/res/Measure', undefined, filter('>'))).toEqual(bad);
      expect(await call('GET', '/res/Measure', undefined, filter('!'))).toEqual(bad);
      expect(await call('GET', '/res/Measure', undefined, filter(`(${valid[label]},`, ')'))).toEqual(bad);
      expect(await call('PUT', '/res/Measure', 'name=x', encoded)).toEqual(bad);
      expect(await call('DELETE', '/res/Measure', undefined, encoded)).toEqual(bad);
    });
  });

  it('a path key out of its column range is a 400', async () => {
    expect(await call('GET', '/res/Measure/2147483648')).toEqual({
      status: 400,
      body: 'Could not convert id value "2147483648" to number: id holds integers from -2147483648 to 2147483647',
    });
  });

  it('values at the limits are stored and read back as written, the same on every database', async () => {
    const body = {
      id: 2,
      small: -32768,
      whole: '2147483647',
      big: '-9223372036854775808',
      price: '999999.99',
      single: '1e-40',
      twice: '5e-324',
      code: 'éé€',
      name: 'ééééééééé€',
      day: '0001-01-01',
      at: '24:00',
      stamp: '9999-12-31T23:59:59.999',
    };
    expect((await call('POST', '/res/Measure', JSON.stringify({ measures: [body] }), '', json)).status).toBe(200);
    const text = await rowText('Measure', 2);
    expect(text).toMatch(
      /^\{"measures":\[\{"id":2,"small":-32768,"whole":2147483647,"big":-9223372036854775808,"price":999999\.99,"single":[^,]+,"twice":[^,]+,"code":"éé€","name":"ééééééééé€","day":"0001-01-01","at":"24:00:00","stamp":"9999-12-31 23:59:59\.999"\}\]\}$/,
    );
    expect(Number(JSON.parse(text).measures[0].single)).toBeGreaterThan(0);
    expect(Number(JSON.parse(text).measures[0].twice)).toBeGreaterThan(0);
  });

  it.each([
    ['price', '1.5e2', '150.00'],
    ['price', '1.50', '1.50'],
    ['price', '1.2300', '1.23'],
    ['price', '-0.5E1', '-5.00'],
    ['price', '000.1', '0.10'],
    ['stamp', '2024-01-01 10:00:00.1230', '"2024-01-01 10:00:00.123"'],
    // PostgreSQL prints no fraction of a whole second, MariaDB prints as many digits as the column keeps
    ['stamp', '2024-02-29', '"2024-02-29 00:00:00'],
    ['at', '10:00:00.000', '"10:00:00"'],
    ['day', '9999-12-31', '"9999-12-31"'],
  ])('%s %s is stored as %s, without rounding', async (label, value, stored) => {
    expect((await call('PUT', '/res/Measure/1', `${label}=${encodeURIComponent(value)}`)).status).toBe(200);
    expect(await rowText('Measure', 1)).toContain(`"${label}":${stored}`);
    expect(
      (await call('GET', '/res/Measure', undefined, `${label}=${encodeURIComponent(value)}&_output=json`)).body,
    ).toEqual({
      measures: [expect.objectContaining({ id: 1 })],
    });
  });

  it('a JSON number with an exponent is a decimal like any other', async () => {
    const reply = await call('PUT', '/res/Measure', '{"measures":[{"id":1,"price":1e-7}]}', '', json);
    expect(reply).toEqual({ status: 400, body: `Could not convert price value "1e-7" to number: ${beyondScale}` });
    expect((await call('PUT', '/res/Measure', '{"measures":[{"id":1,"price":1.5e2}]}', '', json)).status).toBe(200);
    expect(await rowText('Measure', 1)).toContain('"price":150.00');
  });

  it.each(refusedExtra[target.engine])('%s %s is a 400 on this database', async (label, value, message) => {
    const encoded = `${label}=${encodeURIComponent(value)}`;
    const before = await rowText('Extra', 1);
    expect(await call('PUT', '/res/Extra/1', encoded)).toEqual({ status: 400, body: message });
    expect(await call('GET', '/res/Extra', undefined, encoded)).toEqual({ status: 400, body: message });
    expect(await rowText('Extra', 1)).toBe(before);
  });

  it.each(storedExtra[target.engine])('%s %s is stored as written on this database', async (label, value, stored) => {
    expect((await call('PUT', '/res/Extra/1', `${label}=${encodeURIComponent(value)}`)).status).toBe(200);
    expect(await rowText('Extra', 1)).toContain(`"${label}":${stored}`);
  });
});
