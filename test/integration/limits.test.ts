/**
 * D19 413s: a request body over MAX_BODY_BYTES is refused before anything runs; a result over MAX_RESULT_BYTES
 * is refused with a hint to page it.
 */
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, testDefinitions, useService } from '../support/service';

const [pglite] = targets();

describe('limits', () => {
  const fx = useFixture(pglite as NonNullable<typeof pglite>);

  beforeAll(async () => {
    await useService({
      DATABASE_URL: fx.db.url,
      DEFINITIONS_DIR: testDefinitions,
      MAX_BODY_BYTES: '200',
      MAX_RESULT_BYTES: '600',
    });
  });

  afterAll(async () => {
    await useService({ MAX_BODY_BYTES: undefined, MAX_RESULT_BYTES: undefined });
  });

  it('a body over the limit is a 413 and writes nothing', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ name: `row-${i}` }));
    const reply = await invoke({
      method: 'POST',
      path: '/res/Item',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items: rows }),
    });
    expect(reply.status).toBe(413);
    expect(reply.body).toMatch(/larger than 200 bytes/);
    expect(await fx.count('item')).toBe(4);
  });

  it('a result over the limit is a 413 that says how to page; a page of it is fine', async () => {
    const all = await invoke({ method: 'GET', path: '/res/Item' });
    expect(all.status).toBe(413);
    expect(all.body).toMatch(/_limit and _offset/);
    const page = await invoke({ method: 'GET', path: '/res/Item', query: '_limit=1' });
    expect(page.status).toBe(200);
  });
});
