/**
 * Table tests of joining a definition with the catalog (the definition against its tables, row and collection
 * names, fields, keys and links):
 * hand-built QueryCatalogs, exact SqlResources and every DefinitionError. Pure: no database.
 */
import type { CatalogColumn, CatalogTable, QueryCatalog, QueryColumn } from '../../lib/db/database';
import { buildResource } from '../../lib/definitions/build-resource';
import type { DeclaredTable, Definition } from '../../lib/definitions/parse-definition';
import type { Field, ResourceTable, SqlResource, ValueType } from '../../lib/resource';
import { serviceErrorOf } from '../support/resources';

const file = '/defs/shop/Thing.xml';

function column(name: string, type: ValueType, extra: Partial<CatalogColumn> = {}): CatalogColumn {
  return {
    name,
    dbType: type,
    type,
    nullable: true,
    generated: false,
    readOnly: false,
    hasDefault: !!extra.generated,
    ...extra,
  };
}

function catalogTable(
  table: string,
  columns: readonly CatalogColumn[],
  primaryKey: readonly string[],
  foreignKeys: CatalogTable['foreignKeys'] = [],
  schema = 'shop',
): CatalogTable {
  return { schema, table, columns, primaryKey, foreignKeys, uniqueKeys: [] };
}

function queryColumn(label: string, table: string | null, col: string | null, type: ValueType = 'string'): QueryColumn {
  return { label, schema: table === null ? null : 'shop', table, column: col, dbType: type, type };
}

function definition(tables: DeclaredTable[], extra: Partial<Definition> = {}): Definition {
  return { file, query: 'select 1', database: 'shop', tables, validations: [], ...extra };
}

// Catalog tables of a small bookstore.
const book = catalogTable(
  'book',
  [
    column('book_id', 'integer', { nullable: false, generated: true }),
    column('title', 'string', { nullable: false }),
    column('slug', 'string', { readOnly: true }),
    column('publisher_id', 'integer'),
  ],
  ['book_id'],
  [{ columns: ['publisher_id'], refSchema: 'shop', refTable: 'publisher', refColumns: ['publisher_id'] }],
);
const bookDetail = catalogTable(
  'book_detail',
  [column('detail_book_id', 'integer', { nullable: false }), column('summary', 'string')],
  ['detail_book_id'],
  [{ columns: ['detail_book_id'], refSchema: 'shop', refTable: 'book', refColumns: ['book_id'] }],
);
const publisher = catalogTable(
  'publisher',
  [column('publisher_id', 'integer', { nullable: false, generated: true }), column('name', 'string')],
  ['publisher_id'],
);
/** No foreign key to publisher, but a column named like its key, which links them when no foreign key does. */
const looseBook = catalogTable(
  'book',
  [column('book_id', 'integer', { nullable: false }), column('publisher_id', 'integer'), column('title', 'string')],
  ['book_id'],
);
/** Neither a foreign key nor a column named like publisher's key. */
const orphanBook = catalogTable(
  'book',
  [column('book_id', 'integer', { nullable: false }), column('title', 'string')],
  ['book_id'],
);
const author = catalogTable(
  'author',
  [column('author_id', 'integer', { nullable: false, generated: true }), column('name', 'string')],
  ['author_id'],
);
const bookAuthor = catalogTable(
  'book_author',
  [column('book_id', 'integer', { nullable: false }), column('author_id', 'integer', { nullable: false })],
  ['book_id', 'author_id'],
  [
    { columns: ['book_id'], refSchema: 'shop', refTable: 'book', refColumns: ['book_id'] },
    { columns: ['author_id'], refSchema: 'shop', refTable: 'author', refColumns: ['author_id'] },
  ],
);
const authorBio = catalogTable(
  'author_bio',
  [column('author_id', 'integer', { nullable: false }), column('bio', 'string')],
  ['author_id'],
);

const idField: Field = {
  label: 'id',
  table: 'book',
  column: 'book_id',
  type: 'integer',
  dbType: 'integer',
  primaryKey: true,
  generated: true,
  readOnly: false,
  nullable: false,
  hasDefault: true,
};
const titleField: Field = {
  label: 'title',
  table: 'book',
  column: 'title',
  type: 'string',
  dbType: 'string',
  primaryKey: false,
  generated: false,
  readOnly: false,
  nullable: false,
  hasDefault: false,
};

const bookTable: ResourceTable = {
  name: 'book',
  schema: 'shop',
  table: 'book',
  role: 'Parent',
  primaryKey: ['book_id'],
  generatedColumns: ['book_id'],
  uniqueKeys: [],
  links: [],
};

const built: {
  name: string;
  definition: Definition;
  catalog: QueryCatalog;
  expected: Partial<SqlResource>;
}[] = [
  {
    name: 'flat with an extension: fields mapped, computed read-only, generated key, FK link',
    definition: definition(
      [
        { name: 'book', role: 'Parent' },
        { name: 'book_detail', role: 'ParentExtension' },
      ],
      {
        query: 'select b.book_id id, title, slug, summary, length(title) len from book b join book_detail d ...',
        validations: [{ name: 'title', type: 'String', maxLength: 20 }],
        cacheControl: 'max-age=60',
        documentation: 'Books.',
      },
    ),
    catalog: {
      columns: [
        queryColumn('id', 'book', 'book_id', 'integer'),
        queryColumn('title', 'book', 'title'),
        queryColumn('slug', 'book', 'slug'),
        queryColumn('summary', 'book_detail', 'summary'),
        queryColumn('len', null, null, 'integer'),
      ],
      tables: { book, book_detail: bookDetail },
    },
    expected: {
      name: 'shop.Thing',
      file,
      kind: 'flat',
      database: 'shop',
      engine: 'postgres',
      query: 'select b.book_id id, title, slug, summary, length(title) len from book b join book_detail d ...',
      rowName: 'book',
      collectionName: 'books',
      childRowName: undefined,
      childCollectionName: undefined,
      tables: {
        book: bookTable,
        book_detail: {
          name: 'book_detail',
          schema: 'shop',
          table: 'book_detail',
          role: 'ParentExtension',
          primaryKey: ['detail_book_id'],
          generatedColumns: [],
          uniqueKeys: [],
          links: [{ columns: ['detail_book_id'], target: 'book', references: ['book_id'] }],
        },
      },
      fields: [
        idField,
        titleField,
        { ...titleField, label: 'slug', column: 'slug', readOnly: true, nullable: true },
        {
          label: 'summary',
          table: 'book_detail',
          column: 'summary',
          type: 'string',
          dbType: 'string',
          primaryKey: false,
          generated: false,
          readOnly: false,
          nullable: true,
          hasDefault: false,
        },
        {
          label: 'len',
          table: null,
          column: null,
          type: 'integer',
          dbType: 'integer',
          primaryKey: false,
          generated: false,
          readOnly: true,
          nullable: true,
          hasDefault: false,
        },
      ],
      validations: [{ name: 'title', type: 'String', maxLength: 20 }],
      cacheControl: 'max-age=60',
      documentation: 'Books.',
    },
  },
  {
    name: 'defaults: no database, default cache control, row name from the catalog table of a qualified name',
    definition: definition([{ name: 'shop.book', role: 'Parent' }], { database: undefined }),
    catalog: { columns: [queryColumn('id', 'book', 'book_id', 'integer')], tables: { 'shop.book': book } },
    expected: {
      kind: 'flat',
      database: '',
      rowName: 'book',
      collectionName: 'books',
      tables: { 'shop.book': { ...bookTable, name: 'shop.book' } },
      fields: [{ ...idField, table: 'shop.book' }],
      cacheControl: 'no-cache, no-transform',
      documentation: undefined,
    },
  },
  {
    name: "limits: a column's limits from the catalog go with its field; a computed field has none",
    definition: definition([{ name: 'book', role: 'Parent' }]),
    catalog: {
      columns: [
        queryColumn('id', 'book', 'book_id', 'integer'),
        queryColumn('title', 'book', 'title'),
        queryColumn('len', null, null, 'integer'),
      ],
      tables: {
        book: catalogTable(
          'book',
          [
            column('book_id', 'integer', { nullable: false, generated: true, limits: { min: '0', max: '255' } }),
            column('title', 'string', { nullable: false, limits: { maxLength: 20 } }),
          ],
          ['book_id'],
        ),
      },
    },
    expected: {
      fields: [
        { ...idField, limits: { min: '0', max: '255' } },
        { ...titleField, limits: { maxLength: 20 } },
        {
          label: 'len',
          table: null,
          column: null,
          type: 'integer',
          dbType: 'integer',
          primaryKey: false,
          generated: false,
          readOnly: true,
          nullable: true,
          hasDefault: false,
        },
      ],
    },
  },
  {
    name: 'D2: rowAlias and rowSetAlias',
    definition: definition([{ name: 'book', role: 'Parent', rowAlias: 'volume', rowSetAlias: 'library' }]),
    catalog: { columns: [queryColumn('id', 'book', 'book_id', 'integer')], tables: { book } },
    expected: { rowName: 'volume', collectionName: 'library' },
  },
  {
    name: 'D2: rowAlias alone gives the collection rowAlias + s',
    definition: definition([{ name: 'book', role: 'Parent', rowAlias: 'volume' }]),
    catalog: { columns: [queryColumn('id', 'book', 'book_id', 'integer')], tables: { book } },
    expected: { rowName: 'volume', collectionName: 'volumes' },
  },
  {
    name: 'D2: rowSetAlias alone keeps the table name as row name',
    definition: definition([{ name: 'book', role: 'Parent', rowSetAlias: 'library' }]),
    catalog: { columns: [queryColumn('id', 'book', 'book_id', 'integer')], tables: { book } },
    expected: { rowName: 'book', collectionName: 'library' },
  },
  {
    name: 'one-to-many: Child linked to the Parent by a foreign key; child names',
    definition: definition([
      { name: 'publisher', role: 'Parent', rowAlias: 'pub' },
      { name: 'book', role: 'Child' },
    ]),
    catalog: {
      columns: [
        queryColumn('pubId', 'publisher', 'publisher_id', 'integer'),
        queryColumn('id', 'book', 'book_id', 'integer'),
      ],
      tables: { publisher, book },
    },
    expected: {
      kind: 'one-to-many',
      rowName: 'pub',
      collectionName: 'pubs',
      childRowName: 'book',
      childCollectionName: 'books',
      tables: {
        publisher: {
          name: 'publisher',
          schema: 'shop',
          table: 'publisher',
          role: 'Parent',
          primaryKey: ['publisher_id'],
          generatedColumns: ['publisher_id'],
          uniqueKeys: [],
          links: [],
        },
        book: {
          ...bookTable,
          role: 'Child',
          links: [{ columns: ['publisher_id'], target: 'publisher', references: ['publisher_id'] }],
        },
      },
    },
  },
  {
    name: 'one-to-many: D4 fallback to a column named like the Parent key',
    definition: definition([
      { name: 'publisher', role: 'Parent' },
      { name: 'book', role: 'Child', rowAlias: 'title', rowSetAlias: 'titles' },
    ]),
    catalog: {
      columns: [queryColumn('pubId', 'publisher', 'publisher_id', 'integer')],
      tables: { publisher, book: looseBook },
    },
    expected: {
      kind: 'one-to-many',
      childRowName: 'title',
      childCollectionName: 'titles',
      tables: {
        publisher: {
          name: 'publisher',
          schema: 'shop',
          table: 'publisher',
          role: 'Parent',
          primaryKey: ['publisher_id'],
          generatedColumns: ['publisher_id'],
          uniqueKeys: [],
          links: [],
        },
        book: {
          ...bookTable,
          role: 'Child',
          generatedColumns: [],
          uniqueKeys: [],
          links: [{ columns: ['publisher_id'], target: 'publisher', references: ['publisher_id'] }],
        },
      },
    },
  },
  {
    name: 'many-to-many: the Join links Parent and Child; the Child hangs off the Join; ChildExtension off the Child',
    definition: definition([
      { name: 'book', role: 'Parent' },
      { name: 'author', role: 'Child', rowAlias: 'writer' },
      { name: 'book_author', role: 'Join' },
      { name: 'author_bio', role: 'ChildExtension' },
    ]),
    catalog: {
      columns: [
        queryColumn('id', 'book', 'book_id', 'integer'),
        queryColumn('authorId', 'author', 'author_id', 'integer'),
      ],
      tables: { book, author, book_author: bookAuthor, author_bio: authorBio },
    },
    expected: {
      kind: 'many-to-many',
      rowName: 'book',
      collectionName: 'books',
      childRowName: 'writer',
      childCollectionName: 'writers',
      tables: {
        book: bookTable,
        author: {
          name: 'author',
          schema: 'shop',
          table: 'author',
          role: 'Child',
          primaryKey: ['author_id'],
          generatedColumns: ['author_id'],
          uniqueKeys: [],
          links: [],
        },
        book_author: {
          name: 'book_author',
          schema: 'shop',
          table: 'book_author',
          role: 'Join',
          primaryKey: ['book_id', 'author_id'],
          generatedColumns: [],
          uniqueKeys: [],
          links: [
            { columns: ['book_id'], target: 'book', references: ['book_id'] },
            { columns: ['author_id'], target: 'author', references: ['author_id'] },
          ],
        },
        author_bio: {
          name: 'author_bio',
          schema: 'shop',
          table: 'author_bio',
          role: 'ChildExtension',
          primaryKey: ['author_id'],
          generatedColumns: [],
          uniqueKeys: [],
          links: [{ columns: ['author_id'], target: 'author', references: ['author_id'] }],
        },
      },
    },
  },
  {
    name: 'a many-to-one lookup: the Parent holds the foreign key to the extension, which is read-only (D4)',
    definition: definition([
      { name: 'book', role: 'Parent' },
      { name: 'publisher', role: 'ParentExtension' },
    ]),
    catalog: {
      columns: [
        queryColumn('id', 'book', 'book_id', 'integer'),
        queryColumn('publisher_id', 'publisher', 'publisher_id', 'integer'),
        queryColumn('name', 'publisher', 'name'),
      ],
      tables: { book, publisher },
    },
    expected: {
      tables: {
        book: bookTable,
        publisher: {
          name: 'publisher',
          schema: 'shop',
          table: 'publisher',
          role: 'ParentExtension',
          primaryKey: ['publisher_id'],
          generatedColumns: ['publisher_id'],
          uniqueKeys: [],
          links: [],
          lookup: { owner: 'book', columns: ['publisher_id'], references: ['publisher_id'] },
        },
      },
    },
  },
  {
    name: 'a Child with neither a foreign key nor a column named like the Parent key: loads, unlinked (D4)',
    definition: definition([
      { name: 'publisher', role: 'Parent' },
      { name: 'book', role: 'Child' },
    ]),
    catalog: {
      columns: [queryColumn('pubId', 'publisher', 'publisher_id', 'integer')],
      tables: { publisher, book: orphanBook },
    },
    expected: {
      kind: 'one-to-many',
      tables: {
        publisher: {
          ...bookTable,
          name: 'publisher',
          table: 'publisher',
          primaryKey: ['publisher_id'],
          generatedColumns: ['publisher_id'],
          uniqueKeys: [],
        },
        book: {
          name: 'book',
          schema: 'shop',
          table: 'book',
          role: 'Child',
          primaryKey: ['book_id'],
          generatedColumns: [],
          uniqueKeys: [],
          links: [],
          unlinked:
            'table book (Child) has no foreign key to publisher (publisher_id), and no columns named like that key',
        },
      },
    },
  },
  {
    name: 'an extension of a Parent without a primary key and without a foreign key: loads, unlinked (D4)',
    definition: definition([
      { name: 'publisher', role: 'Parent' },
      { name: 'book', role: 'ParentExtension' },
    ]),
    catalog: { columns: [], tables: { publisher: { ...publisher, primaryKey: [] }, book: looseBook } },
    expected: {
      tables: {
        publisher: {
          ...bookTable,
          name: 'publisher',
          table: 'publisher',
          primaryKey: [],
          generatedColumns: ['publisher_id'],
          uniqueKeys: [],
        },
        book: {
          name: 'book',
          schema: 'shop',
          table: 'book',
          role: 'ParentExtension',
          primaryKey: ['book_id'],
          generatedColumns: [],
          uniqueKeys: [],
          links: [],
          unlinked:
            'table book (ParentExtension) has no foreign key to publisher (no primary key), and no columns named like that key',
        },
      },
    },
  },
];

const invalid: { name: string; definition: Definition; catalog: QueryCatalog; problem: string }[] = [
  {
    name: 'a column from an undeclared table',
    definition: definition([{ name: 'book', role: 'Parent' }]),
    catalog: {
      columns: [queryColumn('id', 'book', 'book_id', 'integer'), queryColumn('pubName', 'publisher', 'name')],
      tables: { book },
    },
    problem: 'column pubName comes from table publisher, which is not declared in metadata',
  },
  {
    name: 'a column from a same-named table of another schema',
    definition: definition([{ name: 'book', role: 'Parent' }]),
    catalog: {
      columns: [
        { label: 'id', schema: 'archive', table: 'book', column: 'book_id', dbType: 'integer', type: 'integer' },
      ],
      tables: { book },
    },
    problem: 'column id comes from table book, which is not declared in metadata',
  },
  {
    name: 'a declared table missing from the catalog',
    definition: definition([
      { name: 'book', role: 'Parent' },
      { name: 'book_extra', role: 'ParentExtension' },
    ]),
    catalog: { columns: [queryColumn('id', 'book', 'book_id', 'integer')], tables: { book, book_extra: null } },
    problem: 'table book_extra (role ParentExtension) does not exist in the database',
  },
  {
    name: 'a declared table the catalog does not list at all',
    definition: definition([{ name: 'nobook', role: 'Parent' }]),
    catalog: { columns: [], tables: {} },
    problem: 'table nobook (role Parent) does not exist in the database',
  },
  {
    name: 'duplicate labels',
    definition: definition([{ name: 'book', role: 'Parent' }]),
    catalog: {
      columns: [queryColumn('id', 'book', 'book_id', 'integer'), queryColumn('id', null, null, 'integer')],
      tables: { book },
    },
    problem: 'the query has two columns labelled id',
  },
  {
    name: 'a validatedAttribute naming no label',
    definition: definition([{ name: 'book', role: 'Parent' }], {
      validations: [{ name: 'book_title', type: 'String', maxLength: 5 }],
    }),
    catalog: { columns: [queryColumn('title', 'book', 'title')], tables: { book } },
    problem: 'validatedAttribute book_title matches no column label of the query',
  },
];

describe('buildResource', () => {
  it.each(built)('$name', ({ definition, catalog, expected }) => {
    const resource = buildResource('shop.Thing', definition, catalog, 'postgres');
    // each table's column types are the catalog's, shown or not (checked on their own below)
    const tables = Object.fromEntries(
      Object.entries(resource.tables).map(([name, { columnTypes: _types, ...table }]) => [name, table]),
    );
    const got: Record<string, unknown> = { ...resource, tables };
    expect(Object.fromEntries(Object.keys(expected).map((k) => [k, got[k]]))).toEqual(expected);
  });

  it('keeps the value type of every column of each table, the ones the query leaves out too', () => {
    const [, { definition, catalog }] = built as [unknown, (typeof built)[number]];
    const resource = buildResource('shop.Thing', definition, catalog, 'postgres');
    for (const [name, table] of Object.entries(resource.tables)) {
      const columns = catalog.tables[name]?.columns ?? [];
      expect(columns.length).toBeGreaterThan(0);
      expect(table.columnTypes).toEqual(Object.fromEntries(columns.map((c) => [c.name, c.type])));
    }
  });

  it('passes the engine through', () => {
    const catalog = { columns: [queryColumn('id', 'book', 'book_id', 'integer')], tables: { book } };
    expect(buildResource('B', definition([{ name: 'book', role: 'Parent' }]), catalog, 'mysql').engine).toBe('mysql');
  });

  it.each(invalid)('$name is a DefinitionError', ({ definition, catalog, problem }) => {
    expect(serviceErrorOf(() => buildResource('shop.Thing', definition, catalog, 'postgres'))).toEqual({
      name: 'DefinitionError',
      status: 500,
      code: 'definition_invalid',
      message: `Definition ${file} is invalid: ${problem}`,
    });
  });
});

describe('links of compound keys', () => {
  it('are put in the order of the target key, whatever order the foreign key lists them in', () => {
    const edition = catalogTable(
      'edition',
      [column('isbn', 'string'), column('edition_no', 'integer')],
      ['isbn', 'edition_no'],
    );
    const note = catalogTable(
      'edition_note',
      [column('no', 'integer'), column('code', 'string'), column('text', 'string')],
      ['code', 'no'],
      [{ columns: ['no', 'code'], refSchema: 'shop', refTable: 'edition', refColumns: ['edition_no', 'isbn'] }],
    );
    const resource = buildResource(
      'Edition',
      definition([
        { name: 'edition', role: 'Parent' },
        { name: 'edition_note', role: 'ParentExtension' },
      ]),
      {
        columns: [
          queryColumn('isbn', 'edition', 'isbn'),
          queryColumn('edition_no', 'edition', 'edition_no', 'integer'),
          queryColumn('text', 'edition_note', 'text'),
        ],
        tables: { edition, edition_note: note },
      },
      'postgres',
    );
    expect(resource.tables.edition_note?.links).toEqual([
      { columns: ['code', 'no'], target: 'edition', references: ['isbn', 'edition_no'] },
    ]);
  });
});
