/**
 * Regroups the flat joined rows of a hierarchical read into parents holding their children: the rows with the same
 * parent key form one parent, wherever they are among the rows (a read ordered by a child field, say, need not keep a
 * parent's rows together), in the order each parent first appears, its children in the order they come; a row whose
 * child key is all NULL is a childless parent (the outer join's filler). Pure.
 */
import type { SqlResource } from '../resource';
import { fieldsAt, keyLabels, tableWithRole } from '../resource-levels';
import type { OutRow, Row, Value } from '../values';

function pick(row: Row, labels: readonly string[]): Record<string, Value> {
  const values: Record<string, Value> = {};
  for (const label of labels) values[label] = row[label] ?? null;
  return values;
}

/** What tells one parent from the next: its key's text (a key of one column, the common case, needs no JSON). */
function identity(row: Row, labels: readonly string[]): string {
  const text = (label: string) => {
    const value = row[label];
    return value instanceof Uint8Array ? String(value) : String(value ?? '\u0000null');
  };
  return labels.length === 1 ? text(labels[0] as string) : JSON.stringify(labels.map(text));
}

/** What tells a row's parent from the next parent's, on a hierarchical resource: its key, else all its values. */
export function parentIdentity(resource: SqlResource): (row: Row) => string {
  const parentKey =
    keyLabels(resource, tableWithRole(resource, 'Parent')) ?? fieldsAt(resource, 'parent').map((f) => f.label);
  return (row) => identity(row, parentKey);
}

export function groupRows(resource: SqlResource, rows: readonly Row[]): OutRow[] {
  if (resource.kind === 'flat') return rows.map((values) => ({ values }));
  const parentLabels = fieldsAt(resource, 'parent').map((f) => f.label);
  const childLabels = fieldsAt(resource, 'child').map((f) => f.label);
  const parentOf = parentIdentity(resource);
  const childKey = keyLabels(resource, tableWithRole(resource, 'Child')) ?? childLabels;
  type Parent = OutRow & { children: OutRow[] };
  const out: Parent[] = [];
  const parents = new Map<string, Parent>();
  for (const row of rows) {
    const id = parentOf(row);
    let parent = parents.get(id);
    if (!parent) {
      parent = { values: pick(row, parentLabels), children: [] };
      parents.set(id, parent);
      out.push(parent);
    }
    if (childKey.some((label) => row[label] !== null && row[label] !== undefined)) {
      parent.children.push({ values: pick(row, childLabels) });
    }
  }
  return out;
}
