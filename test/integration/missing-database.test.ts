/**
 * A definition that selects a database its server does not have (`<database default="X">`) is a configuration
 * error: a 500 `database_unconfigured` that says which database is missing on which server and which variable
 * fixes it, through the real handlers, on every database. PGlite has one database that every name reaches, so there the
 * same settings serve.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeDatabases } from '../../lib/db/select-database';
import { type TestDatabase, targets } from '../support/databases';
import { testData, testSchema } from '../support/schema';
import { invoke, testDefinitions, useService } from '../support/service';

const absent = `rrs_absent_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
const variable = `DATABASE_URL_${absent.toUpperCase()}`;
let definitions: string;

beforeAll(() => {
  definitions = mkdtempSync(path.join(os.tmpdir(), 'rrs-missing-db-'));
  writeFileSync(
    path.join(definitions, 'Thing.xml'),
    `<sqlResource>
  <query>select item_id as id, name from item</query>
  <metadata><database default="${absent}"/><table name="item" role="Parent" rowAlias="thing"/></metadata>
</sqlResource>`,
  );
});
afterAll(() => rmSync(definitions, { recursive: true, force: true }));
afterEach(closeDatabases);

/** The same URL with another database part. */
function withDatabase(url: string, database: string): string {
  const other = new URL(url);
  other.pathname = `/${database}`;
  return other.toString();
}

/** The server part as the message shows it: scheme, user, host and port. */
/** host:port of a URL, the only part of it a message may show. */
const serverOf = (url: string) => new URL(url).host;

describe.each(targets())('a missing database on $name', (target) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await target.create();
    for (const statement of [...testSchema(target.engine), ...testData(target.engine)]) await db.exec(statement);
  });
  afterAll(async () => db?.drop());

  const read = (name: string) => invoke({ method: 'GET', path: `/res/${name}/1` });

  it('DATABASE_URL_<NAME> selects the database that holds the tables: 200', async () => {
    await useService({ DATABASE_URL: undefined, [variable]: db.url, DEFINITIONS_DIR: definitions });
    const reply = await read('Thing');
    expect([reply.status, reply.body]).toEqual([
      200,
      '<?xml version="1.0" encoding="UTF-8"?><readResponse><thing id="1" name="apple"/></readResponse>',
    ]);
  });

  if (target.name === 'pglite') {
    it('every database name reaches the one PGlite database, so the definition is served', async () => {
      await useService({ DATABASE_URL: db.url, [variable]: undefined, DEFINITIONS_DIR: definitions });
      expect((await read('Thing')).status).toBe(200);
    });
  } else {
    it('database X on the server of DATABASE_URL: 500 naming the server and DATABASE_URL_X', async () => {
      await useService({ DATABASE_URL: db.url, [variable]: undefined, DEFINITIONS_DIR: definitions });
      const reply = await read('Thing');
      expect(reply.status).toBe(500);
      expect(reply.headers['content-type']).toMatch(/^text\/plain/);
      expect(reply.body).toBe(
        `Resource Thing selects database ${absent}, which does not exist on the server of DATABASE_URL (${serverOf(db.url)}); create it there, or set ${variable} to the URL of the database to use`,
      );
      const problem = await invoke({
        method: 'GET',
        path: '/res/Thing',
        headers: { accept: 'application/problem+json' },
      });
      expect(JSON.parse(problem.body)).toMatchObject({ status: 500, code: 'database_unconfigured' });
    });

    it('DATABASE_URL_X naming a missing database: 500 naming that variable', async () => {
      const missing = withDatabase(db.url, `${absent}_copy`);
      await useService({ DATABASE_URL: undefined, [variable]: missing, DEFINITIONS_DIR: definitions });
      const reply = await read('Thing');
      expect([reply.status, reply.body]).toEqual([
        500,
        `Resource Thing selects database ${absent} through ${variable}, whose database ${absent}_copy does not exist on its server (${serverOf(db.url)}); create it, or set ${variable} to the URL of an existing database`,
      ]);
    });

    it('no <database>: DATABASE_URL naming a missing database is a 500 naming DATABASE_URL', async () => {
      const missing = withDatabase(db.url, absent);
      await useService({ DATABASE_URL: missing, [variable]: undefined, DEFINITIONS_DIR: testDefinitions });
      const reply = await read('Item');
      expect([reply.status, reply.body]).toEqual([
        500,
        `Resource Item uses DATABASE_URL, whose database ${absent} does not exist on its server (${serverOf(db.url)}); create it, or set DATABASE_URL to the URL of an existing database`,
      ]);
    });
  }
});
