/**
 * postgres.js transactions as patched here (patches/postgres+*.patch, `begin`): a plain BEGIN that a connection
 * takes at once goes out with the transaction's first statements, without waiting for its answer. Counted by the
 * proxy that counts what the client sends, on PGlite and the PostgreSQL server. The transactions must stay whole:
 * a failure anywhere rolls back everything, a BEGIN that waits for a connection (the pool busy) or that has options
 * is answered before any statement goes, and many transactions at once on a small pool each commit or vanish whole.
 */
import postgres from 'postgres';
import { type CountingProxy, countingProxy } from '../support/counting-proxy';
import { type TestDatabase, targets } from '../support/databases';

const postgresTargets = targets().filter((target) => target.engine === 'postgres');

describe.each(postgresTargets)('postgres.js transactions on $name', (target) => {
  let db: TestDatabase;
  let proxy: CountingProxy;
  let sql: postgres.Sql;
  const labels = async (like: string) =>
    (await db.exec(`SELECT label FROM pipe_t WHERE label LIKE '${like}' ORDER BY label`)).map((row) => row.label);
  /** What `work` gave, and how many times the client sent to the server meanwhile. */
  async function sends<T>(work: () => Promise<T>): Promise<[T | Error, number]> {
    const before = proxy.sent();
    const outcome = await work().catch((error: Error) => error);
    return [outcome, proxy.sent() - before];
  }

  beforeAll(async () => {
    db = await target.create();
    await db.exec('CREATE TABLE pipe_t (id serial PRIMARY KEY, label text UNIQUE NOT NULL)');
    proxy = await countingProxy(db.url);
    sql = postgres(proxy.url, { max: 2, prepare: false, onnotice: () => {} });
    await sql`SELECT 1`; // connected
  });
  afterAll(async () => {
    await sql?.end();
    proxy?.close();
    await db?.drop();
  });

  it('a plain BEGIN goes with the first statement, and the transaction commits', async () => {
    const [outcome, sent] = await sends(() =>
      sql.begin(async (tx) => {
        const [row] = await tx`INSERT INTO pipe_t (label) VALUES ('a1') RETURNING id`;
        await tx`INSERT INTO pipe_t (label) VALUES (${`a2-${row?.id}`})`;
        return 'done';
      }),
    );
    expect(outcome).toBe('done');
    expect(sent).toBe(3); // BEGIN with the first INSERT, the second INSERT, COMMIT
    expect(await labels('a%')).toEqual(['a1', expect.stringMatching(/^a2-\d+$/)]);
  });

  it('a failed first statement sent with BEGIN rolls the transaction back, and nothing is written', async () => {
    await db.exec("INSERT INTO pipe_t (label) VALUES ('taken')");
    const [outcome] = await sends(() =>
      sql.begin(async (tx) => {
        await tx`INSERT INTO pipe_t (label) VALUES ('taken')`;
      }),
    );
    expect(outcome).toMatchObject({ code: '23505' });
    const [later] = await sends(() =>
      sql.begin(async (tx) => {
        await tx`INSERT INTO pipe_t (label) VALUES ('b1')`;
        await tx`INSERT INTO pipe_t (label) VALUES ('taken')`;
      }),
    );
    expect(later).toMatchObject({ code: '23505' });
    expect(await labels('b%')).toEqual([]);
    expect(await sql`SELECT 1 AS one`).toEqual([{ one: 1 }]); // the connection is back in the pool, usable
  });

  it('a BEGIN with options is answered before the first statement goes, and a bad one writes nothing', async () => {
    const [outcome, sent] = await sends(() =>
      sql.begin('isolation level serializable', async (tx) => {
        await tx`INSERT INTO pipe_t (label) VALUES ('c1')`;
      }),
    );
    expect(outcome).toEqual(undefined);
    expect(sent).toBe(3); // BEGIN, the INSERT, COMMIT: one after the other
    const [bad] = await sends(() =>
      sql.begin('isolation level nonsense', async (tx) => {
        await tx`INSERT INTO pipe_t (label) VALUES ('c2')`;
      }),
    );
    expect(bad).toMatchObject({ code: '42601' }); // a syntax error, from BEGIN
    expect(await labels('c%')).toEqual(['c1']);
  });

  it('many transactions at once on a pool of two: each commits whole, or rolls back whole', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        sql
          .begin(async (tx) => {
            await tx`INSERT INTO pipe_t (label) VALUES (${`d${i}-first`})`;
            // every third one fails in its second statement
            await tx`INSERT INTO pipe_t (label) VALUES (${i % 3 === 0 ? 'taken' : `d${i}-second`})`;
            return 'committed';
          })
          .catch((error: { code?: string }) => error.code),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'committed')).toHaveLength(40);
    expect(outcomes.filter((outcome) => outcome === '23505')).toHaveLength(20);
    const written = await labels('d%');
    expect(written).toHaveLength(80);
    for (let i = 0; i < 60; i++) {
      const expected = i % 3 === 0 ? [] : [`d${i}-first`, `d${i}-second`];
      expect(written.filter((label) => String(label).startsWith(`d${i}-`))).toEqual(expected);
    }
  });

  it('a transaction whose BEGIN waits for a busy pool still runs whole after the connection frees', async () => {
    const one = postgres(proxy.url, { max: 1, prepare: false });
    try {
      const slow = one`SELECT pg_sleep(0.2)`;
      const waiting = one.begin(async (tx) => {
        await tx`INSERT INTO pipe_t (label) VALUES ('e1')`;
        await tx`INSERT INTO pipe_t (label) VALUES ('e2')`;
      });
      await Promise.all([slow, waiting]);
      expect(await labels('e%')).toEqual(['e1', 'e2']);
    } finally {
      await one.end();
    }
  });
});
