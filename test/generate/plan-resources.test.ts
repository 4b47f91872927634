/**
 * Table tests of the generator's planning: which resources a schema gets (their names, kinds, tables and fields),
 * which tables are junctions, and the notes for what gets no resource. Pure.
 */
import type { DescribedTable } from '../../lib/db/engine';
import { isJunction, planResources } from '../../lib/generate/plan-resources';
import { schemaOf, table } from './described';

const language = table('language', 'language_id*+, name');
const film = table('film', 'film_id*+, title, language_id, original_language_id?', {
  fks: [
    ['language_id', 'language'],
    ['original_language_id', 'language', 'language_id'],
  ],
});
const actor = table('actor', 'actor_id*+, name');
const filmActor = (columns = 'actor_id*, film_id*, last_update=') =>
  table('film_actor', columns, {
    fks: [
      ['actor_id', 'actor'],
      ['film_id', 'film'],
    ],
  });

/** name → kind and the roles of its tables, as `Parent:film Join:film_actor Child:actor`. */
function summary(...tables: DescribedTable[]) {
  const { resources, notes } = planResources(schemaOf(...tables));
  return {
    resources: Object.fromEntries(
      resources.map((r) => [r.name, `${r.kind} ${r.tables.map((t) => `${t.role}:${t.table.table}`).join(' ')}`]),
    ),
    notes,
  };
}

describe('isJunction', () => {
  const cases: readonly [string, DescribedTable, boolean][] = [
    ['two foreign keys that are its key, and a column with a default', filmActor(), true],
    ['a surrogate key and no unique key over the two', filmActor('id*+, actor_id, film_id'), false],
    [
      'two foreign keys under a unique key, with a surrogate key (unique)',
      table('film_actor', 'id*+, actor_id, film_id', {
        fks: [
          ['actor_id', 'actor'],
          ['film_id', 'film'],
        ],
        unique: ['actor_id film_id'],
      }),
      true,
    ],
    ['a column an insert must give', filmActor('actor_id*, film_id*, role'), false],
    ['a nullable column', filmActor('actor_id*, film_id*, role?'), true],
    ['no key made of the two', filmActor('actor_id, film_id'), false],
    [
      'both keys to one table',
      table('sequel', 'film_id*, next_id*', {
        fks: [
          ['film_id', 'film'],
          ['next_id', 'film', 'film_id'],
        ],
      }),
      false,
    ],
    ['one foreign key', table('film_note', 'film_id*, note_no*', { fks: [['film_id', 'film']] }), false],
  ];
  it.each(cases)('%s', (_what, junction, expected) => {
    expect(isJunction(junction, schemaOf(language, film, actor, junction))).toBe(expected);
  });
});

describe('planResources', () => {
  it('writes a flat resource per table, a one-to-many per foreign key, a many-to-many each way per junction', () => {
    expect(summary(language, film, actor, filmActor())).toEqual({
      resources: {
        Language: 'flat Parent:language',
        Film: 'flat Parent:film',
        Actor: 'flat Parent:actor',
        FilmActor: 'flat Parent:film_actor',
        LanguageFilmsByLanguage: 'one-to-many Parent:language Child:film',
        LanguageFilmsByOriginalLanguage: 'one-to-many Parent:language Child:film',
        ActorFilms: 'many-to-many Parent:actor Join:film_actor Child:film',
        FilmActors: 'many-to-many Parent:film Join:film_actor Child:actor',
      },
      notes: [],
    });
  });

  it('names one foreign key between two tables after the child alone, and strips the parent from the name', () => {
    const rate = table('film_rate', 'film_id*, currency*, rate', { fks: [['film_id', 'film']] });
    const change = table('film_rate_change', 'change_id*+, film_id, currency, rate', {
      fks: [['film_id currency', 'film_rate']],
    });
    const plain = table('film', 'film_id*+, title');
    expect(summary(plain, rate, change).resources).toEqual({
      Film: 'flat Parent:film',
      FilmRate: 'flat Parent:film_rate',
      FilmRateChange: 'flat Parent:film_rate_change',
      FilmRates: 'one-to-many Parent:film Child:film_rate',
      FilmRateChanges: 'one-to-many Parent:film_rate Child:film_rate_change',
    });
  });

  it('extends a table one-to-one by the table whose whole primary key refers to it', () => {
    const detail = table('film_detail', 'film_id*, summary?', { fks: [['film_id', 'film']] });
    expect(summary(table('film', 'film_id*+, title'), detail).resources).toEqual({
      Film: 'flat Parent:film',
      FilmDetail: 'flat Parent:film_detail',
      FilmWithDetail: 'flat Parent:film ParentExtension:film_detail',
    });
  });

  it('writes no resource for a self-reference, and says why in the note and in the flat resource', () => {
    const staff = table('staff', 'staff_id*+, manager_id?', { fks: [['manager_id', 'staff', 'staff_id']] });
    const { resources, notes } = planResources(schemaOf(staff));
    expect(resources.map((r) => r.name)).toEqual(['Staff']);
    expect(notes).toEqual([
      'No resource for the foreign key staff.manager_id (to staff): the table refers to itself, and a resource declares each table once',
    ]);
    expect(resources[0]?.about).toContain('manager_id refers to this table itself');
  });

  it('makes the flat resource of a table without a primary key read only, and nests no such table', () => {
    const visit = table('visit', 'film_id, at', { fks: [['film_id', 'film']] });
    const { resources, notes } = planResources(schemaOf(table('film', 'film_id*+'), visit));
    expect(resources.map((r) => [r.name, r.readOnly])).toEqual([
      ['Film', false],
      ['Visit', true],
    ]);
    expect(resources[1]?.about).toContain('Read only: the table has no primary key');
    expect(notes).toEqual([
      'Visit is read only: table visit has no primary key',
      'No resource for the foreign key visit.film_id (to film): visit has no primary key, so its rows cannot be nested',
    ]);
  });

  it('leaves out foreign keys to tables it does not describe', () => {
    expect(summary(film).resources).toEqual({ Film: 'flat Parent:film' });
  });

  it('gives resources unique names, whatever the tables are called', () => {
    const names = planResources(
      schemaOf(table('film_actor', 'id*'), table('FilmActor', 'id*'), table('書籍', 'id*'), table('Order Line', 'id*')),
    ).resources.map((r) => r.name);
    expect(names).toEqual(['FilmActor', 'FilmActor2', 'Table', 'OrderLine']);
  });

  it('gives a nested resource a number when a table has its name', () => {
    const book = table('book', 'book_id*+, publisher_id', { fks: [['publisher_id', 'publisher']] });
    expect(summary(table('publisher', 'publisher_id*+'), book, table('publisher_books', 'id*+')).resources).toEqual({
      Publisher: 'flat Parent:publisher',
      Book: 'flat Parent:book',
      PublisherBooks: 'flat Parent:publisher_books',
      PublisherBooks2: 'one-to-many Parent:publisher Child:book',
    });
  });

  it("labels a child's field by its table when the parent has one of that name, and keeps the child's own key", () => {
    const store = table('store', 'store_id*+, name');
    const stock = table('stock', 'store_id*, item*, name?', { fks: [['store_id', 'store']] });
    const nested = planResources(schemaOf(store, stock)).resources.find((r) => r.kind === 'one-to-many');
    expect(nested?.fields.map((f) => `${f.table.table}.${f.column} ${f.label}`)).toEqual([
      'store.store_id store_id',
      'store.name name',
      'stock.store_id stock_store_id',
      'stock.item item',
      'stock.name stock_name',
    ]);
  });

  it("leaves out a child's linking columns that are not part of its key (its parent fills them)", () => {
    const nested = planResources(schemaOf(language, film)).resources.find((r) => r.name === 'LanguageFilmsByLanguage');
    expect(nested?.fields.map((f) => f.label)).toEqual([
      'language_id',
      'name',
      'film_id',
      'title',
      'original_language_id',
    ]);
  });
});
