/**
 * DB_IDLE_TIMEOUT_S on the real servers: the connections a burst opened are closed once they have been unused for
 * the idle timeout, on PostgreSQL and on MariaDB alike, and the pool opens a fresh one for the next statement.
 *
 * The burst runs on the servers only (PGlite's server counts no sessions the way a database does); the pool options
 * that make MySQL close idle connections are checked everywhere.
 */
import type { Database } from '../../lib/db/database';
import { mysqlOptions } from '../../lib/db/engines/mysql/mysql-pool-options';
import { connectTo } from '../support/connect';
import { serverTargets, type TestDatabase } from '../support/databases';

const options = { connectTimeoutMs: 3000, statementTimeoutMs: 10000, poolSize: 3, idleTimeoutS: 1 };

/** The sessions on the test's own database, including the one that asks (the test's own connection). */
const sessions = {
  postgres: 'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()',
  mysql: 'SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = DATABASE()',
};
const sleep = { postgres: 'SELECT pg_sleep(0.3)', mysql: 'SELECT SLEEP(0.3)' };

for (const target of serverTargets()) {
  describe(`idle connections on ${target.name}`, () => {
    let testDb: TestDatabase;
    let db: Database | undefined;
    const count = async () => Number((await testDb.exec(sessions[target.engine]))[0]?.n);

    beforeAll(async () => {
      testDb = await target.create();
    });
    afterAll(async () => {
      await db?.close();
      await testDb?.drop();
    });

    it('closes what a burst opened once it is idle, and reconnects for the next statement', async () => {
      const idle = await count();
      db = await connectTo(testDb.url, options);
      const pool = db;
      await Promise.all([1, 2, 3].map(() => pool.run({ text: sleep[target.engine], params: [] })));
      expect(await count()).toBe(idle + 3);

      const deadline = Date.now() + 5000;
      while ((await count()) > idle && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await count()).toBe(idle);

      const { rows } = await pool.run({ text: 'SELECT 1 AS one', params: [] });
      expect(Number(rows[0]?.one)).toBe(1);
      expect(await count()).toBe(idle + 1);
    });
  });
}

describe('the MySQL pool options that make idle connections close', () => {
  // mysql2 trims idle connections only when maxIdle is below the connection limit (see mysql-pool-options.ts)
  it.each([
    { poolSize: 1, idleTimeoutS: 300, maxIdle: 1, idleTimeout: 300_000 },
    { poolSize: 2, idleTimeoutS: 300, maxIdle: 1, idleTimeout: 300_000 },
    { poolSize: 5, idleTimeoutS: 1, maxIdle: 4, idleTimeout: 1000 },
  ])('pool of $poolSize, idle after $idleTimeoutS s', ({ poolSize, idleTimeoutS, maxIdle, idleTimeout }) => {
    const pool = mysqlOptions('mysql://u@127.0.0.1:3306/db', { ...options, poolSize, idleTimeoutS });
    expect({ connectionLimit: pool.connectionLimit, maxIdle: pool.maxIdle, idleTimeout: pool.idleTimeout }).toEqual({
      connectionLimit: poolSize,
      maxIdle,
      idleTimeout,
    });
  });
});
