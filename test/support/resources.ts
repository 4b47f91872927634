/**
 * Hand-built SqlResources and helpers shared by the unit tests of the pure stages (plan, sql, definitions).
 * Test data only: no IO.
 */
import { engineList } from '../../lib/db/engines/registry';
import { ServiceError } from '../../lib/errors';
import type { EngineName, Field, ResourceTable, SqlResource, ValueLimits, ValueType } from '../../lib/resource';

/** Every engine of the registry: a table test over them asks for an expectation of each. */
export const engineNames: readonly EngineName[] = engineList.map((engine) => engine.name);

interface FieldOptions {
  readonly primaryKey?: boolean;
  readonly generated?: boolean;
  readonly readOnly?: boolean;
  /** NULL allowed; by default every column but a key's. */
  readonly nullable?: boolean;
  /** An insert may leave it out; by default only a generated column. */
  readonly hasDefault?: boolean;
  readonly dbType?: string;
  /** What the column holds; none by default, as for a column the catalog sets no limit on. */
  readonly limits?: ValueLimits;
}

/** A field of `table.column`, labelled `label`. */
export function field(
  label: string,
  type: ValueType,
  table: string | null,
  column: string | null,
  options: FieldOptions = {},
): Field {
  return {
    label,
    table,
    column,
    type,
    dbType: options.dbType ?? type,
    primaryKey: options.primaryKey ?? false,
    generated: options.generated ?? false,
    readOnly: options.readOnly ?? table === null,
    nullable: options.nullable ?? !(options.primaryKey ?? false),
    hasDefault: options.hasDefault ?? options.generated ?? false,
    ...(options.limits ? { limits: options.limits } : {}),
  };
}

export function table(
  name: string,
  role: ResourceTable['role'],
  primaryKey: readonly string[],
  links: ResourceTable['links'] = [],
  generatedColumns: readonly string[] = [],
): ResourceTable {
  return { name, schema: 'shop', table: name, role, primaryKey, generatedColumns, uniqueKeys: [], links };
}

function resource(
  engine: EngineName,
  name: string,
  kind: SqlResource['kind'],
  tables: readonly ResourceTable[],
  fields: readonly Field[],
  extra: Partial<SqlResource> = {},
): SqlResource {
  return {
    name,
    file: `/defs/${name.split('.').join('/')}.xml`,
    kind,
    database: 'shop',
    engine,
    query: 'select 1',
    rowName: 'row',
    collectionName: 'rows',
    tables: Object.fromEntries(tables.map((t) => [t.name, t])),
    fields,
    validations: [],
    cacheControl: 'no-cache, no-transform',
    ...extra,
  };
}

/**
 * Flat: Parent `book` (key book_id, generated) and ParentExtension `book_detail` (linked by book_id); `title`
 * is limited to 20 characters; `titleLength` is computed.
 */
export function bookResource(engine: EngineName): SqlResource {
  return resource(
    engine,
    'shop.Book',
    'flat',
    [
      table('book', 'Parent', ['book_id'], [], ['book_id']),
      table(
        'book_detail',
        'ParentExtension',
        ['book_id'],
        [{ columns: ['book_id'], target: 'book', references: ['book_id'] }],
      ),
    ],
    [
      field('id', 'integer', 'book', 'book_id', { primaryKey: true, generated: true }),
      field('title', 'string', 'book', 'title'),
      field('price', 'decimal', 'book', 'price'),
      field('published', 'date', 'book', 'published_on'),
      field('summary', 'string', 'book_detail', 'summary'),
      field('titleLength', 'integer', null, null),
    ],
    { rowName: 'book', collectionName: 'books', validations: [{ name: 'title', type: 'String', maxLength: 20 }] },
  );
}

/** Flat with a compound key: `edition` (isbn, edition_no). */
export function editionResource(engine: EngineName): SqlResource {
  return resource(
    engine,
    'Edition',
    'flat',
    [table('edition', 'Parent', ['isbn', 'edition_no'])],
    [
      field('isbn', 'string', 'edition', 'isbn', { primaryKey: true }),
      field('editionNo', 'integer', 'edition', 'edition_no', { primaryKey: true }),
      field('label', 'string', 'edition', 'label'),
    ],
    { rowName: 'edition', collectionName: 'editions' },
  );
}

/** Flat whose query does not select the Parent key: ordered by its orderable fields, not addressable by key. */
export function logResource(engine: EngineName): SqlResource {
  return resource(
    engine,
    'Log',
    'flat',
    [table('log', 'Parent', ['log_id'])],
    [
      field('message', 'string', 'log', 'message'),
      field('at', 'timestamp', 'log', 'at'),
      field('raw', 'binary', 'log', 'raw'),
      field('extra', 'string', 'log', 'extra', { dbType: 'jsonb' }),
      field('level', 'integer', 'log', 'level'),
    ],
  );
}

/** One-to-many: Parent `language` (language_id), Child `film` (film_id). */
export function languageResource(engine: EngineName): SqlResource {
  return resource(
    engine,
    'Lang',
    'one-to-many',
    [
      table('language', 'Parent', ['language_id']),
      table(
        'film',
        'Child',
        ['film_id'],
        [{ columns: ['language_id'], target: 'language', references: ['language_id'] }],
      ),
    ],
    [
      field('langId', 'integer', 'language', 'language_id', { primaryKey: true }),
      field('langName', 'string', 'language', 'name'),
      field('filmId', 'integer', 'film', 'film_id', { primaryKey: true }),
      field('title', 'string', 'film', 'title'),
    ],
    { rowName: 'lang', collectionName: 'langs', childRowName: 'movie', childCollectionName: 'movies' },
  );
}

/**
 * One-to-many: Parent `person` (id generated, labelled person_id; email NOT NULL without a default; secret NOT NULL
 * with one; nick may be NULL), ParentExtension `profile` (bio NOT NULL without a default), Child `task` (id
 * generated, labelled task_id; person_id, labelled owner, its link to person; title NOT NULL without a default).
 * Both person and task have a column `id`.
 */
export function personTasksResource(engine: EngineName): SqlResource {
  const required = { nullable: false, hasDefault: false };
  const toPerson = [{ columns: ['person_id'], target: 'person', references: ['id'] }];
  return resource(
    engine,
    'PersonTasks',
    'one-to-many',
    [
      {
        ...table('person', 'Parent', ['id'], [], ['id']),
        uniqueKeys: [
          { name: 'person_pkey', columns: ['id'] },
          { name: 'person_email_key', columns: ['email'] },
        ],
      },
      table('profile', 'ParentExtension', ['person_id'], toPerson),
      {
        ...table('task', 'Child', ['id'], toPerson, ['id']),
        uniqueKeys: [{ name: 'task_title_uq', columns: ['person_id', 'title'] }],
      },
    ],
    [
      field('person_id', 'integer', 'person', 'id', { primaryKey: true, generated: true }),
      field('email', 'string', 'person', 'email', required),
      field('secret', 'string', 'person', 'secret', { nullable: false, hasDefault: true }),
      field('nick', 'string', 'person', 'nick'),
      field('bio', 'string', 'profile', 'bio', required),
      field('motto', 'string', 'profile', 'motto'),
      field('task_id', 'integer', 'task', 'id', { primaryKey: true, generated: true }),
      field('owner', 'integer', 'task', 'person_id', required),
      field('title', 'string', 'task', 'title', required),
    ],
    { rowName: 'person', collectionName: 'persons', childRowName: 'task', childCollectionName: 'tasks' },
  );
}

/** Runs `fn`, which must throw, and returns what it threw. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, but nothing was thrown');
}

/** The parts of a ServiceError a test compares exactly. */
export interface ExpectedError {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/** Runs `fn`, which must throw a ServiceError, and returns its status, code and message. */
export function serviceErrorOf(fn: () => unknown): ExpectedError & { readonly name: string } {
  return described(thrownBy(fn));
}

/** As serviceErrorOf, for a function that may also fail by rejecting. */
export async function serviceErrorOfAsync(fn: () => unknown): Promise<ExpectedError & { readonly name: string }> {
  try {
    await fn();
  } catch (error) {
    return described(error);
  }
  throw new Error('expected an error, but nothing was thrown');
}

function described(error: unknown): ExpectedError & { readonly name: string } {
  if (!(error instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return { name: error.name, status: error.status, code: error.code, message: error.message };
}
