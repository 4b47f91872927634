/**
 * The change events of a committed write: one CloudEvents 1.0 event (JSON) per row it inserted, updated or deleted,
 * children and association rows included. An event carries the row's key, its parent's key (rows of every table but
 * the Parent), the row after the change (and before it, when the definition asks), in the resource's field labels
 * and the JSON representation's values, and the request id and caller subject. Besides the keys, only the fields
 * the resource shows are carried: no other column its query leaves out leaves the database in an event. Pure: the id and the time are
 * given.
 */
import { createHash } from 'node:crypto';
import type { RowChange } from '../execute/change-log';
import type { Field, ResourceTable, SqlResource } from '../resource';
import { valueJson } from '../serial/format-value';
import type { Row, Value } from '../values';

/** Where and for whom the events are written. */
export interface EventOrigin {
  /** The CloudEvents source of the service; the resource's path is added to it. */
  readonly source: string;
  readonly requestId?: string;
  /** The caller's `sub` claim; absent without sign-in. */
  readonly caller?: string;
  /** The write's time, as milliseconds since the epoch. */
  readonly time: number;
  readonly newId: () => string;
}

/** One event as the outbox holds it. */
export interface OutboxEvent {
  readonly id: string;
  /** Events of the same key are published in the order they were written. */
  readonly orderingKey: string;
  /** The CloudEvent, as JSON text. */
  readonly event: string;
  readonly createdAt: number;
}

const pastTense = { insert: 'inserted', update: 'updated', delete: 'deleted' } as const;

/** What the events of a resource's writes of one operation on one table have in common. */
export interface EventFrame {
  readonly resource: string;
  readonly table: string;
  readonly verb: RowChange['verb'];
  readonly withBefore: boolean;
}

/**
 * The parts of an event that vary by write (its origin) or by row, each as JSON text (`parent` as the member it is,
 * when there is one).
 */
export interface EventTokens {
  readonly id: string;
  readonly source: string;
  readonly time: string;
  readonly requestId: string;
  readonly caller: string;
  readonly subject: string;
  readonly key: string;
  readonly parent?: string;
  readonly after: string;
  readonly before: string;
}

/**
 * An event's text. A write whose rows are in hand gives their tokens here (changeEvents); an INSERT that adds its own
 * events gives SQL's (insert-events), so both write the same text.
 */
export function eventText(frame: EventFrame, tokens: EventTokens): string {
  const parent = tokens.parent === undefined ? '' : `,${tokens.parent}`;
  const before = frame.withBefore ? `,"before":${tokens.before}` : '';
  const type = JSON.stringify(`${frame.resource}.${pastTense[frame.verb]}`);
  return (
    `{"specversion":"1.0","id":${tokens.id},"source":${tokens.source},"type":${type},"subject":${tokens.subject},` +
    `"time":${tokens.time},"datacontenttype":"application/json","data":{"resource":${JSON.stringify(frame.resource)},` +
    `"table":${JSON.stringify(frame.table)},"key":${tokens.key}${parent},"after":${tokens.after}${before},` +
    `"requestId":${tokens.requestId},"caller":${tokens.caller}}}`
  );
}

/** The tokens of a write's origin: where (the service's source, with the resource's path), when, for whom. */
export function originTokens(
  resource: SqlResource,
  origin: Omit<EventOrigin, 'newId'>,
): Pick<EventTokens, 'source' | 'time' | 'requestId' | 'caller'> {
  return {
    source: JSON.stringify(`${origin.source}/res/${resource.name}`),
    time: JSON.stringify(new Date(origin.time).toISOString()),
    requestId: JSON.stringify(origin.requestId ?? null),
    caller: JSON.stringify(origin.caller ?? null),
  };
}

export function changeEvents(
  resource: SqlResource,
  changes: readonly RowChange[],
  withBefore: boolean,
  origin: EventOrigin,
): OutboxEvent[] {
  const fieldsOf = fieldsByTable(resource);
  const fromOrigin = originTokens(resource, origin);
  return changes.map((change) => {
    const fields = fieldsOf.get(change.table.name) ?? new Map<string, Field>();
    const row = (change.after ?? change.before) as Row;
    const keyColumns = change.table.primaryKey.length > 0 ? change.table.primaryKey : [...fields.keys()];
    const key = keyColumns.map((column) => row[column] ?? null);
    const id = origin.newId();
    const frame = { resource: resource.name, table: change.table.name, verb: change.verb, withBefore };
    const keyTexts = key.map(textOf);
    const event = eventText(frame, {
      source: fromOrigin.source,
      time: fromOrigin.time,
      requestId: fromOrigin.requestId,
      caller: fromOrigin.caller,
      id: JSON.stringify(id),
      subject: JSON.stringify(keyTexts.join(',')),
      key: columnsJson(change.table, keyColumns, row),
      parent: parentJson(resource, change.table, row),
      after: change.after ? rowJson(change.after, fields) : 'null',
      before: change.before ? rowJson(change.before, fields) : 'null',
    });
    const orderingKey = orderingKeyOf(orderingKeyText(resource.name, change.table.name, keyTexts));
    return { id, orderingKey, event, createdAt: origin.time };
  });
}

/** The JSON array of a row's resource, table and key texts, which orders its events. */
export function orderingKeyText(resource: string, table: string, keyTexts: readonly string[]): string {
  return JSON.stringify([resource, table, ...keyTexts]);
}

/** Past this many characters (code points), an ordering key is kept as its SHA-256. */
export const orderingKeyMaxCharacters = 1000;

/**
 * The outbox's column holds 2,000 characters: a longer row key is kept as the SHA-256 of its UTF-8, which orders the
 * same. Characters are counted as code points, as PostgreSQL counts them (insert-events writes the same key in SQL).
 */
function orderingKeyOf(text: string): string {
  const short = text.length <= orderingKeyMaxCharacters || [...text].length <= orderingKeyMaxCharacters;
  return short ? text : `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** Each table's shown fields, by column. */
export function fieldsByTable(resource: SqlResource): Map<string, Map<string, Field>> {
  const out = new Map<string, Map<string, Field>>();
  for (const field of resource.fields) {
    if (field.table === null || field.column === null) continue;
    const fields = out.get(field.table) ?? new Map<string, Field>();
    if (!fields.has(field.column)) fields.set(field.column, field);
    out.set(field.table, fields);
  }
  return out;
}

/** The shown fields of a row, by label. */
function rowJson(row: Row, fields: ReadonlyMap<string, Field>): string {
  const members: string[] = [];
  for (const [column, field] of fields) {
    if (column in row) members.push(`${JSON.stringify(field.label)}:${valueJson(field.type, row[column] ?? null)}`);
  }
  return `{${members.join(',')}}`;
}

/** Key columns by their names (a key column the query leaves out is named all the same: the key is the row's). */
function columnsJson(table: ResourceTable, columns: readonly string[], row: Row): string {
  const members = columns.map((column) => `${JSON.stringify(column)}:${columnJson(table, column, row)}`);
  return `{${members.join(',')}}`;
}

/** A column's value as JSON, by the column's type. */
function columnJson(table: ResourceTable, column: string, row: Row): string {
  const value = row[column] ?? null;
  return valueJson(table.columnTypes?.[column] ?? (typeof value === 'string' ? 'string' : 'integer'), value);
}

/**
 * The row a row of another table hangs off, by its link: the Parent's for extension, Child and association rows, the
 * Child's for a child's extension row.
 */
function parentJson(resource: SqlResource, table: ResourceTable, row: Row): string | undefined {
  if (table.links.length === 0) return undefined;
  const parent = Object.values(resource.tables).find((t) => t.role === 'Parent');
  const link = table.links.find((l) => l.target === parent?.name) ?? table.links[0];
  if (!link) return undefined;
  const key = link.references.map(
    (column, i) => `${JSON.stringify(column)}:${columnJson(table, link.columns[i] ?? column, row)}`,
  );
  return `"parent":{"table":${JSON.stringify(link.target)},"key":{${key.join(',')}}}`;
}

function textOf(value: Value): string {
  if (value === null) return '';
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return String(value);
}
