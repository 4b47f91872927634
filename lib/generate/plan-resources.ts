/**
 * From a described schema to the resources `npm run generate` writes: a flat resource per table; per foreign key
 * a one-to-many resource (the referenced table holding the rows that refer to it) or, when the key is the whole
 * primary key of its table (one-to-one), a flat resource of the referenced table extended by it; and per
 * junction table a many-to-many resource each way. What it cannot write a resource for (a table that refers to
 * itself: a resource declares each table once) becomes a note. Pure.
 */
import type { CatalogForeignKey } from '../db/database';
import type { DescribedSchema, DescribedTable } from '../db/engine';
import { claimName, fieldLabel, pascalName, plural, snakeName } from './generated-names';
import type { GeneratedField, GeneratedResource, GeneratedTable } from './generated-resource';
import { aboutExtension, aboutFlat, aboutManyToMany, aboutOneToMany } from './resource-about';

export interface PlannedResources {
  readonly resources: readonly GeneratedResource[];
  /** What was not turned into a resource, and why, and which resources are read only: a sentence each. */
  readonly notes: readonly string[];
}

interface Link {
  readonly owner: DescribedTable;
  readonly key: CatalogForeignKey;
  readonly target: DescribedTable;
}

const sameColumns = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((c) => b.includes(c));

/** The foreign keys of `owner` to tables of the schema (a key to a table outside it links nothing here). */
function linksOf(owner: DescribedTable, schema: DescribedSchema): Link[] {
  return owner.foreignKeys.flatMap((key) => {
    const target = schema.tables.find((t) => t.schema === key.refSchema && t.table === key.refTable);
    return target ? [{ owner, key, target }] : [];
  });
}

/**
 * A table that is mostly two foreign keys: exactly two, to two other tables that have primary keys, with a key of
 * its own made of their columns (so each pair is stored once), and nothing else that an insert must give.
 */
export function isJunction(table: DescribedTable, schema: DescribedSchema): boolean {
  const links = linksOf(table, schema);
  const [a, b] = links;
  if (links.length !== 2 || !a || !b || a.target === b.target) return false;
  if ([a, b].some((l) => l.target === table || l.target.primaryKey.length === 0)) return false;
  const linked = [...a.key.columns, ...b.key.columns];
  if (new Set(linked).size !== linked.length) return false;
  const keys = [table.primaryKey, ...table.uniqueKeys.map((u) => u.columns)].filter((k) => k.length > 0);
  if (!keys.some((k) => k.every((c) => linked.includes(c)))) return false;
  return table.columns
    .filter((c) => !linked.includes(c.name))
    .every((c) => c.nullable || c.hasDefault || c.generated || c.readOnly);
}

const namesOf = (table: DescribedTable) => {
  const row = snakeName(table.table);
  return { row, rows: plural(row) };
};

/**
 * The fields of `table`'s columns (but `skip`), each labelled by its column, or by `prefix`_column when a field
 * before it has that label; `labels` holds the labels taken.
 */
function fieldsOf(table: DescribedTable, labels: Set<string>, prefix?: string, skip: readonly string[] = []) {
  return table.columns
    .filter((c) => !skip.includes(c.name))
    .map((c): GeneratedField => {
      const own = fieldLabel(c.name);
      const label = prefix && labels.has(own.toLowerCase()) ? `${prefix}_${own}` : own;
      return { table, column: c.name, label: claimName(labels, label) };
    });
}

/** The labels of `table`'s primary key among `fields`, in the key's order. */
const keyLabels = (table: DescribedTable, fields: readonly GeneratedField[]) =>
  table.primaryKey.map((c) => fields.find((f) => f.table === table && f.column === c)?.label ?? c);

function flatResource(table: DescribedTable, name: string, remarks: readonly string[]): GeneratedResource {
  const fields = fieldsOf(table, new Set());
  return {
    name,
    kind: 'flat',
    about: [aboutFlat(table, keyLabels(table, fields), name), ...remarks].join(' '),
    tables: [{ table, role: 'Parent', names: namesOf(table) }],
    fields,
    readOnly: table.primaryKey.length === 0,
  };
}

/** The referenced table, extended one-to-one by the table whose whole primary key refers to it. */
function extensionResource({ owner, key, target }: Link, name: string): GeneratedResource {
  const labels = new Set<string>();
  const fields = [...fieldsOf(target, labels), ...fieldsOf(owner, labels, snakeName(owner.table), key.columns)];
  const tables: GeneratedTable[] = [
    { table: target, role: 'Parent', names: namesOf(target) },
    { table: owner, role: 'ParentExtension', link: { key, owner } },
  ];
  return { name, kind: 'flat', about: aboutExtension(target, owner), tables, fields, readOnly: false };
}

/**
 * The referenced table holding the rows that refer to it. The child's linking columns are filled from its parent,
 * so they are fields only where they are part of the child's key, which its rows are written by.
 */
function oneToManyResource({ owner, key, target }: Link, name: string): GeneratedResource {
  const labels = new Set<string>();
  const skip = key.columns.filter((c) => !owner.primaryKey.includes(c));
  const fields = [...fieldsOf(target, labels), ...fieldsOf(owner, labels, snakeName(owner.table), skip)];
  const tables: GeneratedTable[] = [
    { table: target, role: 'Parent', names: namesOf(target) },
    { table: owner, role: 'Child', names: namesOf(owner), link: { key, owner } },
  ];
  return { name, kind: 'one-to-many', about: aboutOneToMany(target, owner, key), tables, fields, readOnly: false };
}

/** `from` holding the rows of `to` that the junction links to it. */
function manyToManyResource(junction: DescribedTable, from: Link, to: Link, name: string): GeneratedResource {
  const labels = new Set<string>();
  const fields = [...fieldsOf(from.target, labels), ...fieldsOf(to.target, labels, snakeName(to.target.table))];
  const tables: GeneratedTable[] = [
    { table: from.target, role: 'Parent', names: namesOf(from.target) },
    { table: junction, role: 'Join', link: { key: from.key, owner: junction } },
    { table: to.target, role: 'Child', names: namesOf(to.target), link: { key: to.key, owner: junction } },
  ];
  const about = aboutManyToMany(from.target, junction, to.target, keyLabels(to.target, fields));
  return { name, kind: 'many-to-many', about, tables, fields, readOnly: false };
}

/** Every resource of `schema`, named uniquely: the flat ones first, then those of each table's links. */
export function planResources(schema: DescribedSchema): PlannedResources {
  const taken = new Set<string>();
  const notes: string[] = [];
  const remarks = new Map<DescribedTable, string[]>();
  const remark = (table: DescribedTable, text: string) => remarks.set(table, [...(remarks.get(table) ?? []), text]);
  const linked: (() => GeneratedResource)[] = [];
  for (const table of schema.tables) {
    if (isJunction(table, schema)) linked.push(...junctionResources(table, schema, taken));
    else linked.push(...linkResources(table, schema, taken, { notes, remark }));
  }
  const flat = schema.tables.map((t) => flatResource(t, claimName(taken, pascalName(t.table)), remarks.get(t) ?? []));
  const readOnly = flat.flatMap((r) =>
    r.readOnly ? [`${r.name} is read only: table ${r.tables[0]?.table.table} has no primary key`] : [],
  );
  return { resources: [...flat, ...linked.map((build) => build())], notes: [...readOnly, ...notes] };
}

interface Remarks {
  readonly notes: string[];
  remark(table: DescribedTable, text: string): void;
}

/** `original_language_id` → `OriginalLanguage`: what a key's columns say about the link. */
const roleOf = (columns: readonly string[]) => columns.map((c) => pascalName(c.replace(/_?id$/i, '') || c)).join('');

/** The resources of `owner`'s foreign keys, each named when built (after the flat resources took their names). */
function linkResources(owner: DescribedTable, schema: DescribedSchema, taken: Set<string>, said: Remarks) {
  const links = linksOf(owner, schema);
  return links.flatMap((link): (() => GeneratedResource)[] => {
    const { key, target } = link;
    const where = `No resource for the foreign key ${owner.table}.${key.columns.join(', ')} (to ${target.table})`;
    if (target === owner) {
      said.remark(owner, selfReference(key.columns));
      said.notes.push(`${where}: the table refers to itself, and a resource declares each table once`);
      return [];
    }
    const keyless = [owner, target].find((t) => t.primaryKey.length === 0);
    if (keyless) {
      said.notes.push(`${where}: ${keyless.table} has no primary key, so its rows cannot be nested`);
      return [];
    }
    // book_detail extends book: BookWithDetail; film_rate belongs to film: FilmRates
    const prefix = `${target.table}_`;
    const rest = owner.table.startsWith(prefix) ? owner.table.slice(prefix.length) : owner.table;
    if (sameColumns(key.columns, owner.primaryKey)) {
      const name = `${pascalName(target.table)}With${pascalName(rest)}`;
      return [() => extensionResource(link, claimName(taken, name))];
    }
    const several = links.filter((l) => l.target === target).length > 1;
    const role = several ? `By${roleOf(key.columns)}` : '';
    const name = `${pascalName(target.table)}${pascalName(plural(snakeName(rest)))}${role}`;
    return [() => oneToManyResource(link, claimName(taken, name))];
  });
}

function selfReference(columns: readonly string[]): string {
  const labels = columns.map(fieldLabel).join(', ');
  return `${labels} refers to this table itself; a resource declares each table once, so no resource nests these rows under the row they refer to: filter by ${labels} instead.`;
}

/** The two many-to-many resources of a junction table, one each way, named when built. */
function junctionResources(junction: DescribedTable, schema: DescribedSchema, taken: Set<string>) {
  const [a, b] = linksOf(junction, schema) as [Link, Link];
  const pair = [a.target, b.target];
  const twins = schema.tables.filter(
    (t) => isJunction(t, schema) && linksOf(t, schema).every((l) => pair.includes(l.target)),
  );
  const via = twins.length > 1 ? `Via${pascalName(junction.table)}` : '';
  const named = (from: Link, to: Link) =>
    claimName(taken, `${pascalName(from.target.table)}${pascalName(plural(snakeName(to.target.table)))}${via}`);
  return [() => manyToManyResource(junction, a, b, named(a, b)), () => manyToManyResource(junction, b, a, named(b, a))];
}
