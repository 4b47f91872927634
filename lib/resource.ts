/**
 * The SqlResource model: a definition file joined with what the database catalog says about it.
 * Plain readonly data, built by lib/definitions and consumed by plan, sql and serial. No IO here.
 */

/**
 * The name of a database engine (`postgres`, `mysql`). The engine registry (lib/db/engines/registry.ts) declares
 * the names, one key of EngineNames per engine, so that adding an engine touches nothing here.
 */
export type EngineName = keyof EngineNames;

// biome-ignore lint/suspicious/noEmptyInterface: the engine registry adds a key for each engine
export interface EngineNames {}

export type ResourceKind = 'flat' | 'one-to-many' | 'many-to-many';

export type TableRole = 'Parent' | 'ParentExtension' | 'Child' | 'ChildExtension' | 'Join';

/** How a field's values are converted on the way in and written on the way out. */
export type ValueType =
  | 'integer'
  | 'decimal'
  | 'float'
  | 'boolean'
  | 'date'
  | 'time'
  | 'timestamp'
  | 'binary'
  | 'string';

/**
 * What a column holds beyond its value type, from the catalog. A value outside them would be rounded, truncated
 * or refused by the database, so the planner refuses it first. Absent members set no limit. Numbers are kept
 * as decimal text, so the model stays plain data.
 */
export interface ValueLimits {
  /** Characters of text: varchar(n), char(n). */
  readonly maxLength?: number;
  /** Bytes: MySQL's tinytext, text, mediumtext (as UTF-8), binary(n), varbinary(n) and blobs. */
  readonly maxBytes?: number;
  /** Smallest and largest number: an integer type's range; `0` for MySQL's unsigned decimals and floats. */
  readonly min?: string;
  readonly max?: string;
  /**
   * Decimal digits: a value holds when it is below 10^digitsBefore in size and has no digit after the
   * digitsAfter-th one after the decimal point (numeric(p,s): p - s and s; either may be negative on PostgreSQL).
   */
  readonly digitsBefore?: number;
  readonly digitsAfter?: number;
  /** A binary float's precision: real, float4, MySQL float; or double precision, float8, MySQL double. */
  readonly float?: 'single' | 'double';
  /** Times and timestamps: the digits of fractional seconds the column keeps (0-6). */
  readonly fractionDigits?: number;
  /** Timestamps: the earliest and latest value, `YYYY-MM-DD HH:MM:SS[.ffffff]` (MySQL's TIMESTAMP type). */
  readonly earliest?: string;
  readonly latest?: string;
}

/** One column label of the resource's query. */
export interface Field {
  readonly label: string;
  /** Key into SqlResource.tables; null for a computed expression. */
  readonly table: string | null;
  readonly column: string | null;
  readonly type: ValueType;
  /** The database's own type name, e.g. `numeric(10,2)`, `varchar(45)`, `tinyint(1)`. */
  readonly dbType: string;
  readonly primaryKey: boolean;
  /** Filled by the database on insert: serial, identity, auto_increment, sequence default. */
  readonly generated: boolean;
  /** Computed expression or generated-always column: never written, never filtered on. */
  readonly readOnly: boolean;
  readonly nullable: boolean;
  /**
   * An insert that leaves the column out stores something other than NULL (a DEFAULT, a generated or a computed
   * value). A NOT NULL field without one must be given on insert.
   */
  readonly hasDefault: boolean;
  /** What its column holds, checked on every value written and every filter; absent for computed expressions. */
  readonly limits?: ValueLimits;
}

/**
 * A unique index (or a unique or primary key constraint) as the database names it, with its columns in index
 * order: a duplicate is reported by this name, and the client is told the fields it covers.
 */
export interface UniqueKey {
  readonly name: string;
  readonly columns: readonly string[];
}

/** A foreign-key link: `columns` of this table reference `references` of the table it belongs to. */
export interface TableLink {
  readonly columns: readonly string[];
  readonly target: string;
  readonly references: readonly string[];
}

/**
 * A many-to-one lookup: the owner's `columns` reference `references` (this table's key), as `film.language_id`
 * references `language.language_id`. The looked-up row is shared by many owners, so it is never written here.
 */
export interface LookupLink {
  readonly owner: string;
  readonly columns: readonly string[];
  readonly references: readonly string[];
}

export interface ResourceTable {
  /** The name as declared in the definition (possibly qualified); the key of SqlResource.tables. */
  readonly name: string;
  /** Schema (PostgreSQL) or database (MySQL) the table lives in. */
  readonly schema: string;
  readonly table: string;
  readonly role: TableRole;
  readonly primaryKey: readonly string[];
  /** Columns filled by the database on insert. */
  readonly generatedColumns: readonly string[];
  /** Its unique indexes, the primary key's included. */
  readonly uniqueKeys: readonly UniqueKey[];
  /**
   * The value type of each of its columns, shown or not: a key or link column the query leaves out is still written
   * as what it is (a change event's key). Every resource built from a catalog has it.
   */
  readonly columnTypes?: Readonly<Record<string, ValueType>>;
  /**
   * How this table hangs off the Parent (extensions, Child, Join) or the Child (child extensions, Join): empty for
   * the Parent, a lookup, and a table whose link the catalog does not show.
   */
  readonly links: readonly TableLink[];
  /** Set for an extension that its owner looks up many-to-one: its fields are read-only through the resource. */
  readonly lookup?: LookupLink;
  /** Why a link of this table could not be found. Reads never need links; writes that do are a 400 saying this. */
  readonly unlinked?: string;
}

/** `validatedAttribute` of a definition. */
export interface ValidationRule {
  readonly name: string;
  readonly type: 'String' | 'Numeric';
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly regex?: string;
  readonly minValue?: number;
  readonly maxValue?: number;
}

/**
 * How a claim placeholder is used: `value`, a value the claim's text (or boolean) stands for; `condition`, a whole
 * condition (or one compared with TRUE or FALSE), which only a boolean claim may be; `prefix`
 * (`{{claim-prefix:NAME}}`), a LIKE pattern matching the texts that start with the claim's text.
 */
export type ClaimUse = 'value' | 'condition' | 'prefix';

export interface ClaimPlaceholder {
  readonly name: string;
  readonly use: ClaimUse;
}

/**
 * A query that shows each caller their own rows: its text split at each claim placeholder. `parts` has one more
 * member than `claims`; a caller's claim values stand between the parts as bound parameters, never as SQL text.
 */
export interface ClaimQuery {
  readonly parts: readonly string[];
  /** The placeholders in order (a claim may come more than once). */
  readonly claims: readonly ClaimPlaceholder[];
}

/** An operation that writes rows. */
export type WriteOperation = 'insert' | 'update' | 'delete';

/** `<events>` of a definition: which operations announce their committed rows, and with the row before too. */
export interface EventsSetting {
  readonly on: readonly WriteOperation[];
  readonly before: boolean;
}

export interface SqlResource {
  readonly name: string;
  readonly file: string;
  readonly kind: ResourceKind;
  readonly database: string;
  readonly engine: EngineName;
  /** The definition's SELECT as written, trimmed, without a trailing semicolon. */
  readonly query: string;
  /** Set when the query uses claims (`{{claim:NAME}}`): it is then run only as a ClaimQuery, with a caller's claims. */
  readonly claimQuery?: ClaimQuery;
  readonly rowName: string;
  readonly collectionName: string;
  /** Set for hierarchical resources. */
  readonly childRowName?: string;
  readonly childCollectionName?: string;
  /** Every declared table, keyed by its declared name. */
  readonly tables: Readonly<Record<string, ResourceTable>>;
  /** In select order. */
  readonly fields: readonly Field[];
  readonly validations: readonly ValidationRule[];
  readonly cacheControl: string;
  /** `<limits maxRows>`: the most rows one read returns, in place of MAX_ROWS. */
  readonly maxRows?: number;
  /** `<http><request ifMatch="required"/></http>`: a write by key must carry If-Match (else 428). */
  readonly ifMatchRequired?: true;
  /** `<events>`: its committed writes are announced (an outbox row per row written, in the write's transaction). */
  readonly events?: EventsSetting;
  readonly documentation?: string;
  /**
   * Set when the resource is one table whose query reads it alone, with no condition: it shows every row of the
   * table, so a write need not check which rows the query shows. Absent: writes touch only rows the query shows.
   */
  readonly showsEveryRow?: boolean;
}
