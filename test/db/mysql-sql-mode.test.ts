/**
 * The sql_mode settings a MySQL connection is refused under, and what the refusal says, asked of real sessions: each
 * case sets its session's sql_mode on the MariaDB server (which writes the modes in its own order, ANSI spelled out)
 * and hands the connection to the check that every new connection of the service's pool goes through.
 */
import mysql from 'mysql2/promise';
import { requireSafeSqlMode } from '../../lib/db/engines/mysql/mysql-sql-mode';
import { serverTargets, type TestDatabase } from '../support/databases';

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
