/**
 * Table tests of the NOT NULL pre-check (lib/plan/require-values.ts) through the write planner: a row an insert
 * writes gives every field of each table it writes whose column is NOT NULL without a default (the parent, an
 * extension only when the row gives one of its fields, each one-to-many child, a many-to-many association), a
 * write never sets a NOT NULL column to null; generated columns, defaults and the link to the parent are never
 * required. Pure: hand-built resources.
 */
import { planWrite } from '../../lib/plan/plan-write';
import type { BodyRow, RawValue } from '../../lib/request/resource-request';
import type { SqlResource } from '../../lib/resource';
import { field, personTasksResource, serviceErrorOfAsync, table } from '../support/resources';
import { type WriteCase, writeRequest } from '../support/write-request';

const people = personTasksResource('postgres');

/** Many-to-many: team, tag, and team_tag whose `since` is NOT NULL without a default. */
const teamTags: SqlResource = {
  ...people,
  name: 'TeamTags',
  kind: 'many-to-many',
  tables: {
    team: table('team', 'Parent', ['team_id'], [], ['team_id']),
    team_tag: table(
      'team_tag',
      'Join',
      ['team_id', 'tag_id'],
      [
        { columns: ['team_id'], target: 'team', references: ['team_id'] },
        { columns: ['tag_id'], target: 'tag', references: ['tag_id'] },
      ],
    ),
    tag: table('tag', 'Child', ['tag_id'], [], ['tag_id']),
  },
  fields: [
    field('team_id', 'integer', 'team', 'team_id', { primaryKey: true, generated: true }),
    field('name', 'string', 'team', 'name', { nullable: false }),
    field('tag_id', 'integer', 'tag', 'tag_id', { primaryKey: true, generated: true }),
    field('label', 'string', 'tag', 'label', { nullable: false }),
    field('since', 'integer', 'team_tag', 'since', { nullable: false }),
  ],
  rowName: 'team',
  childRowName: 'tag',
};

/** The plan of a case's write, as the request stage would hand the request to the planner. */
const planned = (resource: SqlResource, input: WriteCase) => planWrite(resource, writeRequest(resource, input));

/** A body row; `tasks` holds its child rows. */
interface Row {
  readonly [label: string]: RawValue | readonly Row[];
}
function row({ tasks, ...values }: Row): BodyRow {
  const own = values as Record<string, RawValue>;
  return Array.isArray(tasks) ? { values: own, children: (tasks as readonly Row[]).map(row) } : { values: own };
}
const insert = (...rows: Row[]): WriteCase => ({
  op: 'insert',
  pathKeys: [],
  filters: [],
  bodyType: 'json',
  rows: rows.map(row),
});
const update = (...rows: Row[]): WriteCase => ({
  op: 'update',
  pathKeys: [],
  filters: [],
  bodyType: 'json',
  rows: rows.map(row),
});
const under = (op: WriteCase['op'], ...rows: Row[]): WriteCase => ({
  op,
  pathKeys: ['1'],
  filters: [],
  bodyType: 'json',
  rows: rows.map(row),
});
const form = (values: Record<string, RawValue>, pathKeys = ['1'], filters: WriteCase['filters'] = []): WriteCase => ({
  op: 'update',
  pathKeys,
  filters,
  bodyType: 'form',
  rows: [{ values }],
});

const refused: [string, SqlResource, WriteCase, string][] = [
  [
    'insert without a NOT NULL field that has no default',
    people,
    insert({ nick: 'al' }),
    'Field email is required: the person row 1 gives no value, and the database has no default for it',
  ],
  [
    'insert of the second row',
    people,
    insert({ email: 'a@x' }, { nick: 'b' }),
    'Field email is required: the person row 2 gives no value, and the database has no default for it',
  ],
  [
    'insert with JSON null',
    people,
    insert({ email: null }),
    'Field email cannot be null: the person row 1 sets it to null',
  ],
  [
    'insert with null for a NOT NULL column that has a default',
    people,
    insert({ email: 'a@x', secret: null }),
    'Field secret cannot be null: the person row 1 sets it to null',
  ],
  [
    'insert of an extension row (a field of it given) without its required field',
    people,
    insert({ email: 'a@x', motto: 'hi' }),
    'Field bio is required: the person row 1 gives no value, and the database has no default for it',
  ],
  [
    'insert of a child without its required field',
    people,
    insert({ email: 'a@x', tasks: [{ title: 'one' }, {}] }),
    'Field title is required: the task row 2 of person row 1 gives no value, and the database has no default for it',
  ],
  [
    'insert of children under a parent named by its key: the parent may exist, the children are inserted',
    people,
    insert({ person_id: 1, tasks: [{}] }),
    'Field title is required: the task row 1 of person row 1 gives no value, and the database has no default for it',
  ],
  [
    'C3: children of the parent in the path',
    people,
    under('insert', { title: null }),
    'Field title cannot be null: the task row 1 sets it to null',
  ],
  [
    'C2 many-to-many: the association row needs its required field',
    teamTags,
    insert({ name: 'Ants', tasks: [{ tag_id: 3 }] }),
    'Field since is required: the tag row 1 of team row 1 gives no value, and the database has no default for it',
  ],
  [
    'U1 setting null',
    people,
    update({ person_id: 1, email: null }),
    'Field email cannot be null: the person row 1 sets it to null',
  ],
  [
    'U1 setting an extension field null',
    people,
    update({ person_id: 1, bio: null }),
    'Field bio cannot be null: the person row 1 sets it to null',
  ],
  [
    'U1 setting a child field null',
    people,
    update({ person_id: 1, tasks: [{ task_id: 4, title: null }] }),
    'Field title cannot be null: the task row 1 of person row 1 sets it to null',
  ],
  [
    'U4 setting a child field null',
    people,
    under('update', { task_id: 4, title: null }),
    'Field title cannot be null: the task row 1 sets it to null',
  ],
  ['U3 form null', people, form({ email: null }), 'Field email cannot be null'],
  [
    'U2 form null',
    people,
    form({ secret: null }, [], [{ name: 'nick', op: 'eq', value: 'al' }]),
    'Field secret cannot be null',
  ],
];

const accepted: [string, SqlResource, WriteCase][] = [
  ['generated keys and defaults may be left out', people, insert({ email: 'a@x' })],
  ['a nullable field may be null', people, insert({ email: 'a@x', nick: null })],
  ['an extension not given is not written, so not checked', people, insert({ email: 'a@x', nick: 'n' })],
  ["a child's link to its parent is filled by the service", people, insert({ email: 'a@x', tasks: [{ title: 't' }] })],
  ['C3: the link comes from the path', people, under('insert', { title: 't' })],
  [
    'a parent named by its key with children may exist already: its fields are not required',
    people,
    insert({ person_id: 1, tasks: [{ title: 't' }] }),
  ],
  ['an update sets only the fields it gives', people, update({ person_id: 1, nick: 'x' })],
  ['an update may leave required fields out', people, form({ nick: null })],
  ['a child update is found by its key, which is not set', people, under('update', { task_id: 4, owner: 2 })],
  [
    'C2 many-to-many: the existing child is not inserted',
    teamTags,
    insert({ name: 'Ants', tasks: [{ tag_id: 3, since: 2020 }] }),
  ],
  ['deleting children checks no value', people, under('delete', { task_id: 4, title: null })],
];

describe('NOT NULL fields before the database is asked', () => {
  it.each(refused)('%s is a 400 naming the field', async (_name, resource, input, message) => {
    expect(await serviceErrorOfAsync(() => planned(resource, input))).toEqual({
      name: 'BadRequestError',
      status: 400,
      code: 'bad_value',
      message,
    });
  });

  it.each(accepted)('%s', async (_name, resource, input) => {
    await expect(planned(resource, input)).resolves.toBeDefined();
  });
});

describe('NOT NULL fields among many rows, planned a slice at a time', () => {
  const person = (i: number, tasks: Row[]): Row => ({ email: `p${i}@x`, bio: 'b', tasks });
  const task = (i: number, j: number): Row => ({ owner: i, title: `t${i}.${j}` });

  it('names the task of the person, in 100 persons of 10 tasks each', async () => {
    const persons = Array.from({ length: 100 }, (_, i) =>
      person(
        i,
        Array.from({ length: 10 }, (_, j) => (i === 89 && j === 4 ? { owner: i } : task(i, j))),
      ),
    );
    expect(await serviceErrorOfAsync(() => planned(people, insert(...persons)))).toMatchObject({
      code: 'bad_value',
      message:
        'Field title is required: the task row 5 of person row 90 gives no value, and the database has no default for it',
    });
  });

  it('names the task of 1,000 under the person in the path', async () => {
    const tasks = Array.from({ length: 1000 }, (_, j) => (j === 899 ? { owner: 1, title: null } : task(1, j)));
    const input: WriteCase = { ...insert(...tasks), pathKeys: ['1'] };
    expect(await serviceErrorOfAsync(() => planned(people, input))).toMatchObject({
      code: 'bad_value',
      message: 'Field title cannot be null: the task row 900 sets it to null',
    });
  });
});
