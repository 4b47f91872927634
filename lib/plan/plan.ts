/**
 * The engine-free plan of one request: what to read, or which rows to write in one transaction. Labels on the
 * read side, table columns on the write side; every value already converted to its field's type. Types only.
 */
import type { Value } from '../values';
import type { VersionCheck } from './plan-preconditions';

export type TypedFilter =
  | { readonly label: string; readonly op: 'null' | 'notnull' }
  | { readonly label: string; readonly op: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge'; readonly value: Value }
  /** `text`: the field is not a string type, so it is compared as text. */
  | { readonly label: string; readonly op: 'like'; readonly value: string; readonly text: boolean }
  | { readonly label: string; readonly op: 'in'; readonly values: readonly Value[] };

/** The verified token's claims of the caller, as the token holds them ({} without sign-in). */
export type Claims = Readonly<Record<string, unknown>>;

/**
 * The resource's query as one caller sees it: the text between its claim placeholders, and the caller's claim
 * values that stand in them as parameters. `parts` has one more member than `values`.
 */
export interface CallerQuery {
  readonly parts: readonly string[];
  readonly values: readonly Value[];
}

/** One term of a read's order that the caller asked for (`_order`). */
export interface OrderTerm {
  readonly label: string;
  readonly descending: boolean;
}

/** Where keyset paging continues: the values of a row in a read's order, one per term. */
export interface Keyset {
  readonly values: readonly Value[];
  /** Labels whose values are never NULL (the Parent's key), so that no NULL test keeps an index from being used. */
  readonly neverNull: readonly string[];
}

/** A read of the resource's query: filters ANDed, ordered, paged. */
export interface SelectSpec {
  /** Labels to return; all when absent. */
  readonly columns?: readonly string[];
  readonly distinct?: boolean;
  /**
   * With `columns`: one row per distinct combination of their values, with how many rows hold it. Without: one row,
   * how many rows pass the filters (a read's total, `Prefer: count=exact`).
   */
  readonly count?: boolean;
  readonly filters: readonly TypedFilter[];
  /** Only the rows whose `labels` equal one of `keys` (which rows of a write the caller's query shows). */
  readonly keys?: { readonly labels: readonly string[]; readonly keys: readonly (readonly Value[])[] };
  /**
   * A label: ascending, as the database orders (a key, the order a resource has without `_order`). A term: asked for
   * by `_order`, in its direction, NULL below every value on every engine.
   */
  readonly orderBy: readonly (string | OrderTerm)[];
  /** `_after`: only the rows after the row that had these values of `orderBy`'s fields, in that order. */
  readonly after?: Keyset;
  readonly limit?: number;
  readonly offset?: number;
  /**
   * Inside a write's transaction: read the rows as committed now, not as a snapshot taken earlier in the
   * transaction, so a check made after rows were locked sees what the write will change.
   */
  readonly current?: boolean;
}

/** Column → value of one table row. */
export type ColumnValues = Readonly<Record<string, Value>>;

/** Values for one extension table, keyed by its declared name. */
export interface ExtensionValues {
  readonly table: string;
  readonly values: ColumnValues;
}

/** The Parent's primary-key values, in key order. */
export type Key = readonly Value[];

/**
 * How the Parent rows that a filter matched are found in the Parent table. `where`: the query shows every row of
 * its one table, so the filter itself, on the table's columns, is the WHERE of one UPDATE or DELETE. `key`: by the
 * key the query selects. `values`: the query selects no key, so by the values of every field it selects from the
 * Parent table, turned into the table's keys.
 */
export type RowMatch =
  | { readonly by: 'where' }
  | { readonly by: 'key' }
  | { readonly by: 'values'; readonly labels: readonly string[]; readonly columns: readonly string[] };

/** Which parent rows a write addresses: listed keys, or the rows a filter matches (an update or delete by query filters). */
export type Target =
  | { readonly kind: 'keys'; readonly keys: readonly Key[] }
  | { readonly kind: 'filter'; readonly filters: readonly TypedFilter[]; readonly match: RowMatch };

/** A child row of a hierarchical write: Child columns, ChildExtension rows, Join columns, and its key if given. */
export interface ChildRow {
  readonly child: ColumnValues;
  readonly extensions: readonly ExtensionValues[];
  /** Columns of the Join table (many-to-many association attributes). */
  readonly join: ColumnValues;
  readonly key?: Key;
}

export interface InsertRow {
  readonly parent: ColumnValues;
  readonly extensions: readonly ExtensionValues[];
  /** The Parent key when the row gives all of it. */
  readonly key?: Key;
  /** Children inserted under the parent in the path: it must exist and is never inserted. */
  readonly existing?: boolean;
  /** Absent: a parent row alone. Present: the children to create (1:n) or associate (m:n) under it. */
  readonly children?: readonly ChildRow[];
}

export interface UpdateRows {
  readonly target: Target;
  readonly parent: ColumnValues;
  readonly extensions: readonly ExtensionValues[];
}

/** Child rows addressed under one parent: nested in body rows, or the whole body under the parent in the path. */
export interface ChildChanges {
  readonly parentKey: Key;
  /** The parent is named by the path: a parent that does not exist is a 404. */
  readonly mustExist: boolean;
  readonly children: readonly ChildRow[];
}

/** What a read runs: the resource's query, filtered, ordered and paged. */
export interface ReadPlan {
  readonly kind: 'read';
  readonly select: SelectSpec;
  /**
   * Set when the read has no `_limit`: the most rows it may return. The select asks for one more, and a read that
   * gets it has more than the cap to return (a 413 that says how to page).
   */
  readonly rowCap?: number;
  /**
   * Set for a flat read by the full key in the path: one row, or the few of a query that repeats its key, so it is
   * read in one round trip rather than a batch at a time.
   */
  readonly byKey?: true;
  /** `Prefer: count=exact`: the read also counts the rows that pass its filters (before `_after` and paging). */
  readonly total?: true;
  /** Set when the resource's query uses claims: the query for this caller, run instead of the resource's. */
  readonly query?: CallerQuery;
}

/**
 * The writes of one request, run in one transaction. `query` is set when the resource's query uses claims: the
 * query for this caller, which every row the request touches must stay visible through.
 */
export type WritePlan = (
  | { readonly kind: 'insert'; readonly rows: readonly InsertRow[] }
  | { readonly kind: 'update'; readonly updates: readonly UpdateRows[]; readonly children: readonly ChildChanges[] }
  | { readonly kind: 'delete'; readonly target: Target; readonly children: readonly ChildChanges[] }
) & { readonly query?: CallerQuery; readonly versions?: VersionCheck };
