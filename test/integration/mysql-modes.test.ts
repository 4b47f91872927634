/**
 * A MySQL server whose sql_mode changes how SQL text reads (NO_BACKSLASH_ESCAPES: a backslash no longer escapes a
 * quote; ANSI_QUOTES: a double-quoted text is a name) is refused at connect, with an error that says which mode and
 * how to fix it, so no caller's value can ever be read as SQL there: a reader with only a select privilege tried a
 * UNION of a table no definition serves through a filter, and a token's claim likewise. Each server is a private
 * MariaDB started by the test with that mode; the shared server keeps its own. Also the check itself, asked of real
 * sessions of the shared MariaDB: each case sets its session's sql_mode (the server writes the modes in its own
 * order, ANSI spelled out) and hands the connection to the check every new connection of the pool goes through.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { requireSafeSqlMode } from '../../lib/db/engines/mysql/mysql-connection-check';
import { closeDatabases } from '../../lib/db/select-database';
import { serverTargets, type TestDatabase } from '../support/databases';
import { inCi, noteMissingTool } from '../support/left-out';
import { mariadbInstalled, type PrivateMariadb, startPrivateMariadb } from '../support/private-mariadb';
import { invoke, useService } from '../support/service';

const setup = [
  "CREATE TABLE book (id int PRIMARY KEY, title varchar(80) NOT NULL, owner varchar(20) NOT NULL DEFAULT '')",
  'CREATE TABLE staff_secret (id int PRIMARY KEY, secret varchar(80) NOT NULL)',
  "INSERT INTO book VALUES (1, 'Dune', 'alice'), (2, 'Emma', 'bob')",
  "INSERT INTO staff_secret VALUES (1, 'the vault code')",
];

const definitions = {
  Book: '<sqlResource><query>select id, title from book</query><metadata><table name="book" role="Parent"/></metadata></sqlResource>',
};

/** A value that ends its string under NO_BACKSLASH_ESCAPES when a driver escapes its quote with a backslash. */
const union = "x\\' UNION SELECT id, secret FROM staff_secret -- ";

const runs = mariadbInstalled() || inCi();
if (!runs) noteMissingTool('mariadbd and mariadb-install-db (a MariaDB server)', 'apt-get install mariadb-server');

if (runs) {
  describe.each([
    ['NO_BACKSLASH_ESCAPES', 'NO_BACKSLASH_ESCAPES'],
    ['ANSI_QUOTES', 'ANSI_QUOTES,STRICT_TRANS_TABLES'],
  ])('a MariaDB server with sql_mode %s', (mode, sqlMode) => {
    let server: PrivateMariadb;
    let dir: string;

    beforeAll(async () => {
      server = await startPrivateMariadb([`--sql-mode=${sqlMode}`]);
      const conn = await mysql.createConnection({ uri: server.url });
      for (const statement of setup) await conn.query(statement);
      await conn.end();
      dir = mkdtempSync(path.join(os.tmpdir(), 'rrs-modes-'));
      for (const [name, xml] of Object.entries(definitions)) writeFileSync(path.join(dir, `${name}.xml`), xml);
      await useService({ DATABASE_URL: server.url, DEFINITIONS_DIR: dir });
    });
    afterAll(async () => {
      await closeDatabases();
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('is refused with a 500 that names the mode and how to turn it off; no row of any table is served', async () => {
      for (const query of [`title=${encodeURIComponent(union)}`, '']) {
        const reply = await invoke({
          method: 'GET',
          path: '/res/Book',
          query,
          headers: { accept: 'application/json' },
        });
        expect([reply.status, reply.body]).toEqual([500, expect.stringContaining(`sql_mode ${mode}`)]);
        expect(reply.body).not.toContain('vault');
        expect(reply.body).toContain('SET GLOBAL sql_mode');
      }
    });

    it('once the mode is off, the next connection is served', async () => {
      const conn = await mysql.createConnection({ uri: server.url });
      await conn.query("SET GLOBAL sql_mode = 'STRICT_TRANS_TABLES'");
      await conn.end();
      try {
        const reply = await invoke({ method: 'GET', path: '/res/Book', query: `title=${encodeURIComponent(union)}` });
        expect([reply.status, reply.body]).toEqual([200, '<?xml version="1.0" encoding="UTF-8"?><readResponse/>']);
      } finally {
        const again = await mysql.createConnection({ uri: server.url });
        await again.query(`SET GLOBAL sql_mode = '${sqlMode}'`);
        await again.end();
        await closeDatabases();
      }
    });

    it('writes are refused the same way, and write nothing', async () => {
      const reply = await invoke({
        method: 'POST',
        path: '/res/Book',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `id=3&title=${encodeURIComponent(union)}`,
      });
      expect(reply.status).toBe(500);
      const conn = await mysql.createConnection({ uri: server.url });
      const [rows] = await conn.query('SELECT COUNT(*) AS n FROM book');
      await conn.end();
      expect((rows as { n: number }[])[0]?.n).toBe(2);
    });
  });
}

const why = {
  NO_BACKSLASH_ESCAPES: 'a backslash in a value would be a plain character, so a value could be read as SQL',
  ANSI_QUOTES: 'a double-quoted text would be a name, not a text',
};

for (const target of serverTargets().filter((t) => t.engine === 'mysql')) {
  describe(`requireSafeSqlMode on ${target.name}`, () => {
    let testDb: TestDatabase;
    let pool: mysql.Pool;

    beforeAll(async () => {
      testDb = await target.create();
      pool = mysql.createPool({ uri: testDb.url, connectionLimit: 1 });
    });
    afterAll(async () => {
      await pool?.end();
      await testDb?.drop();
    });

    /** The check on a fresh session whose sql_mode is `mode`: undefined when it passes, else the refusal. */
    async function check(mode: string): Promise<unknown> {
      const conn = await pool.getConnection();
      try {
        await conn.query('SET SESSION sql_mode = ?', [mode]);
        return await requireSafeSqlMode(conn).catch((error: unknown) => error);
      } finally {
        // the check remembers each connection it passed: the next case gets a new one
        conn.destroy();
      }
    }

    it.each(['', 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION'])(
      'sql_mode %j passes',
      async (mode) => {
        expect(await check(mode)).toBeUndefined();
      },
    );

    it('names the mode, says why, and gives the sql_mode without it', async () => {
      expect(await check('STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES')).toMatchObject({
        status: 500,
        code: 'configuration_invalid',
        message: `The MySQL server runs with sql_mode NO_BACKSLASH_ESCAPES (NO_BACKSLASH_ESCAPES: ${why.NO_BACKSLASH_ESCAPES}): the service refuses to send it any statement. Leave it out of the server's sql_mode, e.g. SET GLOBAL sql_mode = 'STRICT_TRANS_TABLES' and in the server's configuration`,
      });
    });

    it('ANSI holds ANSI_QUOTES, and is left out of the suggestion', async () => {
      expect(await check('ANSI')).toMatchObject({
        code: 'configuration_invalid',
        message: `The MySQL server runs with sql_mode ANSI_QUOTES (ANSI_QUOTES: ${why.ANSI_QUOTES}): the service refuses to send it any statement. Leave it out of the server's sql_mode, e.g. SET GLOBAL sql_mode = 'REAL_AS_FLOAT,PIPES_AS_CONCAT,IGNORE_SPACE' and in the server's configuration`,
      });
    });

    it('several modes at once', async () => {
      const refusal = (await check('PIPES_AS_CONCAT,ANSI_QUOTES,NO_BACKSLASH_ESCAPES')) as Error;
      expect(refusal.message).toContain('sql_mode ANSI_QUOTES and NO_BACKSLASH_ESCAPES (');
      expect(refusal.message).toContain(
        "Leave them out of the server's sql_mode, e.g. SET GLOBAL sql_mode = 'PIPES_AS_CONCAT'",
      );
    });
  });
}
