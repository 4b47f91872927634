/**
 * Regroups the flat joined rows of a hierarchical read into parents holding their children:
 * consecutive rows with the same parent key form one parent (rows come ordered by the parent key); a
 * row whose child key is all NULL is a childless parent (the outer join's filler). Pure.
 */
import type { SqlResource } from '../resource';
import { fieldsAt, keyLabels, tableWithRole } from '../resource-levels';
import type { OutRow, Value } from '../values';

type Row = Readonly<Record<string, Value>>;

function pick(row: Row, labels: readonly string[]): Record<string, Value> {
  return Object.fromEntries(labels.map((label) => [label, row[label] ?? null]));
}

function identity(row: Row, labels: readonly string[]): string {
  return JSON.stringify(
    labels.map((label) => (row[label] instanceof Uint8Array ? String(row[label]) : String(row[label] ?? '\u0000null'))),
  );
}

export function groupRows(resource: SqlResource, rows: readonly Row[]): OutRow[] {
  if (resource.kind === 'flat') return rows.map((values) => ({ values }));
  const parentLabels = fieldsAt(resource, 'parent').map((f) => f.label);
  const childLabels = fieldsAt(resource, 'child').map((f) => f.label);
  const parentKey = keyLabels(resource, tableWithRole(resource, 'Parent')) ?? parentLabels;
  const childKey = keyLabels(resource, tableWithRole(resource, 'Child')) ?? childLabels;
  const out: { values: Record<string, Value>; children: OutRow[] }[] = [];
  let current: string | undefined;
  for (const row of rows) {
    const id = identity(row, parentKey);
    if (id !== current || out.length === 0) {
      out.push({ values: pick(row, parentLabels), children: [] });
      current = id;
    }
    if (childKey.some((label) => row[label] !== null && row[label] !== undefined)) {
      out[out.length - 1]?.children.push({ values: pick(row, childLabels) });
    }
  }
  return out;
}
