/**
 * Table tests of what a constraint error says (lib/db/violation-text.ts), of the table a statement writes
 * (written-table.ts), and of the key columns read from a PostgreSQL DETAIL: every kind and direction, with and
 * without the names the database may leave out. Pure: no database.
 */

import { engineNamed } from '../../lib/db/engines/registry';
import { violationText } from '../../lib/db/violation-text';
import { writtenTable } from '../../lib/db/written-table';
import type { ConstraintViolation } from '../../lib/errors';

const person = { schema: 'public', table: 'person' };

describe('violationText', () => {
  it.each<[string, ConstraintViolation, string[], string]>([
    [
      'unique, one field',
      { kind: 'unique', constraint: 'person_email_key', table: person, columns: ['email'] },
      ['email'],
      'Conflict: another row of table person has the same email (unique constraint "person_email_key")',
    ],
    [
      'unique, three fields',
      { kind: 'unique', constraint: 'k', table: person, columns: ['a', 'b', 'c'] },
      ['a', 'b', 'column c'],
      'Conflict: another row of table person has the same a, b and column c (unique constraint "k")',
    ],
    [
      'unique, no columns nor name known',
      { kind: 'unique', table: person, columns: [] },
      [],
      'Conflict: another row of table person has the same key',
    ],
    [
      'foreign key missing',
      {
        kind: 'foreign_key',
        constraint: 'task_person_id_fkey',
        table: { table: 'task' },
        columns: ['person_id'],
        reference: { direction: 'missing', other: 'person' },
      },
      ['owner'],
      'Conflict: owner of table task names no row of table person (foreign key constraint "task_person_id_fkey")',
    ],
    [
      'foreign key missing, two fields, the other table unknown',
      {
        kind: 'foreign_key',
        table: { table: 'task' },
        columns: ['a', 'b'],
        reference: { direction: 'missing' },
      },
      ['a', 'b'],
      'Conflict: a and b of table task name no row of the table it references',
    ],
    [
      'foreign key missing, no columns',
      { kind: 'foreign_key', table: { table: 'task' }, columns: [], reference: { direction: 'missing', other: 'p' } },
      [],
      'Conflict: a row of table task names no row of table p',
    ],
    [
      'foreign key referenced',
      {
        kind: 'foreign_key',
        constraint: 'note_task_id_fkey',
        table: { table: 'task' },
        columns: ['id'],
        reference: { direction: 'referenced', other: 'note' },
      },
      ['task_id'],
      'Conflict: task_id of table task is still referenced from table note (foreign key constraint "note_task_id_fkey")',
    ],
    [
      'foreign key referenced, two fields',
      {
        kind: 'foreign_key',
        table: { table: 'edition' },
        columns: ['isbn', 'no'],
        reference: { direction: 'referenced', other: 'copy' },
      },
      ['isbn', 'no'],
      'Conflict: isbn and no of table edition are still referenced from table copy',
    ],
    [
      'foreign key referenced, nothing but the direction',
      { kind: 'foreign_key', columns: [], reference: { direction: 'referenced' } },
      [],
      'Conflict: a row is still referenced',
    ],
    [
      'foreign key, direction unknown',
      { kind: 'foreign_key', constraint: 'fk', table: { table: 'task' }, columns: [] },
      [],
      'Conflict: the write breaks a foreign key of table task (foreign key constraint "fk")',
    ],
    [
      'not null',
      { kind: 'not_null', table: person, columns: ['email'] },
      ['email'],
      'The database rejected a value: email of table person cannot be null',
    ],
    [
      'not null, the column unknown',
      { kind: 'not_null', columns: [] },
      [],
      'The database rejected a value: a column cannot be null',
    ],
    [
      'check',
      { kind: 'check', constraint: 'person_n_check', table: person, columns: [] },
      [],
      'The database rejected a value: a row of table person breaks check constraint "person_n_check"',
    ],
    [
      'check, unnamed',
      { kind: 'check', columns: [] },
      [],
      'The database rejected a value: a row breaks a check constraint',
    ],
  ])('%s', (_name, violation, names, expected) => {
    expect(violationText(violation, names)).toBe(expected);
  });
});

describe('writtenTable', () => {
  it.each([
    [
      'INSERT INTO "public"."person" ("email") VALUES ($1) RETURNING *',
      { verb: 'insert', schema: 'public', table: 'person' },
    ],
    ['INSERT INTO `shop`.`book` () VALUES ()', { verb: 'insert', schema: 'shop', table: 'book' }],
    ['UPDATE "s"."odd ""name""" SET "a" = $1 WHERE "id" = $2', { verb: 'update', schema: 's', table: 'odd "name"' }],
    ['DELETE FROM `shop`.`we``ird` WHERE `id` IN (?)', { verb: 'delete', schema: 'shop', table: 'we`ird' }],
    ['delete from "t" where true', { verb: 'delete', table: 't' }],
    ['SELECT * FROM "t"', undefined],
    ['COMMIT', undefined],
    ['WITH x AS (DELETE FROM "t") SELECT 1', undefined],
  ])('%s', (text, expected) => {
    expect(writtenTable(text)).toEqual(expected);
  });
});

describe('the key columns of a PostgreSQL DETAIL, as a unique violation names them', () => {
  it.each([
    ['Key (email)=(alice@example.com) already exists.', ['email']],
    ['Key (isbn, edition_no)=(978, 2) already exists.', ['isbn', 'edition_no']],
    ['Key ("Mixed Case", "a ""q""")=(1, 2) already exists.', ['Mixed Case', 'a "q"']],
    ['Key (lower(nick))=(al) already exists.', ['lower(nick)']],
    ['Key (id)=(1) is still referenced from table "task".', ['id']],
    ['Schlüssel (id)=(1) existiert bereits.', ['id']],
    ['Key (name)=(a)=(b)) already exists.', ['name']],
    ['Key is not present in table "person".', []],
    ['Failing row contains (1, null, x).', []],
    [undefined, []],
  ])('%s', (detail, expected) => {
    const violation = engineNamed('postgres').errors.violationOf({ code: '23505', detail }, 'unique', undefined);
    expect(violation.columns).toEqual(expected);
  });
});
