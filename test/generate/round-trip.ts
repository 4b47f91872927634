/**
 * A round trip on a generated resource over HTTP, driven by what the service says of it (`/conf/metadata`): a row
 * of values for its main table (and its extension), inserted (C1), read by key (R2), updated by key (U3), deleted
 * by key (D3) and read again. Values that refer to another table come from `refer`; every other value is made up
 * from the field's type, unique where a key needs it.
 */
import type { Value } from '../../lib/values';

interface FieldMeta {
  readonly label: string;
  readonly table: string;
  readonly column: string;
  readonly type: string;
  readonly dbType: string;
  readonly primaryKey: boolean;
  readonly generated: boolean;
  readonly readOnly: boolean;
}

export interface Metadata {
  readonly name: string;
  readonly kind: string;
  readonly collectionName: string;
  readonly tables: readonly { name: string; table: string; role: string; primaryKey: readonly string[] }[];
  readonly fields: readonly FieldMeta[];
}

/** The value of a column that refers to a row of another table; undefined for a column that refers to none. */
export type Refer = (table: string, column: string) => Value | undefined;

export interface Reply {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly text: string;
}

export type Call = (method: string, path: string, body?: string, contentType?: string) => Promise<Reply>;

let counter = 0;
const letters = (n: number) =>
  Array.from({ length: n }, (_, i) => String.fromCharCode(65 + ((counter * 7 + i * 3) % 26))).join('');

/** A made-up value of a field's type: a fresh one each call (a char(n) gets exactly n characters). */
function madeUp(field: FieldMeta): Value {
  counter++;
  const length = Number(/\((\d+)\)/.exec(field.dbType)?.[1] ?? 12);
  if (field.type === 'string')
    return /^(char|character)\(/.test(field.dbType) ? letters(length) : letters(Math.min(length, 12));
  if (field.type === 'integer') return field.primaryKey ? 1000 + counter : 3;
  if (field.type === 'decimal' || field.type === 'float') return 2.5;
  if (field.type === 'boolean') return true;
  if (field.type === 'date') return '2024-01-02';
  if (field.type === 'time') return '03:04:05';
  return '2024-01-02 03:04:05';
}

/** The fields written through the main table (and a Parent extension), with the row's made-up values. */
export function rowFor(meta: Metadata, refer: Refer): Record<string, Value> {
  const own = meta.tables.filter((t) => t.role === 'Parent' || t.role === 'ParentExtension');
  const row: Record<string, Value> = {};
  for (const f of meta.fields) {
    const table = own.find((t) => t.name === f.table);
    if (!table || f.generated || f.readOnly) continue;
    row[f.label] = refer(table.table, f.column) ?? madeUp(f);
  }
  return row;
}

/** The field U3 changes: a text, else a number, else anything the main table writes that is not a key or link. */
export function fieldToChange(meta: Metadata, refer: Refer): FieldMeta | undefined {
  const parent = meta.tables.find((t) => t.role === 'Parent');
  const candidates = meta.fields.filter(
    (f) =>
      f.table === parent?.name &&
      !f.primaryKey &&
      !f.generated &&
      !f.readOnly &&
      refer(parent.table, f.column) === undefined,
  );
  const order = ['string', 'integer', 'decimal', 'timestamp', 'date', 'boolean'];
  return [...candidates].sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type))[0];
}

const json = 'application/json';

/** C1, R2, U3, D3 and a read after the delete; returns what each step answered, for the test to compare. */
export async function roundTrip(meta: Metadata, refer: Refer, call: Call) {
  const row = rowFor(meta, refer);
  const inserted = await call('POST', `/res/${meta.name}`, JSON.stringify({ [meta.collectionName]: [row] }), json);
  const echo = ((inserted.body[meta.collectionName] as Record<string, Value>[] | undefined) ?? [])[0] ?? {};
  const parent = meta.tables.find((t) => t.role === 'Parent');
  const keyLabels = (parent?.primaryKey ?? []).map(
    (column) => meta.fields.find((f) => f.table === parent?.name && f.column === column)?.label ?? column,
  );
  const path = `/res/${meta.name}/${keyLabels.map((l) => encodeURIComponent(String(echo[l]))).join('/')}`;
  const read = await call('GET', path);
  const change = fieldToChange(meta, refer);
  const value = change ? madeUp(change) : undefined;
  const form = change ? `${encodeURIComponent(change.label)}=${encodeURIComponent(String(value))}` : '';
  const updated = await call('PUT', path, form, 'application/x-www-form-urlencoded');
  const reread = await call('GET', path);
  const deleted = await call('DELETE', path);
  const gone = await call('GET', path);
  const rows = (reply: Reply) => (reply.body[meta.collectionName] as Record<string, unknown>[] | undefined) ?? [];
  return {
    inserted: { status: inserted.status, rowsAffected: inserted.body.rowsAffected, text: inserted.text },
    keys: keyLabels.map((l) => echo[l]),
    read: { status: read.status, rows: rows(read).length },
    updated: { status: updated.status, rowsAffected: updated.body.rowsAffected, text: updated.text },
    changed: change?.type === 'string' ? { sent: value, read: rows(reread)[0]?.[change.label] } : undefined,
    deleted: { status: deleted.status, text: deleted.text },
    gone: { status: gone.status, rows: rows(gone).length },
  };
}
