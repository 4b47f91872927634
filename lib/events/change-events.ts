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

export function changeEvents(
  resource: SqlResource,
  changes: readonly RowChange[],
  withBefore: boolean,
  origin: EventOrigin,
): OutboxEvent[] {
  const fieldsOf = fieldsByTable(resource);
  const time = new Date(origin.time).toISOString();
  const source = `${origin.source}/res/${resource.name}`;
  return changes.map((change) => {
    const fields = fieldsOf.get(change.table.name) ?? new Map<string, Field>();
    const row = (change.after ?? change.before) as Row;
    const keyColumns = change.table.primaryKey.length > 0 ? change.table.primaryKey : [...fields.keys()];
    const key = keyColumns.map((column) => row[column] ?? null);
    const data = [
      `"resource":${JSON.stringify(resource.name)}`,
      `"table":${JSON.stringify(change.table.name)}`,
      `"key":${columnsJson(change.table, keyColumns, row)}`,
      ...parentJson(resource, change.table, row),
      `"after":${change.after ? rowJson(change.after, fields) : 'null'}`,
      ...(withBefore ? [`"before":${change.before ? rowJson(change.before, fields) : 'null'}`] : []),
      `"requestId":${JSON.stringify(origin.requestId ?? null)}`,
      `"caller":${JSON.stringify(origin.caller ?? null)}`,
    ];
    const id = origin.newId();
    const subject = key.map((value) => textOf(value)).join(',');
    const event = [
      '"specversion":"1.0"',
      `"id":${JSON.stringify(id)}`,
      `"source":${JSON.stringify(source)}`,
      `"type":${JSON.stringify(`${resource.name}.${pastTense[change.verb]}`)}`,
      `"subject":${JSON.stringify(subject)}`,
      `"time":${JSON.stringify(time)}`,
      '"datacontenttype":"application/json"',
      `"data":{${data.join(',')}}`,
    ];
    const orderingKey = orderingKeyOf([resource.name, change.table.name, ...key.map(textOf)]);
    return { id, orderingKey, event: `{${event.join(',')}}`, createdAt: origin.time };
  });
}

/** The outbox's column holds 2,000 characters: a longer row key is kept as its SHA-256, which orders the same. */
function orderingKeyOf(parts: readonly string[]): string {
  const text = JSON.stringify(parts);
  return text.length <= 1000 ? text : `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** Each table's shown fields, by column. */
function fieldsByTable(resource: SqlResource): Map<string, Map<string, Field>> {
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
function parentJson(resource: SqlResource, table: ResourceTable, row: Row): string[] {
  const parent = Object.values(resource.tables).find((t) => t.role === 'Parent');
  const link = table.links.find((l) => l.target === parent?.name) ?? table.links[0];
  if (!link) return [];
  const key = link.references.map(
    (column, i) => `${JSON.stringify(column)}:${columnJson(table, link.columns[i] ?? column, row)}`,
  );
  return [`"parent":{"table":${JSON.stringify(link.target)},"key":{${key.join(',')}}}`];
}

function textOf(value: Value): string {
  if (value === null) return '';
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return String(value);
}
