/**
 * The engine record: everything the service knows of one database engine, in one object per engine (its folder,
 * lib/db/engines/<engine>/, listed in engines/registry.ts), the way kysely gives each dialect a driver, a query
 * compiler, an introspector and an adapter. Whatever differs between engines is asked of the record; nothing
 * else branches on the engine. Its plain facts (label, schemes, ports, the RDS secret's engine names, and what
 * the deploy scripts need) are in the folder's engine.json, which the deploy scripts read too. Types only.
 */
import type { EngineName } from '../resource';
import type { SqlShape } from '../sql-shape';
import type { ErrorTable } from './classify-error';
import type { CatalogTable, Database, Executor, Statement } from './database';
import type { PasswordSource } from './password-source';
import type { TableName } from './schema-fingerprint';

export interface Engine {
  /** What a resource, a Database and the logs call it: `postgres`, `mysql`. */
  readonly name: EngineName;
  /** How a sentence names it: `PostgreSQL`. */
  readonly label: string;
  /** Where it stands in a list of the engines (messages that name every engine). */
  readonly listOrder: number;
  /** The URL schemes of its databases, without the colon; the first is how the service writes one. */
  readonly schemes: readonly string[];
  /** The port of a URL of its that names none. */
  readonly defaultPort: number;
  /** The `engine` of an RDS secret (Secrets Manager) that names it: `postgres`, `aurora-postgresql`. */
  readonly secretEngines: readonly string[];
  /**
   * Its driver, loaded when its first database is opened; undefined in a bundle packaged for another engine
   * (registry.ts says how the other drivers stay out of such a bundle).
   */
  driver(): Promise<Connect> | undefined;
  /** Its driver's error codes, and what its constraint errors say. */
  readonly errors: ErrorTable;
  /** Every shape of SQL it writes its own way. */
  readonly sql: SqlShape;
  /** Where quoted texts and comments start and end in its SQL (for claim placeholders). */
  readonly lexer: SqlLexer;
  /** The statement that reads the shape of `tables` for a catalog snapshot's fingerprint. */
  fingerprint(tables: readonly TableName[]): Statement;
  /**
   * The database part of its URLs is the schema its unqualified table names live in (MySQL), so a catalog
   * snapshot serves only a database of the same name; otherwise the schema is inside the database (PostgreSQL).
   */
  readonly databaseIsSchema: boolean;
  /**
   * Every table of `schema` (undefined: the connection's own, PostgreSQL's current schema or MySQL's database) with
   * its columns, keys and comments: what `npm run generate` writes definitions from. Views are left out.
   */
  describeSchema(db: Executor, schema?: string): Promise<DescribedSchema>;
  /** How a definition's `<table name>` names `table` (of `schema` when given, else of the connection's own). */
  tableReference(table: string, schema?: string): string;
}

/** A schema's tables as `npm run generate` reads them. */
export interface DescribedSchema {
  /** Its name (MySQL: the database). */
  readonly schema: string;
  /** Whether it is the connection's own, where a definition's unqualified table names find its tables. */
  readonly own: boolean;
  /** Sorted by name. */
  readonly tables: readonly DescribedTable[];
}

/** A table as the catalog describes it, with the comments the database holds on it and its columns. */
export interface DescribedTable extends CatalogTable {
  readonly comment?: string;
  /** Column name → its comment, for the columns that have one. */
  readonly columnComments: Readonly<Record<string, string>>;
}

/** Opens a client of a driver: a pool for `url`, its password from `source` when one is given. */
export type Connect = (url: string, options: ConnectOptions, source?: PasswordSource) => Database;

export interface ConnectOptions {
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
  readonly poolSize: number;
  readonly idleTimeoutS: number;
  /**
   * Named prepared statements, each parsed and planned once per connection; DB_PREPARE. They pin an RDS Proxy
   * connection, so not on Lambda. MySQL binds values on the client, and prepares only the statements marked
   * `prepared` (an insert's that adds its change event itself).
   */
  readonly prepare?: boolean;
}

/** A quoted text that opens at some index: its opening delimiter, and where it closes (-1: never). */
export interface Quoted {
  readonly open: string;
  readonly close: number;
  /** The index after the quoted text (the query's length when it never closes). */
  readonly end: number;
}

/** The lexical rules of an engine's SQL that claim placeholders need, without parsing it. */
export interface SqlLexer {
  /** The quoted text (a string, a quoted name, a dollar-quoted text) that starts at `i`, or undefined. */
  quotedAt(query: string, i: number): Quoted | undefined;
  /** Past the comment that starts at `i`, or undefined when none does. */
  commentEnd(query: string, i: number): number | undefined;
}
