/**
 * Table tests of a constraint error said in a resource's labels (lib/execute/label-violation.ts): the label is the
 * one of the field that shows the column from the table the database names, never another table's field of the same
 * column name; a unique key named without its columns (MySQL) takes them from the catalog; a column the resource
 * does not show keeps its name. Pure: hand-built resources.
 */
import type { ConstraintViolation } from '../../lib/errors';
import { labelViolation } from '../../lib/execute/label-violation';
import { personTasksResource } from '../support/resources';

const personTasks = personTasksResource('postgres');

const shop = (name: string) => ({ schema: 'shop', table: name });

describe('labelViolation', () => {
  it.each<[string, ConstraintViolation, string]>([
    [
      "a referenced key of task is task's id (task_id), not person's (person_id)",
      {
        kind: 'foreign_key',
        constraint: 'note_task_id_fkey',
        table: shop('task'),
        columns: ['id'],
        reference: { direction: 'referenced', other: 'note' },
      },
      'Conflict: task_id of table task is still referenced from table note (foreign key constraint "note_task_id_fkey")',
    ],
    [
      "a referenced key of person is person's id",
      {
        kind: 'foreign_key',
        constraint: 'task_person_id_fkey',
        table: shop('person'),
        columns: ['id'],
        reference: { direction: 'referenced', other: 'task' },
      },
      'Conflict: person_id of table person is still referenced from table task (foreign key constraint "task_person_id_fkey")',
    ],
    [
      "task's person_id is the field owner, although person's id is labelled person_id",
      {
        kind: 'foreign_key',
        table: shop('task'),
        columns: ['person_id'],
        reference: { direction: 'missing', other: 'person' },
      },
      'Conflict: owner of table task names no row of table person',
    ],
    [
      'a unique key named without columns (MySQL) takes its columns from the catalog',
      { kind: 'unique', constraint: 'person_email_key', table: { table: 'person' }, columns: [] },
      'Conflict: another row of table person has the same email (unique constraint "person_email_key")',
    ],
    [
      'a compound unique key, by the catalog',
      { kind: 'unique', constraint: 'task_title_uq', table: shop('task'), columns: [] },
      'Conflict: another row of table task has the same owner and title (unique constraint "task_title_uq")',
    ],
    [
      'a unique key the catalog does not know keeps the columns the database gave',
      { kind: 'unique', constraint: 'person_lower', table: shop('person'), columns: ['lower(email)'] },
      'Conflict: another row of table person has the same column lower(email) (unique constraint "person_lower")',
    ],
    [
      'a column the resource does not show keeps its name',
      { kind: 'not_null', table: shop('person'), columns: ['password_hash'] },
      'The database rejected a value: column password_hash of table person cannot be null',
    ],
    [
      'a shown column',
      { kind: 'not_null', table: shop('person'), columns: ['email'] },
      'The database rejected a value: email of table person cannot be null',
    ],
    [
      'a table of another schema is not the resource’s',
      { kind: 'not_null', table: { schema: 'audit', table: 'person' }, columns: ['email'] },
      'The database rejected a value: column email of table person cannot be null',
    ],
    [
      'a table outside the resource',
      { kind: 'not_null', table: shop('note'), columns: ['id'] },
      'The database rejected a value: column id of table note cannot be null',
    ],
  ])('%s', (_name, violation, expected) => {
    expect(labelViolation(personTasks, violation)).toBe(expected);
  });
});
