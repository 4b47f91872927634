/**
 * The sentences of a generated resource's documentation that say what it is, by kind: what a row is, its key,
 * and what its writes do, in the words of the service's own documentation. Pure.
 */
import type { CatalogForeignKey } from '../db/database';
import type { DescribedTable } from '../db/engine';
import { plural, snakeName } from './generated-names';

const list = (items: readonly string[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

const rowsOf = (table: DescribedTable) => plural(snakeName(table.table));

/** `a book`, `an author`. */
const one = (word: string) => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
const One = (word: string) => one(word).replace(/^a/, 'A');

/** What the key of a flat resource is, and what its path looks like. */
function keySentence(table: DescribedTable, labels: readonly string[], name: string): string {
  if (labels.length === 0) {
    return (
      'Read only: the table has no primary key, so no row can be addressed by key (writes would go by filter ' +
      'only, and npm run validate warns about that). Grant it select only in the privileges file.'
    );
  }
  const column = table.columns.find((c) => c.name === table.primaryKey[0]);
  const generated = labels.length === 1 && column?.generated ? ' (generated when omitted on insert)' : '';
  const order = labels.length > 1 ? ', in that order' : '';
  return `The key is ${list(labels)}${generated}${order}: GET /res/${name}/${labels.map((l) => `{${l}}`).join('/')}.`;
}

/** `keyLabels`: the labels of the table's primary key columns, in the key's order. */
export function aboutFlat(table: DescribedTable, keyLabels: readonly string[], name: string): string {
  const key = keySentence(table, keyLabels, name);
  return `Rows of the table ${table.table}, one per ${snakeName(table.table)} (flat). ${key}`;
}

export function aboutExtension(parent: DescribedTable, extension: DescribedTable): string {
  return (
    `Rows of the table ${parent.table} with the fields of ${extension.table}, which shares its key (flat, extended ` +
    `one-to-one). ${One(snakeName(parent.table))} without ${one(extension.table)} row comes back without those fields; ` +
    `writing one of them creates or updates that row, and deleting ${one(snakeName(parent.table))} deletes it.`
  );
}

export function aboutOneToMany(parent: DescribedTable, child: DescribedTable, key: CatalogForeignKey): string {
  return (
    `Each ${snakeName(parent.table)} with its ${rowsOf(child)} (hierarchical, one-to-many: ` +
    `${child.table} (${key.columns.join(', ')}) refers to ${parent.table}). The key is the ${snakeName(parent.table)}'s. ` +
    `Deleting ${one(snakeName(parent.table))} here deletes its ${rowsOf(child)} too.`
  );
}

export function aboutManyToMany(
  parent: DescribedTable,
  junction: DescribedTable,
  child: DescribedTable,
  childKeyLabels: readonly string[],
): string {
  const row = snakeName(child.table);
  return (
    `Each ${snakeName(parent.table)} with its ${rowsOf(child)} (hierarchical, many-to-many through ` +
    `${junction.table}). Adding ${one(row)} to ${one(snakeName(parent.table))} links an existing ${row} by its key ` +
    `(${list(childKeyLabels)}); deleting removes the link, never the ${row}.`
  );
}
