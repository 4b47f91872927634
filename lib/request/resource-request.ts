/**
 * What a client asked for, after parsing and before the resource is known: labels and values are still the raw
 * text the client sent. Types only.
 */

import type { OutputType } from '../values';

/** The comparison a query value selects (D6). */
/** One `name=value` pair of a query string, decoded and classified by the D6 grammar. */
export type RawFilter =
  | { readonly name: string; readonly op: 'null' | 'notnull' }
  | { readonly name: string; readonly op: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'like'; readonly value: string }
  | { readonly name: string; readonly op: 'in'; readonly values: readonly string[] };

/** A parsed query string: ordinary filters plus the special `_limit`, `_offset`, `_output` parameters. */
export interface ParsedQuery {
  readonly filters: readonly RawFilter[];
  readonly limit?: number;
  readonly offset?: number;
  readonly output?: OutputType;
}

/** A value as a body gives it: XML and form give strings; JSON may give numbers, booleans and null. */
export type RawValue = string | number | boolean | null;

/** A row of a request body: its attributes, and for hierarchical resources its nested child rows. */
export interface BodyRow {
  readonly values: Readonly<Record<string, RawValue>>;
  readonly children?: readonly BodyRow[];
}

export type BodyType = 'xml' | 'json' | 'form';

export type Operation = 'read' | 'insert' | 'update' | 'delete';
