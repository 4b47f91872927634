/**
 * GET /openapi.json lints clean with Redocly CLI's recommended rules (redocly.yaml): no error and no warning, with
 * sign-in off and on (a caller holding every role, and one that may only read), for the demo definitions, for
 * the test definitions (a broken one among them), and for definitions shaped as a generator writes them over the
 * demo schema: a flat resource per table (composite keys included), one-to-many and many-to-many ones. On PGlite,
 * and on each server whose URL is set.
 * The rule redocly.yaml turns off is checked here instead: every /res operation describes a 4XX response.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { forgetPrivileges } from '../../lib/auth/privileges-store';
import { DEMO_TABLES } from '../../scripts/demo/schema';
import { seedDemo } from '../../scripts/demo/seed';
import { signInOff, startAuth, type TestAuth } from '../support/auth';
import { type Target, type TestDatabase, targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { type LintProblem, lintOpenApi, problemLines } from '../support/lint-openapi';
import { invoke, useService } from '../support/service';

// biome-ignore lint/suspicious/noExplicitAny: the served document is walked freely; the assertions check its shape
type Json = Record<string, any>;

const demoDefinitions = path.resolve(__dirname, '..', '..', 'definitions');
const demoPrivileges = path.join(demoDefinitions, 'privileges.properties');
const everyRole = ['reader', 'writer', 'admin', 'auditor'];

let auth: TestAuth;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(async () => {
  await useService({
    ...signInOff,
    DATABASE_URL: undefined,
    DATABASE_URL_BOOKSTORE: undefined,
    DEFINITIONS_DIR: undefined,
  });
  forgetPrivileges();
  await auth?.close();
});

/** GET /openapi.json as the service serves it: without a token, or with one carrying `roles`. */
async function servedDocument(roles?: readonly string[]): Promise<Json> {
  const headers: Record<string, string> = roles
    ? { authorization: `Bearer ${await auth.token({ sub: 'linter', roles })}` }
    : {};
  const reply = await invoke({ method: 'GET', path: '/openapi.json', headers });
  expect(reply.status).toBe(200);
  return JSON.parse(reply.body);
}

/** No problem at all; each one, with its rule, pointer and message, in the failure. */
async function expectLintsClean(document: Json): Promise<void> {
  const problems: LintProblem[] = await lintOpenApi(document);
  expect(problemLines(problems)).toEqual([]);
}

/** The operations of /res paths that describe no 4XX response (operation-4xx-response, off in redocly.yaml). */
function resOperationsWithout4xx(document: Json): string[] {
  return Object.entries(document.paths as Json)
    .filter(([p]) => p.startsWith('/res/'))
    .flatMap(([p, item]) =>
      Object.entries(item as Json)
        .filter(([method]) => method !== 'parameters')
        .filter(([, op]) => !Object.keys(op.responses).some((status) => /^4\d\d$/.test(status)))
        .map(([method]) => `${method} ${p}`),
    );
}

/** The served document with sign-in off, and with sign-in on as every role and as a reader. */
async function documentsOf(env: Record<string, string>): Promise<[string, Json][]> {
  await useService({ ...signInOff, ...env });
  const open = await servedDocument();
  forgetPrivileges();
  await useService({ ...env, ...auth.env, PRIVILEGES: demoPrivileges });
  return [
    ['sign-in off', open],
    ['every role', await servedDocument(everyRole)],
    ['a reader', await servedDocument(['reader'])],
  ];
}

async function expectEachLintsClean(documents: readonly [string, Json][], resources: number): Promise<void> {
  for (const [caller, document] of documents) {
    expect([caller, document.tags.length - 2]).toEqual([caller, resources]);
    expect([caller, resOperationsWithout4xx(document)]).toEqual([caller, []]);
    await expectLintsClean(document);
  }
}

type Columns = Readonly<Record<string, readonly string[]>>;

function definition(query: string, tables: readonly string[]): string {
  const roles = ['Parent', ...(tables.length === 3 ? ['Join'] : []), 'Child'];
  const metadata = tables.map((t, i) => `<table name="${t}" role="${roles[i]}"/>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rs:sqlResource xmlns:rs="http://restsql.org/schema">
  <query>${query}</query>
  <metadata><database default="bookstore"/>${metadata}</metadata>
</rs:sqlResource>
`;
}

/**
 * Definitions as a generator writes them from the demo schema: a flat resource per table (every column, in
 * table order), and hierarchical ones of every column of both tables, the child's columns named like the
 * parent's (its foreign key) left out: a one-to-many per foreign key (publisher_books, book_reviews) and a
 * many-to-many per junction table, both ways (book_authors, author_books).
 */
function generatedDefinitions(columns: Columns): Record<string, string> {
  const select = (tables: readonly string[]) => {
    const [parent = '', child = ''] = [tables[0], tables[tables.length - 1]];
    const own = (columns[child] ?? []).filter((c) => !columns[parent]?.includes(c));
    return [...(columns[parent] ?? []).map((c) => `${parent}.${c}`), ...own.map((c) => `${child}.${c}`)].join(', ');
  };
  const oneToMany = (parent: string, child: string, key: string) =>
    definition(
      `select ${select([parent, child])} from ${parent} left join ${child} on ${child}.${key} = ${parent}.${key}`,
      [parent, child],
    );
  const manyToMany = (parent: string, child: string) =>
    definition(
      `select ${select([parent, child])} from ${parent} left join book_author on book_author.${parent}_id = ${parent}.${parent}_id left join ${child} on ${child}.${child}_id = book_author.${child}_id`,
      [parent, 'book_author', child],
    );
  return {
    ...Object.fromEntries(
      DEMO_TABLES.map((t) => [t, definition(`select ${(columns[t] ?? []).join(', ')} from ${t}`, [t])]),
    ),
    publisher_books: oneToMany('publisher', 'book', 'publisher_id'),
    book_reviews: oneToMany('book', 'review', 'book_id'),
    book_authors: manyToMany('book', 'author'),
    author_books: manyToMany('author', 'book'),
  };
}

describe.each(targets())('the OpenAPI document lints clean on $name', (target) => {
  let db: TestDatabase;
  let generated: string;

  beforeAll(async () => {
    db = await target.create();
    await seedDemo((sql) => db.exec(sql), target.engine);
    generated = mkdtempSync(path.join(tmpdir(), 'rrs-generated-'));
    const schema = target.engine === 'postgres' ? "'public'" : 'database()';
    const rows = await db.exec(
      `SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = ${schema} ORDER BY table_name, ordinal_position`,
    );
    const columns: Record<string, string[]> = {};
    for (const { t, c } of rows) columns[String(t)] = [...(columns[String(t)] ?? []), String(c)];
    for (const [name, text] of Object.entries(generatedDefinitions(columns)))
      writeFileSync(path.join(generated, `${name}.xml`), text);
  });
  afterAll(async () => {
    await useService(signInOff);
    await db?.drop();
    if (generated) rmSync(generated, { recursive: true, force: true });
  });

  const env = (definitions: string) => ({
    DATABASE_URL: db.url,
    DATABASE_URL_BOOKSTORE: db.url,
    DEFINITIONS_DIR: definitions,
  });

  it('for the demo definitions, with sign-in off and on', async () => {
    const documents = await documentsOf(env(demoDefinitions));
    const [, open] = documents[0] as [string, Json];
    expect(open['x-broken-resources']).toEqual([]);
    await expectEachLintsClean(documents, 9);
  });

  it('for definitions as a generator writes them: flat per table (composite keys too), one-to-many, many-to-many', async () => {
    const documents = await documentsOf(env(generated));
    const [, open] = documents[0] as [string, Json];
    expect(open['x-broken-resources']).toEqual([]);
    expect(Object.keys(open.paths)).toEqual(
      expect.arrayContaining([
        '/res/book_author/{book_id}/{author_id}',
        '/res/inventory/{store_code}/{book_id}',
        '/res/publisher_books/{publisher_id}',
        '/res/author_books/{author_id}',
      ]),
    );
    await expectEachLintsClean(documents, DEMO_TABLES.length + 4);
  });
});

describe('the OpenAPI document of the test definitions on PGlite', () => {
  useFixture(targets()[0] as Target);

  it('lints clean with sign-in off, the broken definition left out', async () => {
    const document = await servedDocument();
    expect(document['x-broken-resources'].map((b: Json) => b.name)).toEqual(['Broken']);
    expect(document.paths['/res/TeamTags/{team_no}'].post).toBeDefined();
    await expectLintsClean(document);
  });
});
