/**
 * The warnings of `npm run validate` as a table of definitions, each with the exact warnings it gives, on every
 * database: a query's own ORDER BY or LIMIT (reads order by key and page themselves) and a table linked only by a
 * column's name (a forgotten Join table links `tag.id` to `task.id`). Definitions without either give none, however
 * the words appear in comments, strings, subqueries or window functions.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { config } from '../../lib/config';
import { closeDatabases } from '../../lib/db/select-database';
import { validateDefinitions } from '../../lib/definitions/validate-definitions';
import type { EngineName } from '../../lib/resource';
import { type TestDatabase, targets } from '../support/databases';
import { useService } from '../support/service';

function schema(engine: EngineName): string[] {
  const options = engine === 'postgres' ? '' : ' ENGINE=InnoDB';
  return [
    `CREATE TABLE person (id int PRIMARY KEY, name varchar(40) NOT NULL)${options}`,
    `CREATE TABLE task (id int PRIMARY KEY, title varchar(40) NOT NULL, person_id int,
      FOREIGN KEY (person_id) REFERENCES person (id))${options}`,
    `CREATE TABLE task_detail (id int PRIMARY KEY, notes varchar(200))${options}`,
    `CREATE TABLE tag (id int PRIMARY KEY, label varchar(40) NOT NULL)${options}`,
    `CREATE TABLE task_tag (task_id int NOT NULL, tag_id int NOT NULL, PRIMARY KEY (task_id, tag_id),
      FOREIGN KEY (task_id) REFERENCES task (id), FOREIGN KEY (tag_id) REFERENCES tag (id))${options}`,
  ];
}

const flat = (query: string) =>
  `<sqlResource><query>${query}</query><metadata><table name="task" role="Parent"/></metadata></sqlResource>`;
const tagsOfTasks =
  'select task.id, task.title, tag.id as tag_id, tag.label from task join task_tag on task_tag.task_id = task.id join tag on tag.id = task_tag.tag_id';

const ignored =
  'what clients get: the service reads the query as a table, returns its rows in key order and pages them itself (_limit, _offset)';
const byName =
  'only because the columns have the same name (no foreign key links the tables): writes set the first from the second; if that is not the link, declare the foreign key, or the Join table between them';

interface Case {
  readonly definition: string;
  readonly warnings: readonly string[];
  /** Where the database refuses the query instead: the end of the FAIL line. */
  readonly fails?: Partial<Record<EngineName, RegExp>>;
}

const cases: Record<string, Case> = {
  Plain: { definition: flat('select id, title from task'), warnings: [] },
  Ordered: {
    definition: flat('select id, title from task order by title'),
    warnings: [`the query's ORDER BY does not order ${ignored}`],
  },
  Latest: {
    definition: flat('select id, title from task order by id desc limit 10'),
    warnings: [],
    // no database takes the LIMIT that reading the query's columns adds after a LIMIT of its own
    fails: {
      postgres:
        /Latest\.xml is invalid: its query fails on the database: .*\(leave LIMIT out of the query: the service pages reads itself, with _limit and _offset\)$/s,
      mysql:
        /Latest\.xml is invalid: its query fails on the database: .*\(leave LIMIT out of the query: the service pages reads itself, with _limit and _offset\)$/s,
    },
  },
  Skipped: {
    definition: flat('select id, title from task order by title offset 2'),
    warnings: [
      `the query's ORDER BY and OFFSET do not order or page ${ignored}`,
      "the query's OFFSET only decides which rows there are to page",
    ],
    // OFFSET without LIMIT is PostgreSQL's alone
    fails: {
      mysql:
        /Skipped\.xml is invalid: .*\(leave OFFSET out of the query: the service pages reads itself, with _limit and _offset\)$/s,
    },
  },
  OrderedInside: {
    definition: flat(
      "select id, title, 'order by' as note, (select max(t.title) from task t where t.id &lt; task.id) as before_it from task -- order by title",
    ),
    warnings: [],
  },
  OrderedSubquery: {
    definition: flat('select id, title from task where id in (select task_id from task_tag order by task_id)'),
    warnings: [],
  },
  TaskTagsWithoutJoin: {
    definition: `<sqlResource><query>${tagsOfTasks}</query><metadata><table name="task" role="Parent"/><table name="tag" role="Child"/></metadata></sqlResource>`,
    warnings: [`table tag (Child) is linked to task by tag.id = task.id ${byName}`],
  },
  TaskTags: {
    definition: `<sqlResource><query>${tagsOfTasks}</query><metadata><table name="task" role="Parent"/><table name="task_tag" role="Join"/><table name="tag" role="Child"/></metadata></sqlResource>`,
    warnings: [],
  },
  TaskDetail: {
    definition: `<sqlResource><query>select task.id, task.title, task_detail.notes from task left join task_detail on task_detail.id = task.id order by task.title</query><metadata><table name="task" role="Parent"/><table name="task_detail" role="ParentExtension"/></metadata></sqlResource>`,
    warnings: [
      `the query's ORDER BY does not order ${ignored}`,
      `table task_detail (ParentExtension) is linked to task by task_detail.id = task.id ${byName}`,
    ],
  },
  PersonTasks: {
    definition: `<sqlResource><query>select person.id, person.name, task.id as task_id, task.title from person join task on task.person_id = person.id</query><metadata><table name="person" role="Parent"/><table name="task" role="Child"/></metadata></sqlResource>`,
    warnings: [],
  },
};

describe.each(targets())('validate warnings on $name', (target) => {
  let db: TestDatabase;
  const dir = mkdtempSync(path.join(tmpdir(), 'rrs-validate-warnings-'));

  beforeAll(async () => {
    db = await target.create();
    for (const statement of schema(target.engine)) await db.exec(statement);
    for (const [name, { definition }] of Object.entries(cases))
      writeFileSync(path.join(dir, `${name}.xml`), definition);
    await useService({ DATABASE_URL: db.url, DEFINITIONS_DIR: dir });
  });
  afterAll(async () => {
    await closeDatabases();
    await db?.drop();
    rmSync(dir, { recursive: true });
  });

  it('gives each definition its exact warnings, and a FAIL that says why where the database refuses the query', async () => {
    const results = await validateDefinitions(config());
    expect(results.map((r) => r.name)).toEqual(Object.keys(cases).sort());
    for (const result of results) {
      const expected = cases[result.name] as Case;
      const fails = expected.fails?.[target.engine];
      if (fails) {
        expect({ name: result.name, status: result.status }).toEqual({ name: result.name, status: 'failed' });
        expect(result.detail).toMatch(fails);
        continue;
      }
      const status = expected.warnings.length > 0 ? 'warning' : 'ok';
      expect({ name: result.name, status: result.status, warnings: result.warnings }).toEqual({
        name: result.name,
        status,
        warnings: expected.warnings,
      });
      for (const warning of expected.warnings) expect(result.detail).toContain(warning);
    }
  });
});
