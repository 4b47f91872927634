/**
 * Writes reach only the rows a resource's query shows (its WHERE and joins), through the real handlers on every
 * database: by path key, by body rows and by query filter; through an inner join to an extension table, and for the
 * child rows of a hierarchical resource. A filtered write holds its filter at the moment of writing, even when
 * another transaction changes a matched row while the write waits for it (on the servers: PGlite serves one
 * connection at a time). Keys are matched as the database compares them, whatever their type.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import postgres from 'postgres';
import { closeDatabases } from '../../lib/db/select-database';
import type { EngineName } from '../../lib/resource';
import { serverTargets, type Target, type TestDatabase, targets } from '../support/databases';
import { invoke, useService } from '../support/service';

const json = { accept: 'application/json' };
const form = { ...json, 'content-type': 'application/x-www-form-urlencoded' };
const jsonBody = { ...json, 'content-type': 'application/json' };

function schema(engine: EngineName): string[] {
  const id = engine === 'postgres' ? 'serial primary key' : 'int auto_increment primary key';
  const tableOptions = engine === 'mysql' ? ' ENGINE=InnoDB' : '';
  return [
    `CREATE TABLE customer_order (order_id ${id}, customer int NOT NULL, status varchar(10) NOT NULL,
       total decimal(8,2))${tableOptions}`,
    `CREATE TABLE order_note (order_id int primary key, note varchar(40),
       CONSTRAINT note_order_fk FOREIGN KEY (order_id) REFERENCES customer_order (order_id))${tableOptions}`,
    `CREATE TABLE order_line (line_id ${id}, order_id int NOT NULL, sku varchar(20) NOT NULL,
       status varchar(10) NOT NULL, CONSTRAINT line_order_fk FOREIGN KEY (order_id) REFERENCES customer_order (order_id))${tableOptions}`,
  ];
}

const data = [
  'DELETE FROM order_line',
  'DELETE FROM order_note',
  'DELETE FROM customer_order',
  `INSERT INTO customer_order (order_id, customer, status, total) VALUES
     (1, 5, 'open', 10.00), (2, 5, 'open', 20.00), (3, 5, 'closed', 30.00), (4, 6, 'open', 40.00), (5, 6, 'closed', 50.00)`,
  `INSERT INTO order_note (order_id, note) VALUES (1, 'gift'), (3, 'late'), (4, 'rush')`,
  `INSERT INTO order_line (line_id, order_id, sku, status) VALUES
     (1, 1, 'a', 'active'), (2, 1, 'b', 'void'), (3, 2, 'c', 'active'), (4, 3, 'd', 'active')`,
];

const definition = (query: string, tables: string) =>
  `<sqlResource><query>${query}</query><metadata>${tables}</metadata></sqlResource>`;
const parent = (name: string, row: string) => `<table name="${name}" role="Parent" rowAlias="${row}"/>`;

const definitions: Record<string, string> = {
  OpenOrders: definition(
    "select order_id, customer, status, total from customer_order where status = 'open'",
    parent('customer_order', 'order'),
  ),
  OpenOrderTotals: definition(
    "select customer, total from customer_order where status = 'open'",
    parent('customer_order', 'order'),
  ),
  AllOrders: definition(
    'select order_id, customer, status, total from customer_order',
    parent('customer_order', 'order'),
  ),
  NotedOrders: definition(
    'select o.order_id, o.customer, o.status, n.note from customer_order o join order_note n on n.order_id = o.order_id',
    `${parent('customer_order', 'order')}<table name="order_note" role="ParentExtension"/>`,
  ),
  NotedOrdersOuter: definition(
    'select o.order_id, o.customer, o.status, n.note from customer_order o left join order_note n on n.order_id = o.order_id',
    `${parent('customer_order', 'order')}<table name="order_note" role="ParentExtension"/>`,
  ),
  OpenOrderLines: definition(
    `select o.order_id, o.customer, o.status, l.line_id, l.sku from customer_order o
     left join order_line l on l.order_id = o.order_id and l.status = 'active' where o.status = 'open'`,
    `${parent('customer_order', 'order')}<table name="order_line" role="Child" rowAlias="line"/>`,
  ),
};

function writeDefinitions(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rrs-scope-'));
  for (const [name, xml] of Object.entries(files)) writeFileSync(path.join(dir, `${name}.xml`), xml);
  return dir;
}

async function call(method: string, where: string, query = '', body?: string, headers = form) {
  const reply = await invoke({ method, path: `/res/${where}`, query, headers: body ? headers : json, body });
  return { status: reply.status, body: reply.status === 200 ? JSON.parse(reply.body) : reply.body };
}

/** The orders as `id:status:total`, and the other tables' rows. */
async function state(db: TestDatabase) {
  const text = (rows: Record<string, unknown>[], ...columns: string[]) =>
    rows.map((row) => columns.map((c) => String(row[c])).join(':'));
  return {
    orders: text(
      await db.exec('SELECT order_id, status, total FROM customer_order ORDER BY order_id'),
      'order_id',
      'status',
      'total',
    ),
    notes: text(await db.exec('SELECT order_id, note FROM order_note ORDER BY order_id'), 'order_id', 'note'),
    lines: text(await db.exec('SELECT line_id, order_id FROM order_line ORDER BY line_id'), 'line_id', 'order_id'),
  };
}

const untouched = {
  orders: ['1:open:10.00', '2:open:20.00', '3:closed:30.00', '4:open:40.00', '5:closed:50.00'],
  notes: ['1:gift', '3:late', '4:rush'],
  lines: ['1:1', '2:1', '3:2', '4:3'],
};

function useScopeDatabase(target: Target) {
  const fx = {} as { db: TestDatabase; dir: string };
  beforeAll(async () => {
    fx.db = await target.create();
    for (const statement of schema(target.engine)) await fx.db.exec(statement);
    fx.dir = writeDefinitions(definitions);
    await useService({ DATABASE_URL: fx.db.url, DEFINITIONS_DIR: fx.dir });
  });
  beforeEach(async () => {
    for (const statement of data) await fx.db.exec(statement);
  });
  afterAll(async () => {
    await closeDatabases();
    await fx.db?.drop();
    rmSync(fx.dir, { recursive: true, force: true });
  });
  return fx;
}

describe.each(targets())('writes reach only the rows the query shows, on $name', (target) => {
  const fx = useScopeDatabase(target);

  it('by path key: a closed order counts 0, as a missing one does, and stays as it is', async () => {
    expect(await call('PUT', 'OpenOrders/3', '', 'total=1')).toEqual({ status: 200, body: { rowsAffected: 0 } });
    expect(await call('DELETE', 'OpenOrders/3')).toEqual({ status: 200, body: { rowsAffected: 0 } });
    expect(await call('PUT', 'OpenOrders/2', '', 'total=1')).toEqual({ status: 200, body: { rowsAffected: 1 } });
    expect((await state(fx.db)).orders).toEqual([
      '1:open:10.00',
      '2:open:1.00',
      '3:closed:30.00',
      '4:open:40.00',
      '5:closed:50.00',
    ]);
  });

  it('by body rows: only the open orders among them', async () => {
    const rows = JSON.stringify({
      orders: [
        { order_id: 1, total: 11 },
        { order_id: 3, total: 33 },
        { order_id: 4, total: 44 },
      ],
    });
    expect(await call('PUT', 'OpenOrders', '', rows, jsonBody)).toEqual({ status: 200, body: { rowsAffected: 2 } });
    const keys = JSON.stringify({ orders: [{ order_id: 5 }, { order_id: 2 }] });
    await fx.db.exec('DELETE FROM order_line WHERE order_id = 2');
    expect(await call('DELETE', 'OpenOrders', '', keys, jsonBody)).toEqual({ status: 200, body: { rowsAffected: 1 } });
    expect((await state(fx.db)).orders).toEqual(['1:open:11.00', '3:closed:30.00', '4:open:44.00', '5:closed:50.00']);
  });

  it('by query filter: the filter matches only what the query shows', async () => {
    expect(await call('PUT', 'OpenOrders', 'customer=6', 'total=0')).toEqual({
      status: 200,
      body: { rowsAffected: 1 },
    });
    await fx.db.exec('DELETE FROM order_line');
    await fx.db.exec('DELETE FROM order_note');
    expect(await call('DELETE', 'OpenOrders', 'customer=5')).toEqual({ status: 200, body: { rowsAffected: 2 } });
    expect((await state(fx.db)).orders).toEqual(['3:closed:30.00', '4:open:0.00', '5:closed:50.00']);
  });

  it('without the key: rows found by the values the query selects, refused when a hidden row has them too', async () => {
    await fx.db.exec('DELETE FROM order_line');
    await fx.db.exec('DELETE FROM order_note');
    expect(await call('DELETE', 'OpenOrderTotals', 'customer=5')).toEqual({ status: 200, body: { rowsAffected: 2 } });
    await fx.db.exec("INSERT INTO customer_order (order_id, customer, status, total) VALUES (7, 6, 'closed', 40.00)");
    expect(await call('PUT', 'OpenOrderTotals', 'customer=6', 'total=41')).toEqual({
      status: 409,
      body: 'Rows that the filter matches in OpenOrderTotals have the same values, in every field it selects from customer_order, as rows it does not show, so they cannot be told apart: nothing was written. A query that selects the primary key of customer_order can write them',
    });
    expect((await state(fx.db)).orders).toEqual(['3:closed:30.00', '4:open:40.00', '5:closed:50.00', '7:closed:40.00']);
  });

  it('a filter on a field the query hides nothing of writes in one statement: the same rows', async () => {
    expect(await call('PUT', 'AllOrders', 'status=closed', 'total=0')).toEqual({
      status: 200,
      body: { rowsAffected: 2 },
    });
    expect((await state(fx.db)).orders).toEqual([
      '1:open:10.00',
      '2:open:20.00',
      '3:closed:0.00',
      '4:open:40.00',
      '5:closed:0.00',
    ]);
  });

  it('through an inner join to an extension: an order without a note is not shown, so not written', async () => {
    expect(await call('PUT', 'NotedOrders/2', '', 'note=new')).toEqual({ status: 200, body: { rowsAffected: 0 } });
    expect(await call('PUT', 'NotedOrders', 'customer=5', 'status=held')).toEqual({
      status: 200,
      body: { rowsAffected: 2 },
    });
    await fx.db.exec('DELETE FROM order_line');
    expect(await call('DELETE', 'NotedOrders/2')).toEqual({ status: 200, body: { rowsAffected: 0 } });
    expect(await state(fx.db)).toEqual({
      orders: ['1:held:10.00', '2:open:20.00', '3:held:30.00', '4:open:40.00', '5:closed:50.00'],
      notes: untouched.notes,
      lines: [],
    });
  });

  it('through an outer join the same order is shown: its note is created, then it is deleted', async () => {
    expect(await call('PUT', 'NotedOrdersOuter/2', '', 'note=new')).toEqual({ status: 200, body: { rowsAffected: 1 } });
    await fx.db.exec('DELETE FROM order_line WHERE order_id = 2');
    expect(await call('DELETE', 'NotedOrdersOuter/2')).toEqual({ status: 200, body: { rowsAffected: 2 } });
    expect((await state(fx.db)).notes).toEqual(untouched.notes);
  });

  it('child rows: only those the query shows under a parent it shows', async () => {
    const line = (line_id: number, sku?: string) => JSON.stringify({ lines: [sku ? { line_id, sku } : { line_id }] });
    // line 2 is void: the join leaves it out
    expect(await call('PUT', 'OpenOrderLines/1', '', line(2, 'x'), jsonBody)).toEqual({
      status: 200,
      body: { rowsAffected: 0 },
    });
    expect(await call('DELETE', 'OpenOrderLines/1', '', line(2), jsonBody)).toEqual({
      status: 200,
      body: { rowsAffected: 0 },
    });
    expect(await call('PUT', 'OpenOrderLines/1', '', line(1, 'x'), jsonBody)).toEqual({
      status: 200,
      body: { rowsAffected: 1 },
    });
    // order 3 is closed: a parent in the path that the query does not show is not found
    expect(
      await call('POST', 'OpenOrderLines/3', '', JSON.stringify({ lines: [{ sku: 'z' }] }), jsonBody),
    ).toMatchObject({
      status: 404,
    });
    expect(await call('DELETE', 'OpenOrderLines/3', '', line(4), jsonBody)).toMatchObject({ status: 404 });
    // a parent's delete takes every child row it owns, shown or not
    await fx.db.exec('DELETE FROM order_note WHERE order_id = 1');
    expect(await call('DELETE', 'OpenOrderLines/1')).toEqual({ status: 200, body: { rowsAffected: 3 } });
    expect((await state(fx.db)).lines).toEqual(['3:2', '4:3']);
  });
});

/** `fn` run at most once: later calls get the first call's promise. */
const once = (fn: () => Promise<void>) => {
  let done: Promise<void> | undefined;
  return () => {
    done ??= fn();
    return done;
  };
};

/** A transaction of the test's own, on a connection of its own: it holds its locks until commit. */
async function openTransaction(target: Target, url: string) {
  if (target.engine === 'postgres') {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    const reserved = await sql.reserve();
    await reserved.unsafe('BEGIN');
    const commit = once(async () => {
      await reserved.unsafe('COMMIT');
      reserved.release();
      await sql.end();
    });
    return { run: (text: string) => reserved.unsafe(text), commit };
  }
  const conn = await mysql.createConnection(url);
  await conn.query('START TRANSACTION');
  const commit = once(async () => {
    await conn.query('COMMIT');
    await conn.end();
  });
  return { run: (text: string) => conn.query(text), commit };
}

/** Until a session on the test database waits for a row lock (the service's write, blocked by the test). */
async function lockWaited(target: Target, db: TestDatabase, answered: () => unknown): Promise<void> {
  const waiting =
    target.engine === 'postgres'
      ? "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
      : // InnoDB's own list of lock waits can lag for seconds: a statement running this long here is waiting
        `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST
           WHERE DB = DATABASE() AND COMMAND = 'Query' AND ID <> CONNECTION_ID() AND TIME_MS > 300`;
  for (let i = 0; i < 200; i += 1) {
    if (Number((await db.exec(waiting))[0]?.n) > 0) return;
    const reply = answered();
    if (reply)
      throw new Error(`the write answered without waiting for the row the test holds: ${JSON.stringify(reply)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the write never waited for the row the test holds');
}

for (const target of serverTargets()) describeConcurrentChange(target);

function describeConcurrentChange(target: Target): void {
  describe(`a filtered write holds its filter when it writes, on ${target.name}`, () => {
    const fx = useScopeDatabase(target);

    it.each([
      ['DELETE', 'OpenOrders', 'customer=5', undefined],
      ['PUT', 'OpenOrders', 'customer=5', 'total=0'],
      ['DELETE', 'AllOrders', 'customer=5&status=open', undefined],
      ['PUT', 'AllOrders', 'customer=5&status=open', 'total=0'],
    ] as const)('%s /res/%s?%s: an order closed meanwhile is not written', async (method, resource, query, body) => {
      await fx.db.exec('DELETE FROM order_line');
      await fx.db.exec('DELETE FROM order_note');
      // another request closes order 1 and has not committed yet when the write starts
      const other = await openTransaction(target, fx.db.url);
      let reply: Awaited<ReturnType<typeof call>> | undefined;
      try {
        await other.run("UPDATE customer_order SET status = 'closed' WHERE order_id = 1");
        const pending = call(method, resource, query, body).then((r) => {
          reply = r;
        });
        await lockWaited(target, fx.db, () => reply);
        await other.commit();
        await pending;
      } finally {
        await other.commit();
      }
      expect(reply).toEqual({ status: 200, body: { rowsAffected: 1 } });
      const orders = (await state(fx.db)).orders;
      expect(orders[0]).toBe('1:closed:10.00');
      expect(orders).not.toContain('2:open:20.00');
    });
  });
}
