/**
 * Database.readEach on every database: the rows of a SELECT arrive in batches of the size asked, in order; when the
 * function given them throws, reading stops there (no further batch is handed over) and that error is what the call
 * throws; the pool goes on serving (PostgreSQL closes the portal on the same connection, MySQL closes the
 * connection); a database error part way through is classified like any other; and a pool of one connection is
 * still usable after each of these.
 */
import type { Database, Row } from '../../lib/db/database';
import { connectTo } from '../support/connect';
import { type TestDatabase, targets } from '../support/databases';

const options = { connectTimeoutMs: 3000, statementTimeoutMs: 10000, poolSize: 1, idleTimeoutS: 60 };
const ROWS = 2000;

describe.each(targets())('readEach on $name', (target) => {
  let testDb: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    testDb = await target.create();
    await testDb.exec('CREATE TABLE counted (n int primary key, word varchar(20))');
    const values = Array.from({ length: ROWS }, (_, i) => `(${i + 1}, 'w${i + 1}')`).join(', ');
    await testDb.exec(`INSERT INTO counted (n, word) VALUES ${values}`);
    db = await connectTo(testDb.url, options);
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  const all = { text: 'SELECT n, word FROM counted ORDER BY n', params: [] };
  const one = async () => Number((await db.run({ text: 'SELECT 1 AS one', params: [] })).rows[0]?.one);

  it('hands over every row, in order, in batches of the size asked', async () => {
    const sizes: number[] = [];
    const seen: Row[] = [];
    await db.readEach(all, 300, (rows) => {
      sizes.push(rows.length);
      seen.push(...rows);
    });
    expect(sizes).toEqual([300, 300, 300, 300, 300, 300, 200]);
    expect(seen.map((row) => Number(row.n))).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
    expect(seen[41]).toEqual({ n: target.engine === 'mysql' ? 42 : '42', word: 'w42' });
  });

  it('binds parameters; an empty result hands over nothing', async () => {
    const counts: number[] = [];
    await db.readEach({ text: all.text.replace('ORDER', 'WHERE n > 1990 ORDER'), params: [] }, 4, (rows) => {
      counts.push(rows.length);
    });
    expect(counts).toEqual([4, 4, 2]);
    const none: number[] = [];
    const text =
      target.engine === 'mysql' ? 'SELECT n FROM counted WHERE word = ?' : 'SELECT n FROM counted WHERE word = $1';
    await db.readEach({ text, params: ["x' OR '1'='1"] }, 10, (rows) => none.push(rows.length));
    expect(none).toEqual([]);
  });

  it('stops at the batch whose function throws, throws that error, and the pool of one serves on', async () => {
    for (let round = 0; round < 3; round += 1) {
      let batches = 0;
      const stop = new Error('over the limit');
      await expect(
        db.readEach(all, 100, () => {
          batches += 1;
          if (batches === 3) throw stop;
        }),
      ).rejects.toBe(stop);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(batches).toBe(3);
      expect(await one()).toBe(1);
    }
  });

  it('classifies a database error (on PostgreSQL part way through the rows), and serves on', async () => {
    const divide =
      target.engine === 'mysql'
        ? 'SELECT n, 1 DIV (n - 1500) AS q FROM counted ORDER BY n'
        : 'SELECT n, 1 / (n - 1500) AS q FROM counted ORDER BY n';
    const failing =
      target.engine === 'mysql' ? { text: 'SELECT n FROM no_such_table', params: [] } : { text: divide, params: [] };
    await expect(db.readEach(failing, 100, () => {})).rejects.toMatchObject({ status: expect.any(Number) });
    expect(await one()).toBe(1);
  });
});
