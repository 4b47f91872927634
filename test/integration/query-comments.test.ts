/**
 * Regression: a definition's query that ends in a comment (`--`, MySQL's `#`, `/* *\/`) reads and writes rows on
 * every database. The service takes the query as a derived table; a line comment at its end once swallowed the
 * closing parenthesis, so `npm run validate` said OK while every read failed. Reads (all rows, by key, filtered,
 * paged) and a write through a query with a condition (which reads the rows it may write first, on MySQL with a
 * lock after the query) run through the real handlers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { config } from '../../lib/config';
import { closeDatabases } from '../../lib/db/select-database';
import { validateDefinitions } from '../../lib/definitions/validate-definitions';
import type { EngineName } from '../../lib/resource';
import { type TestDatabase, targets } from '../support/databases';
import { invoke, useService } from '../support/service';

/** Each query's ending, by name: `#`, and `--` before a space only, start comments on MySQL; `--` alone elsewhere. */
function endings(engine: EngineName): Record<string, string> {
  return {
    LineComment: '-- the last line is a comment',
    BlockComment: '/* a block comment */',
    ...(engine === 'mysql' ? { HashComment: '# a MySQL comment' } : { LineCommentNoSpace: '--comment' }),
  };
}

function definition(ending: string, condition: string): string {
  const query = `select id, title from note${condition} ${ending}`;
  return `<sqlResource><query>${query}</query><metadata><table name="note" role="Parent"/></metadata></sqlResource>`;
}

async function readIds(name: string, query = ''): Promise<number[]> {
  const reply = await invoke({ method: 'GET', path: `/res/${name}`, query: `${query}&_output=json` });
  expect({ name, status: reply.status, body: reply.status === 200 ? '' : reply.body }).toEqual({
    name,
    status: 200,
    body: '',
  });
  return (JSON.parse(reply.body).notes as { id: number }[]).map((row) => row.id);
}

describe.each(targets())('queries that end in a comment on $name', (target) => {
  let db: TestDatabase;
  const dir = mkdtempSync(path.join(tmpdir(), 'rrs-query-comments-'));
  const names = Object.keys(endings(target.engine));

  beforeAll(async () => {
    db = await target.create();
    await db.exec('CREATE TABLE note (id int PRIMARY KEY, title varchar(40) NOT NULL)');
    await db.exec("INSERT INTO note (id, title) VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    for (const [name, ending] of Object.entries(endings(target.engine))) {
      writeFileSync(path.join(dir, `${name}.xml`), definition(ending, ''));
      writeFileSync(path.join(dir, `${name}Where.xml`), definition(ending, ' where id > 1'));
    }
    await useService({ DATABASE_URL: db.url, DEFINITIONS_DIR: dir });
  });
  afterAll(async () => {
    await closeDatabases();
    await db?.drop();
    rmSync(dir, { recursive: true });
  });

  it('validates each one', async () => {
    const results = await validateDefinitions(config());
    expect(results.map((r) => [r.name, r.status])).toEqual(
      names
        .flatMap((name) => [name, `${name}Where`])
        .map((name) => [name, 'ok'])
        .sort(),
    );
  });

  it.each(names)('%s: reads every row, by key, filtered and paged', async (name) => {
    expect(await readIds(name)).toEqual([1, 2, 3]);
    expect(await readIds(`${name}/2`)).toEqual([2]);
    expect(await readIds(name, 'title=t%25')).toEqual([2, 3]);
    expect(await readIds(name, '_limit=1&_offset=1')).toEqual([2]);
    expect(await readIds(`${name}Where`)).toEqual([2, 3]);
  });

  it.each(names)('%s: writes through a query with a condition, which reads its rows first', async (name) => {
    const reply = await invoke({
      method: 'PUT',
      path: `/res/${name}Where`,
      query: 'id=(1,3)',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: `title=${name}`,
    });
    expect({ status: reply.status, body: JSON.parse(reply.body) }).toMatchObject({
      status: 200,
      body: { rowsAffected: 1 },
    });
    expect(await db.exec(`SELECT id FROM note WHERE title = '${name}'`)).toEqual([{ id: 3 }]);
  });
});
