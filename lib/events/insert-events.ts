/**
 * An INSERT of one row that adds the row's change event to the outbox itself, where the engine can (PostgreSQL: a
 * data-modifying WITH; MariaDB, with statements prepared: a compound statement that holds its own transaction): one
 * statement, atomic by itself, so an insert with events takes the one round trip, as an insert without them does. The
 * event is the one changeEvents writes for the stored row: the same text, built by SQL from the row the INSERT gives
 * back (its key, its shown fields), each value written as its column's type says (the engine's EventSql). Where that
 * cannot be exact (a shown field read as another type than its column's, a column whose type the catalog does not give,
 * a column of a type the engine's SQL cannot write exactly, a table hanging off another), there is no such INSERT and
 * the event follows in the write's transaction. Pure.
 */
import type { Statement } from '../db/database';
import { outboxTable } from '../event-tables';
import type { ResourceTable, SqlResource } from '../resource';
import { ParamList } from '../sql/param-list';
import type { EventSql, SqlShape } from '../sql-shape';
import type { Value } from '../values';
import {
  type EventOrigin,
  eventText,
  fieldsByTable,
  orderingKeyMaxCharacters,
  orderingKeyText,
  originTokens,
} from './change-events';

type StoredRow = NonNullable<ReturnType<EventSql['storedRow']>>;

/** Text pieces of an event, each static (a literal) or the SQL that writes it. */
type Piece = { readonly text: string } | { readonly sql: string };

/** What a resource's inserts with events write, but for the write's own statement and origin. */
interface InsertEventsTemplate {
  readonly table: ResourceTable;
  /** The table's name and its columns' names as SQL (what EventSql.storedRow reads the row by). */
  readonly quoted: { readonly table: string; readonly column: (name: string) => string };
  /** The columns the event reads from the stored row (each once), by their alias in the statement. */
  readonly columns: readonly string[];
  /** The SQL of the event's subject, key and after (eventText's tokens), over those aliases. */
  readonly tokens: { readonly subject: string; readonly key: Piece[]; readonly after: Piece[] };
  /** The SQL of the ordering key's array text, over those aliases. */
  readonly orderingKey: Piece[];
  readonly sql: EventSql;
  /** The statements built, by the INSERT's text. */
  readonly built: Map<string, string>;
}

/** Around each token's number in eventText's output: JSON text never holds U+0001 itself (it escapes it). */
const MARK = '\u0001';
const marker = (i: number) => `${MARK}${i}${MARK}`;

/** A resource's inserts differ by the columns they give: a few texts each; past this many, all are built again. */
const builtPerResource = 64;

const templates = new WeakMap<SqlResource, InsertEventsTemplate | null>();

/** Turns an INSERT of one row (RETURNING every column) into the statement that also adds the row's event. */
export type InsertAddingEvents = (insert: Statement, withBefore: boolean, origin: EventOrigin) => Statement;

/**
 * How `resource`'s inserts add their events themselves, or undefined where they cannot (see above); an insert that
 * gives the columns `given` may still not (MariaDB finds the stored row by a key the database generated). The
 * statement is marked `prepared`: a connection that prepares statements (DB_PREPARE) prepares it.
 */
export function insertAddingEvents(
  shape: SqlShape,
  resource: SqlResource,
): ((given: readonly string[]) => InsertAddingEvents | undefined) | undefined {
  const template = templateOf(shape, resource);
  if (!template) return undefined;
  return (given) => {
    const stored = template.sql.storedRow(template.table, given, template.quoted);
    if (!stored) return undefined;
    return (insert, withBefore, origin) => {
      const key = `${withBefore}\n${insert.text}`;
      let text = template.built.get(key);
      if (text === undefined) {
        text = buildStatement(shape, resource, template, stored, insert, withBefore);
        if (template.built.size >= builtPerResource) template.built.clear();
        template.built.set(key, text);
      }
      const o = originTokens(resource, origin);
      const values: Value[] = [o.source, o.time, o.requestId, o.caller, origin.time, origin.time, origin.newId()];
      const params = [...insert.params, ...values.map((v) => shape.toParam(v))];
      return { text, params, returning: true, prepared: true } as Statement;
    };
  };
}

/**
 * The statement for `insert`: its parameters first, then the write's origin (source, time, request id and caller as
 * JSON text, and the time in ms, twice) and the event's id. The rest of the event's text is written in it as literals.
 */
function buildStatement(
  shape: SqlShape,
  resource: SqlResource,
  template: InsertEventsTemplate,
  stored: StoredRow,
  insert: Statement,
  withBefore: boolean,
): string {
  const { table, columns, tokens, sql } = template;
  const params = new ParamList(shape, insert.params);
  // placeholders are added in the order they stand in the text (MySQL's are positional): the origin's in the event,
  // the time it was written (twice), then the event's id (one row, one event, its id given as changeEvents' are)
  const origin = ['source', 'time', 'requestId', 'caller'].map(() => ({ sql: sql.asText(params.add('')) }));
  const write = (pieces: readonly Piece[]) =>
    sql.concat(joinLiterals(pieces).map((p) => ('sql' in p ? `(${p.sql})` : sql.literal(p.text))));
  const frame = { resource: resource.name, table: table.name, verb: 'insert' as const, withBefore };
  // the event's text with a marker where each token goes, cut at the markers
  const marked = eventText(frame, {
    ...{ source: marker(0), time: marker(1), requestId: marker(2), caller: marker(3) },
    ...{ id: marker(4), subject: marker(5), key: marker(6), after: marker(7), before: 'null' },
  });
  const bySql: Piece[][] = [
    ...origin.map((o) => [o]),
    [{ sql: sql.jsonString('r.rrs_id') }],
    [{ sql: tokens.subject }],
    tokens.key,
    tokens.after,
  ];
  const event = marked.split(MARK).flatMap((part, i) => (i % 2 === 0 ? [{ text: part }] : (bySql[Number(part)] ?? [])));
  const eventSql = write(event);
  const createdAt = params.add(0);
  const nextAttemptAt = params.add(0);
  const id = params.add('');
  const read = columns.map((column, i) => `${stored.column(column)} AS c${i}`);
  // the row's values by alias, its event's id, and its ordering key's text (computed once: the key reads it thrice)
  const row = `SELECT ${sql.asText(id)} AS rrs_id, ${read.join(', ')} FROM ${stored.from}`;
  const keyed = `SELECT r.*, ${write(template.orderingKey)} AS rrs_key FROM (${row}) AS r`;
  const orderingKey = sql.orderingKey('r.rrs_key', orderingKeyMaxCharacters);
  const addEvent =
    `INSERT INTO ${outboxTable} (id, ordering_key, event, created_at, next_attempt_at) ` +
    `SELECT r.rrs_id, ${orderingKey}, ${eventSql}, ${createdAt}, ${nextAttemptAt} FROM (${keyed}) AS r`;
  return sql.statement(insert.text, addEvent);
}

/** Adjacent static pieces as one. */
function joinLiterals(pieces: readonly Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    const last = out[out.length - 1];
    if (last && 'text' in last && 'text' in piece) out[out.length - 1] = { text: last.text + piece.text };
    else out.push(piece);
  }
  return out;
}

function templateOf(shape: SqlShape, resource: SqlResource): InsertEventsTemplate | undefined {
  let template = templates.get(resource);
  if (template === undefined) {
    template = buildTemplate(shape, resource) ?? null;
    templates.set(resource, template);
  }
  return template ?? undefined;
}
function buildTemplate(shape: SqlShape, resource: SqlResource): InsertEventsTemplate | undefined {
  const sql = shape.eventSql;
  const tables = Object.values(resource.tables);
  const [table] = tables;
  const types = table?.columnTypes;
  if (!sql || !table || !types || tables.length !== 1 || table.links.length > 0) return undefined;
  const fields = fieldsByTable(resource).get(table.name) ?? new Map();
  const keyColumns = table.primaryKey.length > 0 ? table.primaryKey : [...fields.keys()];
  // exact only where every value the event writes is read as its own column's type, one this SQL writes exactly
  const exact = (column: string) => {
    const type = types[column];
    const field = fields.get(column);
    return type !== undefined && (!field || field.type === type) && sql.exact(type, field?.dbType);
  };
  if (keyColumns.length === 0 || !keyColumns.every(exact) || ![...fields.keys()].every(exact)) return undefined;
  const columns = [...new Set([...keyColumns, ...fields.keys()])];
  const alias = (column: string) => `r.c${columns.indexOf(column)}`;
  const typeOf = (column: string) => types[column] ?? 'string';
  const keyTexts = keyColumns.map((column) => sql.text(typeOf(column), alias(column)));
  const members = (pairs: readonly (readonly [string, string])[]): Piece[] => [
    { text: '{' },
    ...pairs.flatMap(([name, column], i): Piece[] => [
      { text: `${i > 0 ? ',' : ''}${JSON.stringify(name)}:` },
      { sql: sql.json(typeOf(column), alias(column)) },
    ]),
    { text: '}' },
  ];
  const arrayStart = orderingKeyText(resource.name, table.name, []).slice(0, -1);
  return {
    table,
    quoted: { table: shape.quoteTable(table), column: (name: string) => shape.quoteIdentifier(name) },
    columns,
    sql,
    built: new Map(),
    tokens: {
      subject: sql.jsonString(sql.concat(keyTexts.flatMap((t, i) => (i > 0 ? [sql.literal(','), t] : [t])))),
      key: members(keyColumns.map((column) => [column, column] as const)),
      after: members([...fields].map(([column, field]) => [field.label, column] as const)),
    },
    orderingKey: [
      { text: arrayStart },
      ...keyTexts.flatMap((t): Piece[] => [{ text: ',' }, { sql: sql.jsonString(t) }]),
      { text: ']' },
    ],
  };
}
