/**
 * What `npm run generate` plans before writing any XML: one GeneratedResource per definition file, its tables in
 * the order of the query's FROM clause (the Parent first) with the link each later one joins by, and its fields.
 * Types only.
 */
import type { CatalogForeignKey } from '../db/database';
import type { DescribedTable } from '../db/engine';
import type { TableRole } from '../resource';

export type GeneratedKind = 'flat' | 'one-to-many' | 'many-to-many';

export interface GeneratedTable {
  readonly table: DescribedTable;
  readonly role: TableRole;
  /** The row and collection names, on the Parent and the Child. */
  readonly names?: { readonly row: string; readonly rows: string };
  /** How it joins the tables before it: the foreign key, and whether the key is its own (else the other table's). */
  readonly link?: { readonly key: CatalogForeignKey; readonly owner: DescribedTable };
}

export interface GeneratedField {
  readonly table: DescribedTable;
  readonly column: string;
  readonly label: string;
}

export interface GeneratedResource {
  readonly name: string;
  readonly kind: GeneratedKind;
  /** The sentences of its documentation that say what it is; the table's comments come first. */
  readonly about: string;
  readonly tables: readonly GeneratedTable[];
  readonly fields: readonly GeneratedField[];
  /** A table without a primary key: meant to be read only. */
  readonly readOnly: boolean;
}
