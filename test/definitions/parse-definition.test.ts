/**
 * Table tests of definition lookup (D3) and definition parsing (D1): names to locations, the exact 404 text,
 * every accepted shape of a definition file and every DefinitionError. Pure: no file system.
 */
import path from 'node:path';
import { locateDefinition, resourceNotFound } from '../../lib/definitions/locate-definition';
import { type Definition, parseDefinition } from '../../lib/definitions/parse-definition';
import { serviceErrorOf } from '../support/resources';

describe('locateDefinition', () => {
  it.each([
    { name: 'Book', file: '/defs/Book.xml' },
    { name: 'bookstore.Book', file: '/defs/bookstore/Book.xml' },
    { name: 'a.b.Name', file: '/defs/a/b/Name.xml' },
    { name: 'my-res_1.X-2', file: '/defs/my-res_1/X-2.xml' },
    { name: '0', file: '/defs/0.xml' },
  ])('$name → $file', ({ name, file }) => {
    expect(locateDefinition(name, '/defs')).toEqual({ file, expected: file });
  });

  it.each([
    { name: '../x', expected: '/defs////x.xml' },
    { name: 'a..b', expected: '/defs/a//b.xml' },
    { name: 'a/b', expected: '/defs/a/b.xml' },
    { name: '', expected: '/defs/.xml' },
    { name: '.a', expected: '/defs//a.xml' },
    { name: 'a.', expected: '/defs/a/.xml' },
    { name: 'a b', expected: '/defs/a b.xml' },
    { name: 'a\\b', expected: '/defs/a\\b.xml' },
    { name: 'été', expected: '/defs/été.xml' },
    { name: 'Book%00', expected: '/defs/Book%00.xml' },
  ])('invalid name "$name": no file, expected $expected', ({ name, expected }) => {
    expect(locateDefinition(name, '/defs')).toEqual({ file: null, expected });
  });

  it('a name too long for an S3 key can never reach a definition there; a folder leaves it to the file system', () => {
    const long = 'x'.repeat(1100);
    expect(locateDefinition(long, 's3://bucket/defs')).toEqual({
      file: null,
      expected: `s3://bucket/defs/${long}.xml`,
    });
    expect(locateDefinition('x'.repeat(1010), 's3://bucket/defs').file).toBe(
      `s3://bucket/defs/${'x'.repeat(1010)}.xml`,
    );
    expect(locateDefinition(long, '/defs').file).toBe(`/defs/${long}.xml`);
  });

  it.each([
    { dir: '/defs/', name: 'Book', file: '/defs/Book.xml' },
    { dir: '/srv/x/../defs', name: 'a.B', file: '/srv/defs/a/B.xml' },
    { dir: 'relative/defs', name: 'B', file: `${path.resolve('relative/defs')}/B.xml` },
  ])('definitions folder $dir is resolved', ({ dir, name, file }) => {
    expect(locateDefinition(name, dir)).toEqual({ file, expected: file });
  });

  it.each([
    { name: 'Nope', expected: '/defs/Nope.xml' },
    { name: '../etc/passwd', expected: '/defs////etc/passwd.xml' },
    { name: 'a.b.C', expected: '/defs/a/b/C.xml' },
  ])('the 404 for $name', ({ name, expected }) => {
    expect(
      serviceErrorOf(() => {
        throw resourceNotFound(name, locateDefinition(name, '/defs').expected);
      }),
    ).toEqual({
      name: 'NotFoundError',
      status: 404,
      code: 'resource_not_found',
      message: `SQL Resource ${name} not found - expected ${expected}`,
    });
  });
});

const file = '/defs/Lang.xml';

const restsqlExample = `<?xml version="1.0" encoding="UTF-8"?>
<rs:sqlResource xmlns:rs="http://restsql.org/schema">
  <query>
    select language.language_id "langId", language.name "langName", film_id, title, release_year "year"
    from language left outer join film on film.language_id = language.language_id
  </query>
  <metadata>
    <database default="sakila"/>
    <table name="language" role="Parent" rowAlias="lang" rowSetAlias="langs"/>
    <table name="film" role="Child" rowAlias="movie"/>
  </metadata>
  <http><response cacheControl="max-age=60"/></http>
  <validatedAttribute name="langName" type="String" maxLength="20"/>
  <documentation>Languages and their films.</documentation>
</rs:sqlResource>`;

const parsed: { name: string; xml: string; expected: Definition }[] = [
  {
    name: 'the D1 example with the rs: prefix',
    xml: restsqlExample,
    expected: {
      file,
      query:
        'select language.language_id "langId", language.name "langName", film_id, title, release_year "year"\n    from language left outer join film on film.language_id = language.language_id',
      database: 'sakila',
      tables: [
        { name: 'language', role: 'Parent', rowAlias: 'lang', rowSetAlias: 'langs' },
        { name: 'film', role: 'Child', rowAlias: 'movie', rowSetAlias: undefined },
      ],
      validations: [{ name: 'langName', type: 'String', maxLength: 20 }],
      cacheControl: 'max-age=60',
      documentation: 'Languages and their films.',
    },
  },
  {
    name: 'without a namespace; a minimal flat resource',
    xml: '<sqlResource><query>select id from item</query><metadata><table name="item" role="Parent"/></metadata></sqlResource>',
    expected: {
      file,
      query: 'select id from item',
      database: undefined,
      tables: [{ name: 'item', role: 'Parent' }],
      validations: [],
      cacheControl: undefined,
      documentation: undefined,
    },
  },
  {
    name: 'limits: a cap of its own on the rows of one read (D26)',
    xml: '<sqlResource><query>select id from item</query><limits maxRows="250000"/><metadata><table name="item" role="Parent"/></metadata></sqlResource>',
    expected: {
      file,
      query: 'select id from item',
      database: undefined,
      tables: [{ name: 'item', role: 'Parent' }],
      validations: [],
      cacheControl: undefined,
      maxRows: 250000,
      documentation: undefined,
    },
  },
  {
    name: 'http/request ifMatch="required": a write by key must carry If-Match',
    xml: '<sqlResource><query>select id from item</query><http><request ifMatch="required"/></http><metadata><table name="item" role="Parent"/></metadata></sqlResource>',
    expected: {
      file,
      query: 'select id from item',
      database: undefined,
      tables: [{ name: 'item', role: 'Parent' }],
      validations: [],
      cacheControl: undefined,
      ifMatchRequired: true,
      documentation: undefined,
    },
  },
  ...(
    [
      ['insert update delete', 'true', ['insert', 'update', 'delete'], true],
      [' delete   insert ', undefined, ['insert', 'delete'], false],
      ['update', 'false', ['update'], false],
    ] as const
  ).map(([on, before, operations, withBefore]) => ({
    name: `events on="${on}"${before === undefined ? '' : ` before="${before}"`}: the operations that announce, in order`,
    xml: `<sqlResource><query>select id from item</query><events on="${on}"${before === undefined ? '' : ` before="${before}"`}/><metadata><table name="item" role="Parent"/></metadata></sqlResource>`,
    expected: {
      file,
      query: 'select id from item',
      database: undefined,
      tables: [{ name: 'item', role: 'Parent' as const }],
      validations: [],
      cacheControl: undefined,
      events: { on: [...operations], before: withBefore },
      documentation: undefined,
    },
  })),
  {
    name: 'documentation: entities and character references decoded, CDATA kept as written, markup kept as text',
    xml: `<sqlResource><query>select id from item</query><metadata><table name="item" role="Parent"/></metadata>
      <documentation> GET /res/X?a=1&amp;b=%3E2 &#8594; rows &lt;item/&gt; <![CDATA[a &amp; b]]> <b>bold</b> </documentation></sqlResource>`,
    expected: {
      file,
      query: 'select id from item',
      tables: [{ name: 'item', role: 'Parent' }],
      validations: [],
      documentation: 'GET /res/X?a=1&b=%3E2 \u2192 rows <item/> a &amp; b <b>bold</b>',
    },
  },
  {
    name: 'a default namespace',
    xml: '<sqlResource xmlns="http://restsql.org/schema"><query>select id from item</query><metadata><table name="item" role="Parent"/></metadata></sqlResource>',
    expected: { file, query: 'select id from item', tables: [{ name: 'item', role: 'Parent' }], validations: [] },
  },
  {
    name: 'elements in any order; a trailing semicolon dropped; alias as rowAlias',
    xml: `<sqlResource>
      <documentation>  Docs first.  </documentation>
      <validatedAttribute name="code" regex="[A-Z]{3}"/>
      <metadata>
        <table name="shop.book_detail" role="ParentExtension"/>
        <table name="shop.book" role="Parent" alias="volume"/>
        <database default="shop"/>
      </metadata>
      <query>SELECT b.book_id id, code FROM shop.book b;  </query>
    </sqlResource>`,
    expected: {
      file,
      query: 'SELECT b.book_id id, code FROM shop.book b',
      database: 'shop',
      tables: [
        { name: 'shop.book_detail', role: 'ParentExtension' },
        { name: 'shop.book', role: 'Parent', rowAlias: 'volume' },
      ],
      validations: [{ name: 'code', type: 'String', regex: '[A-Z]{3}' }],
      documentation: 'Docs first.',
    },
  },
  {
    name: 'rowAlias wins over alias',
    xml: '<sqlResource><query>select 1 a</query><metadata><table name="t" role="Parent" rowAlias="r" alias="old"/></metadata></sqlResource>',
    expected: { file, query: 'select 1 a', tables: [{ name: 't', role: 'Parent', rowAlias: 'r' }], validations: [] },
  },
  {
    name: 'a query in CDATA and with entities',
    xml: '<sqlResource><query><![CDATA[select id from t where id < 5 and a <> b]]></query><metadata><table name="t" role="Parent"/></metadata></sqlResource>',
    expected: {
      file,
      query: 'select id from t where id < 5 and a <> b',
      tables: [{ name: 't', role: 'Parent' }],
      validations: [],
    },
  },
  {
    name: 'entities in the query are decoded',
    xml: '<sqlResource><query>select id from t where id &lt; 5 and name = &apos;a&amp;b&apos;</query><metadata><table name="t" role="Parent"/></metadata></sqlResource>',
    expected: {
      file,
      query: "select id from t where id < 5 and name = 'a&b'",
      tables: [{ name: 't', role: 'Parent' }],
      validations: [],
    },
  },
  {
    name: 'every role; Numeric bounds; documentation with markup kept as text',
    xml: `<sqlResource>
      <query>select a from p</query>
      <metadata>
        <table name="p" role="Parent"/>
        <table name="pe" role="ParentExtension"/>
        <table name="c" role="Child" rowSetAlias="cees"/>
        <table name="ce" role="ChildExtension"/>
        <table name="j" role="Join"/>
      </metadata>
      <validatedAttribute name="a" type="Numeric" minValue="-1.5" maxValue="100" minLength="1" maxLength="5"/>
      <documentation>Uses <b>bold</b> text.</documentation>
    </sqlResource>`,
    expected: {
      file,
      query: 'select a from p',
      tables: [
        { name: 'p', role: 'Parent' },
        { name: 'pe', role: 'ParentExtension' },
        { name: 'c', role: 'Child', rowSetAlias: 'cees' },
        { name: 'ce', role: 'ChildExtension' },
        { name: 'j', role: 'Join' },
      ],
      validations: [{ name: 'a', type: 'Numeric', minValue: -1.5, maxValue: 100, minLength: 1, maxLength: 5 }],
      documentation: 'Uses <b>bold</b> text.',
    },
  },
  {
    name: 'an empty database default and cacheControl are absent',
    xml: '<sqlResource><query>select 1 a</query><metadata><database default=""/><table name="t" role="Parent"/></metadata><http><response cacheControl=""/></http></sqlResource>',
    expected: { file, query: 'select 1 a', tables: [{ name: 't', role: 'Parent' }], validations: [] },
  },
];

const tablesOf = (...tables: string[]) =>
  `<sqlResource><query>select a from t</query><metadata>${tables.join('')}</metadata></sqlResource>`;
const validationOf = (attrs: string) =>
  `<sqlResource><query>select a from t</query><metadata><table name="t" role="Parent"/></metadata><validatedAttribute ${attrs}/></sqlResource>`;
const queryOf = (query: string) =>
  `<sqlResource>${query}<metadata><table name="t" role="Parent"/></metadata></sqlResource>`;

const limited = (attributes: string) =>
  `<sqlResource><query>select id from item</query><limits ${attributes}/><metadata><table name="item" role="Parent"/></metadata></sqlResource>`;

const broken: { name: string; xml: string; problem: string }[] = [
  ...['0', '-5', '1.5', 'many', '', '1e3', '99999999999'].map((value) => ({
    name: `limits maxRows="${value}"`,
    xml: limited(`maxRows="${value}"`),
    problem: `limits has maxRows="${value}"; expected a whole number of rows, at least 1`,
  })),
  {
    name: 'http/request ifMatch neither required nor optional',
    xml: '<sqlResource><query>select id from item</query><http><request ifMatch="always"/></http><metadata><table name="item" role="Parent"/></metadata></sqlResource>',
    problem: 'http/request has ifMatch="always"; expected "required" or "optional"',
  },
  {
    name: 'events without on',
    xml: '<sqlResource><query>select id from item</query><events before="true"/><metadata><table name="item" role="Parent"/></metadata></sqlResource>',
    problem: 'events has no on attribute; expected on="insert update delete" (any of them)',
  },
  {
    name: 'events on an operation that does not write',
    xml: '<sqlResource><query>select id from item</query><events on="insert read"/><metadata><table name="item" role="Parent"/></metadata></sqlResource>',
    problem: 'events has on="insert read"; "read" is not one of insert, update, delete',
  },
  {
    name: 'events before neither true nor false',
    xml: '<sqlResource><query>select id from item</query><events on="update" before="yes"/><metadata><table name="item" role="Parent"/></metadata></sqlResource>',
    problem: 'events has before="yes"; expected "true" or "false"',
  },
  {
    name: 'malformed XML names line and column',
    xml: '<sqlResource>\n  <query>select 1</sqlResource>',
    problem:
      "malformed XML at line 2, column 18: Expected closing tag 'query' (opened in line 2, col 3) instead of closing tag 'sqlResource'.",
  },
  {
    name: 'unclosed root',
    xml: '<sqlResource><query>select 1</query>',
    problem: "malformed XML at line 1, column 1: Unclosed tag 'sqlResource'.",
  },
  {
    name: 'another root element',
    xml: '<resource><query>select 1</query></resource>',
    problem: 'the root element must be sqlResource',
  },
  { name: 'no query', xml: queryOf(''), problem: 'the query element is missing or empty' },
  { name: 'an empty query', xml: queryOf('<query>  </query>'), problem: 'the query element is missing or empty' },
  { name: 'only a semicolon', xml: queryOf('<query>;</query>'), problem: 'the query element is missing or empty' },
  { name: 'a DELETE', xml: queryOf('<query>delete from t</query>'), problem: 'the query must be one SELECT statement' },
  {
    name: 'an UPDATE',
    xml: queryOf('<query>update t set a = 1</query>'),
    problem: 'the query must be one SELECT statement',
  },
  {
    name: 'a word starting with select',
    xml: queryOf('<query>selection</query>'),
    problem: 'the query must be one SELECT statement',
  },
  {
    name: 'no metadata',
    xml: '<sqlResource><query>select 1</query></sqlResource>',
    problem: 'expected exactly one Parent table, found 0',
  },
  {
    name: 'no Parent',
    xml: tablesOf('<table name="c" role="Child"/>'),
    problem: 'expected exactly one Parent table, found 0',
  },
  {
    name: 'two Parents',
    xml: tablesOf('<table name="a" role="Parent"/>', '<table name="b" role="Parent"/>'),
    problem: 'expected exactly one Parent table, found 2',
  },
  {
    name: 'two Childs',
    xml: tablesOf(
      '<table name="p" role="Parent"/>',
      '<table name="a" role="Child"/>',
      '<table name="b" role="Child"/>',
    ),
    problem: 'expected at most one Child table, found 2',
  },
  {
    name: 'two Joins',
    xml: tablesOf(
      '<table name="p" role="Parent"/>',
      '<table name="c" role="Child"/>',
      '<table name="j1" role="Join"/>',
      '<table name="j2" role="Join"/>',
    ),
    problem: 'expected at most one Join table, found 2',
  },
  {
    name: 'a Join without a Child',
    xml: tablesOf('<table name="p" role="Parent"/>', '<table name="j" role="Join"/>'),
    problem: 'a Join table needs a Child table',
  },
  {
    name: 'a ChildExtension without a Child',
    xml: tablesOf('<table name="p" role="Parent"/>', '<table name="ce" role="ChildExtension"/>'),
    problem: 'a ChildExtension table needs a Child table',
  },
  {
    name: 'an unknown role',
    xml: tablesOf('<table name="p" role="Parent"/>', '<table name="s" role="Sibling"/>'),
    problem: 'table s has role "Sibling"; expected one of Parent, ParentExtension, Child, ChildExtension, Join',
  },
  {
    name: 'roles are case-sensitive',
    xml: tablesOf('<table name="p" role="parent"/>'),
    problem: 'table p has role "parent"; expected one of Parent, ParentExtension, Child, ChildExtension, Join',
  },
  {
    name: 'no role',
    xml: tablesOf('<table name="p"/>'),
    problem: 'table p has role ""; expected one of Parent, ParentExtension, Child, ChildExtension, Join',
  },
  {
    name: 'a table without a name',
    xml: tablesOf('<table name="p" role="Parent"/>', '<table role="Child"/>'),
    problem: 'metadata table #2 has no name',
  },
  {
    name: 'a table declared twice (names compared case-insensitively)',
    xml: tablesOf('<table name="p" role="Parent"/>', '<table name="P" role="ParentExtension"/>'),
    problem: 'table P is declared twice',
  },
  {
    name: 'a validatedAttribute without a name',
    xml: validationOf('type="String"'),
    problem: 'a validatedAttribute has no name',
  },
  {
    name: 'a validatedAttribute with a bad type',
    xml: validationOf('name="a" type="Date"'),
    problem: 'validatedAttribute a has type "Date"; expected String or Numeric',
  },
  {
    name: 'a non-numeric maxLength',
    xml: validationOf('name="a" maxLength="ten"'),
    problem: 'validatedAttribute a has maxLength="ten", not a number',
  },
  {
    name: 'a non-numeric minValue',
    xml: validationOf('name="a" type="Numeric" minValue="low"'),
    problem: 'validatedAttribute a has minValue="low", not a number',
  },
  {
    name: 'an infinite maxValue',
    xml: validationOf('name="a" type="Numeric" maxValue="Infinity"'),
    problem: 'validatedAttribute a has maxValue="Infinity", not a number',
  },
  {
    name: 'an invalid regex',
    xml: validationOf('name="a" regex="[a-"'),
    problem: 'validatedAttribute a has an invalid regex "[a-"',
  },
];

describe('parseDefinition (D1)', () => {
  it.each(parsed)('$name', ({ xml, expected }) => {
    expect(parseDefinition(file, xml)).toEqual(expected);
  });

  it.each(broken)('$name is a DefinitionError', ({ xml, problem }) => {
    expect(serviceErrorOf(() => parseDefinition(file, xml))).toEqual({
      name: 'DefinitionError',
      status: 500,
      code: 'definition_invalid',
      message: `Definition ${file} is invalid: ${problem}`,
    });
  });
});
