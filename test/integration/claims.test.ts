/**
 * Rows per caller through the real handlers, with sign-in on, on every database: a definition whose query uses
 * `{{claim:NAME}}` shows each caller only their rows, and writes through it touch only those rows. Reads, every
 * addressing form of update and delete, inserts of another caller's rows, hierarchical resources, missing claims,
 * a hostile claim value, and the describing paths (/conf, OpenAPI).
 */
import path from 'node:path';
import { config } from '../../lib/config';
import { validateDefinitions } from '../../lib/definitions/validate-definitions';
import type { EngineName } from '../../lib/resource';
import { signInOff, startAuth, type TestAuth } from '../support/auth';
import { callWithToken } from '../support/call-with-token';
import { type TestDatabase, targets } from '../support/databases';
import { invoke, useService } from '../support/service';

const definitions = path.resolve(__dirname, '..', 'fixtures', 'definitions-claims');
const privileges = path.join(definitions, 'privileges.properties');

function schema(engine: EngineName): string[] {
  const id = engine === 'postgres' ? 'serial primary key' : 'int auto_increment primary key';
  const tableOptions = engine === 'mysql' ? ' ENGINE=InnoDB' : '';
  return [
    `CREATE TABLE project (project_id ${id}, owner varchar(60) NOT NULL, tenant int NOT NULL, name varchar(80) NOT NULL)${tableOptions}`,
    `CREATE TABLE task (task_id ${id}, project_id int NOT NULL, title varchar(80) NOT NULL, assignee varchar(60),
       CONSTRAINT task_project_fk FOREIGN KEY (project_id) REFERENCES project (project_id))${tableOptions}`,
    `CREATE TABLE label (label_id ${id}, text varchar(40) NOT NULL)${tableOptions}`,
    `CREATE TABLE project_label (project_id int NOT NULL, label_id int NOT NULL, PRIMARY KEY (project_id, label_id),
       CONSTRAINT pl_project_fk FOREIGN KEY (project_id) REFERENCES project (project_id),
       CONSTRAINT pl_label_fk FOREIGN KEY (label_id) REFERENCES label (label_id))${tableOptions}`,
    ...(engine === 'postgres'
      ? ['ALTER SEQUENCE project_project_id_seq RESTART WITH 100', 'ALTER SEQUENCE task_task_id_seq RESTART WITH 100']
      : ['ALTER TABLE project AUTO_INCREMENT = 100', 'ALTER TABLE task AUTO_INCREMENT = 100']),
  ];
}

const data = [
  'DELETE FROM project_label',
  'DELETE FROM task',
  'DELETE FROM label',
  'DELETE FROM project',
  `INSERT INTO project (project_id, owner, tenant, name) VALUES
     (1, 'alice', 10, 'Alpha'), (2, 'alice', 10, 'Beta'), (3, 'bob', 10, 'Gamma'), (4, 'carol', 20, 'Delta')`,
  `INSERT INTO task (task_id, project_id, title, assignee) VALUES (1, 1, 'a1', 'alice'), (2, 1, 'a2', NULL), (3, 3, 'g1', 'bob')`,
  `INSERT INTO label (label_id, text) VALUES (1, 'red'), (2, 'green')`,
  'INSERT INTO project_label (project_id, label_id) VALUES (1, 1), (3, 1), (3, 2)',
];

type Row = Record<string, unknown>;

describe.each(targets())('rows per caller on $name', (target) => {
  let db: TestDatabase;
  let auth: TestAuth;
  const env = () => ({
    DATABASE_URL: db.url,
    DEFINITIONS_DIR: definitions,
    PRIVILEGES: privileges,
    ...auth.env,
  });

  beforeAll(async () => {
    auth = await startAuth();
    db = await target.create();
    for (const statement of schema(target.engine)) await db.exec(statement);
    await useService(env());
  });
  beforeEach(async () => {
    for (const statement of data) await db.exec(statement);
  });
  afterAll(async () => {
    await useService(signInOff);
    await db?.drop();
    await auth?.close();
  });

  const claimsOf: Record<string, Record<string, unknown>> = {
    alice: { sub: 'alice', 'cognito:username': 'alice', org: { tenant: 10 } },
    bob: { sub: 'bob', 'cognito:username': 'bob', org: { tenant: 10 } },
  };

  /** A request as `who` (a name in claimsOf, or the claims themselves), JSON in and out. */
  const call = (who: string | Record<string, unknown>, method: string, url: string, body?: unknown) =>
    callWithToken(auth, (typeof who === 'string' ? claimsOf[who] : who) ?? {}, method, url, body);

  const names = async (who: string | Record<string, unknown>, url = '/res/MyProjects') =>
    ((await call(who, 'GET', url)).json().projects as Row[]).map((p) => p.name);
  const stored = async () =>
    (await db.exec('SELECT project_id, owner, name FROM project ORDER BY project_id')).map(
      (r) => `${r.project_id}:${r.owner}:${r.name}`,
    );
  const initial = ['1:alice:Alpha', '2:alice:Beta', '3:bob:Gamma', '4:carol:Delta'];

  describe('reads', () => {
    it('two callers see only their own rows (R1, R2, filters)', async () => {
      expect(await names('alice')).toEqual(['Alpha', 'Beta']);
      expect(await names('bob')).toEqual(['Gamma']);
      expect(await names('alice', '/res/MyProjects/3')).toEqual([]);
      expect(await names('bob', '/res/MyProjects/3')).toEqual(['Gamma']);
      expect(await names('alice', '/res/MyProjects?name=Gamma')).toEqual([]);
      expect(await names('alice', '/res/MyProjects?tenant=10&_limit=1&_offset=1')).toEqual(['Beta']);
    });

    it('binds a nested number claim and a claim whose name holds a colon; a placeholder in a comment is text', async () => {
      expect(await names('alice', '/res/TenantProjects')).toEqual(['Gamma']);
      expect(await names('bob', '/res/TenantProjects')).toEqual(['Alpha', 'Beta']);
      const carol = { sub: 'carol', 'cognito:username': 'carol', org: { tenant: 20 } };
      expect(((await call(carol, 'GET', '/res/TenantProjects')).json().projects as Row[]).length).toBe(0);
    });

    it('a hierarchical resource shows the caller their parents with their children', async () => {
      const reply = await call('alice', 'GET', '/res/MyProjectTasks');
      expect(reply.json()).toEqual({
        projects: [
          {
            project_id: 1,
            owner: 'alice',
            tenant: 10,
            name: 'Alpha',
            tasks: [
              { task_id: 1, title: 'a1', assignee: 'alice' },
              { task_id: 2, title: 'a2', assignee: null },
            ],
          },
          { project_id: 2, owner: 'alice', tenant: 10, name: 'Beta', tasks: [] },
        ],
      });
      expect((await call('alice', 'GET', '/res/MyProjectTasks/3')).json()).toEqual({ projects: [] });
    });

    it('a claim matches exactly as its own text: a number is its digits, no case, accent or trailing-space folding', async () => {
      await db.exec("INSERT INTO project (project_id, owner, tenant, name) VALUES (5, 'Jürgen B.', 20, 'Epsilon')");
      expect(await names({ sub: 0 })).toEqual([]);
      expect(await names({ sub: 'ALICE' })).toEqual([]);
      expect(await names({ sub: 'alice ' })).toEqual([]);
      expect(await names({ sub: 'JÜRGEN B.' })).toEqual([]);
      expect(await names({ sub: 'Jurgen B.' })).toEqual([]);
      expect(await names({ sub: 'Jürgen B.' })).toEqual(['Epsilon']);
      const zero = await call({ sub: 0 }, 'PUT', '/res/MyProjects?tenant=10', 'name=mine');
      expect(zero.json()).toEqual({ rowsAffected: 0 });
      expect(await stored()).toEqual([...initial, '5:Jürgen B.:Epsilon']);
    });

    it('a prefix claim matches the owners that start with its text, its wildcards escaped', async () => {
      const team = (claims: Record<string, unknown>) =>
        names({ sub: 'x', admin: false, ...claims }, '/res/TeamProjects');
      expect(await team({ team: 'al' })).toEqual(['Alpha', 'Beta']);
      expect(await team({ team: 'b' })).toEqual(['Gamma']);
      expect(await team({ team: '%' })).toEqual([]);
      expect(await team({ team: '_lice' })).toEqual([]);
      expect(await team({ team: '\\' })).toEqual([]);
      expect(await team({ team: 'AL' })).toEqual([]);
      expect((await call({ sub: 'x', admin: false, team: '' }, 'GET', '/res/TeamProjects')).status).toBe(403);
    });

    it('a claim used as a condition must be true or false', async () => {
      const all = ['Alpha', 'Beta', 'Gamma', 'Delta'];
      expect(await names({ sub: 'x', admin: true, team: 'zz' }, '/res/TeamProjects')).toEqual(all);
      expect(await names({ sub: 'x', admin: false, team: 'zz' }, '/res/TeamProjects')).toEqual([]);
      for (const admin of ['yes', 'on', '1', '1abc', 1, 'true']) {
        const reply = await call({ sub: 'x', admin, team: 'zz' }, 'GET', '/res/TeamProjects');
        expect([admin, reply.status, reply.body]).toEqual([
          admin,
          403,
          expect.stringContaining('needs the claim admin as true or false'),
        ]);
      }
    });

    it('a claim value is bound, never spliced', async () => {
      const hostile = { sub: "x' OR '1'='1", 'cognito:username': "') OR 1=1 -- ", org: { tenant: '10 OR 1=1' } };
      expect(((await call(hostile, 'GET', '/res/MyProjects')).json().projects as Row[]).length).toBe(0);
      const reply = await call({ ...hostile, org: { tenant: '10' } }, 'GET', '/res/TenantProjects');
      expect((reply.json().projects as Row[]).map((p) => p.name)).toEqual(['Alpha', 'Beta', 'Gamma']);
      expect(await stored()).toEqual(initial);
    });
  });

  describe('a claim the token lacks', () => {
    it.each([
      [{ sub: 'alice', 'cognito:username': 'alice' }, 'org.tenant', "which the caller's token does not carry"],
      [{ sub: 'alice', org: { tenant: 10 } }, 'cognito:username', "which the caller's token does not carry"],
      [{ sub: 'alice', 'cognito:username': 'a', org: { tenant: null } }, 'org.tenant', 'does not carry'],
      [{ sub: 'alice', 'cognito:username': 'a', org: { tenant: { id: 1 } } }, 'org.tenant', 'carries an object'],
      [{ sub: 'alice', 'cognito:username': ['a'], org: { tenant: 1 } }, 'cognito:username', 'carries a list'],
    ])('%j: 403 claim_missing naming %s', async (claims, name, says) => {
      for (const [method, url, body] of [
        ['GET', '/res/TenantProjects', undefined],
        ['POST', '/res/TenantProjects', 'owner=bob&tenant=10&name=New'],
        ['PUT', '/res/TenantProjects/3', 'name=X'],
        ['DELETE', '/res/TenantProjects/3', undefined],
      ] as const) {
        const reply = await call(claims, method, url, body);
        expect(reply.status).toBe(403);
        expect(reply.body).toContain(`Resource TenantProjects needs the claim ${name}`);
        expect(reply.body).toContain(says);
      }
      expect(await stored()).toEqual(initial);
    });

    it('without sign-in, a resource with claims answers every request with 403 claim_missing', async () => {
      await useService(signInOff);
      try {
        const reply = await invoke({
          method: 'GET',
          path: '/res/MyProjects',
          headers: { accept: 'application/problem+json' },
        });
        expect(reply.status).toBe(403);
        expect(JSON.parse(reply.body)).toMatchObject({
          code: 'claim_missing',
          detail: "Resource MyProjects needs the claim sub, which the caller's token does not carry",
        });
      } finally {
        await useService(env());
      }
    });
  });

  describe('updates touch only the caller’s rows', () => {
    it('by path key (U3), body rows (U1) and filter (U2)', async () => {
      expect((await call('alice', 'PUT', '/res/MyProjects/3', 'name=Mine')).json()).toEqual({ rowsAffected: 0 });
      const rows = {
        projects: [
          { project_id: 1, name: 'Alpha2' },
          { project_id: 3, name: 'Mine' },
        ],
      };
      expect((await call('alice', 'PUT', '/res/MyProjects', rows)).json()).toEqual({ rowsAffected: 1 });
      expect((await call('alice', 'PUT', '/res/MyProjects?name=Gamma', 'name=Mine')).json()).toEqual({
        rowsAffected: 0,
      });
      expect((await call('alice', 'PUT', '/res/MyProjects?tenant=10', 'name=Same')).json()).toEqual({
        rowsAffected: 2,
      });
      expect(await stored()).toEqual(['1:alice:Same', '2:alice:Same', '3:bob:Gamma', '4:carol:Delta']);
    });

    it('an update that would hand the row to someone else is a 403, and nothing changes', async () => {
      const reply = await call('alice', 'PUT', '/res/MyProjects/1', 'owner=bob&name=Gift');
      expect(reply.status).toBe(403);
      expect(reply.body).toBe(
        'The update would move the row project_id 1 out of the rows that MyProjects shows this caller, so nothing was changed',
      );
      const two = {
        projects: [
          { project_id: 2, name: 'B2' },
          { project_id: 1, owner: 'bob' },
        ],
      };
      expect((await call('alice', 'PUT', '/res/MyProjects', two)).status).toBe(403);
      expect(await stored()).toEqual(initial);
    });
  });

  describe('deletes touch only the caller’s rows', () => {
    it('by path key (D3), body rows (D1) and filter (D2)', async () => {
      expect((await call('alice', 'DELETE', '/res/MyProjects/3')).json()).toEqual({ rowsAffected: 0 });
      expect((await call('alice', 'DELETE', '/res/MyProjects', { projects: [{ project_id: 3 }] })).json()).toEqual({
        rowsAffected: 0,
      });
      expect((await call('alice', 'DELETE', '/res/MyProjects?name=Gamma')).json()).toEqual({ rowsAffected: 0 });
      expect((await call('bob', 'DELETE', '/res/MyProjects?name=Beta')).json()).toEqual({ rowsAffected: 0 });
      expect(await stored()).toEqual(initial);
      expect((await call('alice', 'DELETE', '/res/MyProjects?name=Beta')).json()).toEqual({ rowsAffected: 1 });
      expect(await stored()).toEqual(['1:alice:Alpha', '3:bob:Gamma', '4:carol:Delta']);
    });
  });

  describe('inserts', () => {
    it('a row for another owner is a 403, and nothing of the request is written', async () => {
      const reply = await call('alice', 'POST', '/res/MyProjects', 'owner=bob&tenant=10&name=Sneaky');
      expect(reply.status).toBe(403);
      expect(reply.body).toMatch(
        /^The project row 1 \(project_id \d+\) is not a row that MyProjects shows this caller, so nothing was written$/,
      );
      const both = {
        projects: [
          { owner: 'alice', tenant: 10, name: 'Fine' },
          { owner: 'bob', tenant: 10, name: 'Sneaky' },
        ],
      };
      const second = await call('alice', 'POST', '/res/MyProjects', both);
      expect(second.status).toBe(403);
      expect(second.body).toContain('The project row 2 ');
      expect(await stored()).toEqual(initial);
    });

    it('a row of the caller is written and echoed', async () => {
      const reply = await call('alice', 'POST', '/res/MyProjects', 'owner=alice&tenant=10&name=Mine');
      expect(reply.json()).toMatchObject({ rowsAffected: 1, projects: [{ owner: 'alice', name: 'Mine' }] });
      expect(await names('alice')).toEqual(['Alpha', 'Beta', 'Mine']);
    });
  });

  describe('hierarchical writes', () => {
    const tasksOf = async (project: number) =>
      (await db.exec(`SELECT title FROM task WHERE project_id = ${project} ORDER BY task_id`)).map((r) => r.title);

    it('children of another caller’s parent cannot be added, changed or removed', async () => {
      const add = await call('alice', 'POST', '/res/MyProjectTasks/3', { tasks: [{ title: 'mine now' }] });
      expect(add.status).toBe(404);
      expect(add.body).toBe('MyProjectTasks has no project 3');
      const nested = { projects: [{ project_id: 3, tasks: [{ title: 'mine now' }] }] };
      const c2 = await call('alice', 'POST', '/res/MyProjectTasks', nested);
      expect(c2.status).toBe(403);
      expect(c2.body).toBe(
        'The project row 1 (project_id 3) is not a row that MyProjectTasks shows this caller, so nothing was written',
      );
      expect(
        (await call('alice', 'PUT', '/res/MyProjectTasks/3', { tasks: [{ task_id: 3, title: 'x' }] })).status,
      ).toBe(404);
      const u1 = { projects: [{ project_id: 3, tasks: [{ task_id: 3, title: 'x' }] }] };
      expect((await call('alice', 'PUT', '/res/MyProjectTasks', u1)).json()).toEqual({ rowsAffected: 0 });
      expect((await call('alice', 'DELETE', '/res/MyProjectTasks/3', { tasks: [{ task_id: 3 }] })).status).toBe(404);
      const d1 = { projects: [{ project_id: 3, tasks: [{ task_id: 3 }] }] };
      expect((await call('alice', 'DELETE', '/res/MyProjectTasks', d1)).json()).toEqual({ rowsAffected: 0 });
      expect((await call('alice', 'DELETE', '/res/MyProjectTasks/3')).json()).toEqual({ rowsAffected: 0 });
      // a child of another parent, named under the caller's own parent, is not theirs either
      const wrong = { projects: [{ project_id: 1, tasks: [{ task_id: 3, title: 'x' }] }] };
      expect((await call('alice', 'PUT', '/res/MyProjectTasks', wrong)).json()).toEqual({ rowsAffected: 0 });
      expect(await tasksOf(3)).toEqual(['g1']);
      expect(await stored()).toEqual(initial);
    });

    it('the caller writes their own parents and children', async () => {
      const created = await call('alice', 'POST', '/res/MyProjectTasks', {
        projects: [{ owner: 'alice', tenant: 10, name: 'New', tasks: [{ title: 'n1' }, { title: 'n2' }] }],
      });
      expect(created.json()).toMatchObject({ rowsAffected: 3, projects: [{ name: 'New', tasks: [{}, {}] }] });
      const other = await call('alice', 'POST', '/res/MyProjectTasks', {
        projects: [{ owner: 'bob', tenant: 10, name: 'Other', tasks: [{ title: 'o1' }] }],
      });
      expect(other.status).toBe(403);
      const add = await call('alice', 'POST', '/res/MyProjectTasks/1', { tasks: [{ title: 'a3' }] });
      expect(add.json()).toMatchObject({ rowsAffected: 1, projects: [{ project_id: 1, tasks: [{ title: 'a3' }] }] });
      const u4 = await call('alice', 'PUT', '/res/MyProjectTasks/1', { tasks: [{ task_id: 2, title: 'a2!' }] });
      expect(u4.json()).toEqual({ rowsAffected: 1 });
      expect(await tasksOf(1)).toEqual(['a1', 'a2!', 'a3']);
      expect((await call('alice', 'DELETE', '/res/MyProjectTasks/1', { tasks: [{ task_id: 1 }] })).json()).toEqual({
        rowsAffected: 1,
      });
      await db.exec('DELETE FROM project_label WHERE project_id = 1'); // not a table of this resource
      expect((await call('alice', 'DELETE', '/res/MyProjectTasks/1')).json()).toEqual({ rowsAffected: 3 });
      expect((await stored()).filter((r) => !r.endsWith(':New'))).toEqual([
        '2:alice:Beta',
        '3:bob:Gamma',
        '4:carol:Delta',
      ]);
    });

    it('a parent shared with children the caller does not see is neither deleted nor updated: a 403', async () => {
      // project 1 has task 1 (alice's) and task 2 (nobody's); project 3 only task 3 (bob's)
      const deleted = await call('alice', 'DELETE', '/res/MyAssignedTasks/1');
      expect([deleted.status, deleted.body]).toEqual([
        403,
        'A project row to delete has task rows that MyAssignedTasks does not show this caller, so nothing was changed',
      ]);
      expect((await call('alice', 'DELETE', '/res/MyAssignedTasks?name=Alpha')).status).toBe(403);
      expect((await call('alice', 'PUT', '/res/MyAssignedTasks/1', 'name=Mine')).status).toBe(403);
      expect(await tasksOf(1)).toEqual(['a1', 'a2']);
      expect(await stored()).toEqual(initial);
      expect((await call('bob', 'PUT', '/res/MyAssignedTasks/3', 'name=Gamma!')).json()).toEqual({ rowsAffected: 1 });
      // a child the caller sees is theirs to delete
      expect((await call('alice', 'DELETE', '/res/MyAssignedTasks/1', { tasks: [{ task_id: 1 }] })).json()).toEqual({
        rowsAffected: 1,
      });
    });

    it('many-to-many: associations only under the caller’s own parents', async () => {
      expect((await call('alice', 'POST', '/res/MyLabels/3', { labels: [{ label_id: 2 }] })).status).toBe(404);
      expect((await call('alice', 'DELETE', '/res/MyLabels/3', { labels: [{ label_id: 1 }] })).status).toBe(404);
      expect((await call('alice', 'POST', '/res/MyLabels/1', { labels: [{ label_id: 2 }] })).json()).toMatchObject({
        rowsAffected: 1,
      });
      expect((await call('alice', 'DELETE', '/res/MyLabels/3')).json()).toEqual({ rowsAffected: 0 });
      const links = await db.exec('SELECT project_id, label_id FROM project_label ORDER BY project_id, label_id');
      expect(links.map((r) => `${r.project_id}-${r.label_id}`)).toEqual(['1-1', '1-2', '3-1', '3-2']);
    });
  });

  describe('describing the resource', () => {
    it('/conf/definition shows the definition as written; /conf/metadata and OpenAPI describe it', async () => {
      const token = await auth.token({ sub: 'alice', roles: ['writer'] });
      const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
      const definition = await invoke({ method: 'GET', path: '/conf/definition/MyProjects', headers });
      expect(definition.status).toBe(200);
      expect(definition.body).toContain('where owner = {{claim:sub}}');
      const metadata = await invoke({ method: 'GET', path: '/conf/metadata/MyProjectTasks', headers });
      expect(metadata.status).toBe(200);
      expect(metadata.body).toContain('"task_id"');
      const documentation = await invoke({ method: 'GET', path: '/conf/documentation/MyProjects', headers });
      expect(documentation.status).toBe(200);
      expect(documentation.body).toContain('the sub claim of the caller');
      const openapi = await invoke({ method: 'GET', path: '/openapi.json', headers });
      expect(openapi.status).toBe(200);
      expect(Object.keys(JSON.parse(openapi.body).paths)).toEqual(
        expect.arrayContaining(['/res/MyProjects', '/res/MyProjectTasks/{project_id}', '/res/TenantProjects']),
      );
    });

    it('npm run validate notes the claims, and warns when the service runs without sign-in', async () => {
      /** What npm run validate says of one definition of the directory, with the service as configured now. */
      const validated = async (name: string) =>
        (await validateDefinitions(config())).find((result) => result.name === name);
      expect(await validated('MyProjectTasks')).toEqual({
        name: 'MyProjectTasks',
        status: 'ok',
        detail: 'one-to-many, 7 fields; rows per caller by the claim sub',
        warnings: [],
      });
      expect((await validated('TenantProjects'))?.detail).toBe(
        'flat, 4 fields; rows per caller by the claims org.tenant, cognito:username',
      );
      await useService(signInOff);
      try {
        expect(await validated('MyProjects')).toEqual({
          name: 'MyProjects',
          status: 'warning',
          detail:
            'flat, 4 fields; rows per caller by the claim sub; refuses every request (403 claim_missing): its query uses claims, and the service runs without sign-in (AUTH_ISSUER is not set)',
          warnings: [
            'refuses every request (403 claim_missing): its query uses claims, and the service runs without sign-in (AUTH_ISSUER is not set)',
          ],
        });
      } finally {
        await useService(env());
      }
    });

    it('a placeholder inside quotes is a broken definition that says why', async () => {
      const reply = await call('alice', 'GET', '/res/QuotedClaim');
      expect(reply.status).toBe(500);
      expect(reply.body).toContain(
        "is invalid: the claim placeholder {{claim:sub}} stands inside quotes ('{{claim:sub}}')",
      );
    });
  });
});
