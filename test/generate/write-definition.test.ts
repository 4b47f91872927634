/**
 * Table tests of what the generator writes: names (resource, row, collection, field, SQL), whole definition files
 * for each engine's quoting and for a schema other than the connection's own, the privileges stub (which grants
 * nothing until its rules are uncommented), and the choice of tables. Pure.
 */
import { parsePrivileges } from '../../lib/auth/parse-privileges';
import { generateDefinitions, selectTables } from '../../lib/generate/generate-definitions';
import { fieldLabel, pascalName, plural, snakeName } from '../../lib/generate/generated-names';
import { planResources } from '../../lib/generate/plan-resources';
import { sqlName } from '../../lib/generate/sql-names';
import { type SqlNaming, writeDefinition } from '../../lib/generate/write-definition';
import { schemaOf, table } from './described';

const doubleQuotes = (name: string) => `"${name}"`;
const backQuotes = (name: string) => `\`${name}\``;

describe('names', () => {
  it.each([
    ['film_actor', 'FilmActor', 'film_actor', 'film_actors'],
    ['FilmActor', 'FilmActor', 'film_actor', 'film_actors'],
    ['Order Line', 'OrderLine', 'order_line', 'order_lines'],
    ['category', 'Category', 'category', 'categories'],
    ['address', 'Address', 'address', 'addresses'],
    ['day', 'Day', 'day', 'days'],
    ['crème-brûlée', 'CremeBrulee', 'creme_brulee', 'creme_brulees'],
    ['2024_sales', '2024Sales', '_2024_sales', '_2024_saleses'],
    ['書籍', 'Table', 'item', 'items'],
  ])('table %s: resource %s, row %s, collection %s', (name, resource, row, rows) => {
    expect([pascalName(name), snakeName(name), plural(snakeName(name))]).toEqual([resource, row, rows]);
  });

  it.each([
    ['title', 'title'],
    ['Balance', 'Balance'],
    ['Card Code', 'card_code'],
    ['e-mail', 'e_mail'],
    ['1st', '_1st'],
  ])('column %s: field %s', (column, label) => {
    expect(fieldLabel(column)).toBe(label);
  });

  it.each([
    ['title', 'title'],
    ['order', '"order"'],
    ['user', '"user"'],
    ['Balance', '"Balance"'],
    ['Card Code', '"Card Code"'],
  ])('%s in a query: %s', (name, written) => {
    expect(sqlName(name, doubleQuotes)).toBe(written);
  });
});

const film = table('film', 'film_id*+, title, language_id', {
  fks: [['language_id', 'language']],
  comment: 'Films & their details',
  columnComments: { title: 'The <title>' },
});
const actor = table('actor', 'actor_id*+, title?');
const filmActor = table('film_actor', 'actor_id*, film_id*', {
  fks: [
    ['actor_id', 'actor'],
    ['film_id', 'film'],
  ],
});

function definition(name: string, naming: SqlNaming): string {
  const resource = planResources(schemaOf(film, actor, filmActor)).resources.find((r) => r.name === name);
  if (!resource) throw new Error(`no resource ${name}`);
  return writeDefinition(resource, naming);
}

describe('writeDefinition', () => {
  it('writes a many-to-many resource with its Join table, comments as documentation, no ORDER BY or LIMIT', () => {
    expect(definition('FilmActors', { quote: doubleQuotes, reference: (t) => t })).toBe(
      `<?xml version="1.0" encoding="UTF-8"?>
<rs:sqlResource xmlns:rs="http://restsql.org/schema">
  <documentation>
    film: Films &amp; their details
    Each film with its actors (hierarchical, many-to-many through film_actor). Adding an actor to a film links
    an existing actor by its key (actor_id); deleting removes the link, never the actor.
    title: The &lt;title&gt;
  </documentation>
  <query>
    select film.film_id, film.title, film.language_id, actor.actor_id, actor.title as actor_title
    from film
    left join film_actor on film_actor.film_id = film.film_id
    left join actor on film_actor.actor_id = actor.actor_id
  </query>
  <metadata>
    <table name="film" role="Parent" rowAlias="film" rowSetAlias="films"/>
    <table name="film_actor" role="Join"/>
    <table name="actor" role="Child" rowAlias="actor" rowSetAlias="actors"/>
  </metadata>
</rs:sqlResource>
`,
    );
  });

  it('quotes names that need it, the engine’s way, and qualifies tables of another schema', () => {
    const card = table('Gift Card', 'Card Code*, Balance');
    const [resource] = planResources(schemaOf(card)).resources;
    if (!resource) throw new Error('no resource');
    const query = (naming: SqlNaming) => writeDefinition(resource, naming).split('\n').slice(6, 12).join('\n');
    expect(query({ quote: doubleQuotes, reference: (t) => `shop."${t}"`, schema: 'shop' })).toBe(
      `  <query>
    select "Gift Card"."Card Code" as card_code, "Gift Card"."Balance"
    from shop."Gift Card"
  </query>
  <metadata>
    <table name='shop."Gift Card"' role="Parent" rowAlias="gift_card" rowSetAlias="gift_cards"/>`,
    );
    expect(query({ quote: backQuotes, reference: (t) => t })).toBe(
      `  <query>
    select \`Gift Card\`.\`Card Code\` as card_code, \`Gift Card\`.\`Balance\`
    from \`Gift Card\`
  </query>
  <metadata>
    <table name="Gift Card" role="Parent" rowAlias="gift_card" rowSetAlias="gift_cards"/>`,
    );
  });
});

describe('generateDefinitions', () => {
  const naming = { quote: doubleQuotes, reference: (t: string) => t };

  it('writes one file per resource and a privileges stub that grants nothing until uncommented', () => {
    const visit = table('visit', 'at');
    const { files } = generateDefinitions(schemaOf(film, actor, filmActor, visit), naming);
    expect(files.map((f) => f.path)).toEqual([
      'Film.xml',
      'Actor.xml',
      'FilmActor.xml',
      'Visit.xml',
      'ActorFilms.xml',
      'FilmActors.xml',
      'privileges.properties',
    ]);
    const stub = files.find((f) => f.path === 'privileges.properties')?.text ?? '';
    expect(parsePrivileges(stub, 'stub').rules).toEqual([]);
    const uncommented = stub.replace(/^#(?=\w)/gm, '');
    const rules = parsePrivileges(uncommented, 'uncommented').rules.map((r) => `${r.resource}.${r.privilege}`);
    expect(rules).toEqual([
      'Film.select',
      'Film.*',
      'Actor.select',
      'Actor.*',
      'FilmActor.select',
      'FilmActor.*',
      'Visit.select',
      'ActorFilms.select',
      'ActorFilms.*',
      'FilmActors.select',
      'FilmActors.*',
    ]);
  });

  it('takes the tables --tables names, in any case when that names one table, and refuses unknown ones', () => {
    const schema = schemaOf(film, actor, filmActor);
    expect(selectTables(schema, ['ACTOR', 'film']).tables.map((t) => t.table)).toEqual(['film', 'actor']);
    expect(() => selectTables(schema, ['actor', 'nope'])).toThrow(
      'No table nope in schema public (its tables: film, actor, film_actor)',
    );
  });
});
