/**
 * GET /openapi.json lints clean with Redocly CLI's recommended rules (redocly.yaml): no error and no warning, with
 * sign-in off and on (a caller holding every role, and one that may only read), for the demo definitions, for
 * the test definitions (a broken one among them), and for the definitions `npm run generate` writes from the demo
 * schema (a flat resource per table, composite keys included, one-to-many and many-to-many ones). On PGlite, and
 * on each server whose URL is set.
 * The rule redocly.yaml turns off is checked here instead: every /res operation describes a 4XX response.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { forgetPrivileges } from '../../lib/auth/privileges-store';
import { seedDemo } from '../../scripts/demo/seed';
import { runGenerate } from '../generate/run-generate';
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

describe.each(targets())('the OpenAPI document lints clean on $name', (target) => {
  let db: TestDatabase;
  let generated: string;

  beforeAll(async () => {
    db = await target.create();
    await seedDemo((sql) => db.exec(sql), target.engine);
    generated = mkdtempSync(path.join(tmpdir(), 'rrs-generated-'));
    const run = await runGenerate(['--database', db.url, '--out', generated]);
    expect(run.code).toBe(0);
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

  it('for the definitions npm run generate writes from the demo schema: flat, one-to-many, many-to-many', async () => {
    const documents = await documentsOf(env(generated));
    const [, open] = documents[0] as [string, Json];
    expect(open['x-broken-resources']).toEqual([]);
    const resources = readdirSync(generated).filter((file) => file.endsWith('.xml'));
    expect(resources).toEqual(expect.arrayContaining(['BookAuthor.xml', 'PublisherBooks.xml', 'AuthorBooks.xml']));
    expect(Object.keys(open.paths)).toEqual(expect.arrayContaining(['/res/BookAuthor/{book_id}/{author_id}']));
    await expectEachLintsClean(documents, resources.length);
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
