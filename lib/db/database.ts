/**
 * The database boundary: what the rest of the service may ask of a database, whatever the driver. Types only.
 */
import type { EngineName, UniqueKey, ValueLimits, ValueType } from '../resource';
import type { Row, Value } from '../values';

/** What a database runs: one SQL text with its parameters (lib/sql compiles them; a driver binds them). */
export interface Statement {
  readonly text: string;
  readonly params: readonly Value[];
  /**
   * Prepared where the connection prepares statements (DB_PREPARE), on MySQL too, where the others are bound on the
   * client: its answer reads the same either way (lib/events/insert-events' statement).
   */
  readonly prepared?: boolean;
}

export type { Row } from '../values';

export interface QueryResult {
  readonly rows: readonly Row[];
  /** Rows matched by an UPDATE/DELETE (found, not just changed), or inserted. */
  readonly rowsAffected: number;
  /** MySQL: the AUTO_INCREMENT value of the first inserted row, as decimal text. */
  readonly insertId?: string;
}

/** Runs statements; inside a transaction when it is the `tx` of Database.transaction. */
export interface Executor {
  run(statement: Statement): Promise<QueryResult>;
  /**
   * INSERT ... RETURNING works where this runs, as the server said, on an engine where that depends on the server
   * (MySQL: MariaDB 10.5+ has it). Absent where the engine's SQL shape says it for every server.
   */
  readonly insertsReturn?: boolean;
  /**
   * In a transaction: runs `statement` as its last, sent with the COMMIT in the same round trip where the engine
   * makes that safe (PostgreSQL: a statement that fails aborts the transaction, so the COMMIT rolls it back; MariaDB:
   * both in one compound statement, which stops before the COMMIT), and the transaction throws the statement's error.
   * Absent elsewhere (MySQL): run the statement with `run` before the end.
   */
  readonly runWithCommit?: (statement: Statement) => void;
}

/** One column of a table as the catalog describes it. */
export interface CatalogColumn {
  readonly name: string;
  readonly dbType: string;
  readonly type: ValueType;
  readonly nullable: boolean;
  /** Filled by the database on insert (serial, identity, auto_increment, sequence default). */
  readonly generated: boolean;
  /** A generated-always (computed) column: never written. */
  readonly readOnly: boolean;
  /**
   * An insert that leaves the column out stores something other than NULL: a DEFAULT (its own or its domain's), a
   * generated value, or a computed one. A NOT NULL column without one must be given on insert.
   */
  readonly hasDefault: boolean;
  /** What the column holds beyond its value type (length, range, digits); absent when nothing limits it. */
  readonly limits?: ValueLimits;
}

export interface CatalogForeignKey {
  readonly columns: readonly string[];
  readonly refSchema: string;
  readonly refTable: string;
  readonly refColumns: readonly string[];
}

export interface CatalogTable {
  readonly schema: string;
  readonly table: string;
  readonly columns: readonly CatalogColumn[];
  readonly primaryKey: readonly string[];
  readonly foreignKeys: readonly CatalogForeignKey[];
  /** Every unique index on plain columns, the primary key's included: how a duplicate's index names its columns. */
  readonly uniqueKeys: readonly UniqueKey[];
}

/** One output column of a definition's query and where it comes from (null table: a computed expression). */
export interface QueryColumn {
  readonly label: string;
  readonly schema: string | null;
  readonly table: string | null;
  readonly column: string | null;
  readonly dbType: string;
  readonly type: ValueType;
}

/** What the catalog says about a definition: its query's columns and its declared tables (null: not found). */
export interface QueryCatalog {
  readonly columns: readonly QueryColumn[];
  readonly tables: Readonly<Record<string, CatalogTable | null>>;
}

export interface Database extends Executor {
  readonly engine: EngineName;
  /**
   * The rows of one SELECT, handed to `each` a batch of at most `batchRows` at a time as they arrive, so that no
   * more than a batch is held here. When `each` throws, reading stops at once (the rows not yet sent are never
   * fetched; on MySQL, whose protocol cannot stop a result, the connection is closed) and the error is thrown.
   */
  readEach(statement: Statement, batchRows: number, each: (rows: readonly Row[]) => void): Promise<void>;
  /** Runs `fn` in one transaction: commit when it resolves, roll back when it throws. */
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
  /** Discovers the columns of `query` and the declared tables. */
  describe(query: string, tableNames: readonly string[]): Promise<QueryCatalog>;
  close(): Promise<void>;
}
