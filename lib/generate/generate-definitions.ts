/**
 * `npm run generate` without its IO: from a described schema (the tables `--tables` names, or all of them) to the
 * files it writes, each definition named after its resource, and the privileges stub. Pure.
 */
import type { DescribedSchema } from '../db/engine';
import { serviceTables } from '../event-tables';
import { planResources } from './plan-resources';
import { privilegesFile, privilegesStub } from './privileges-stub';
import { type SqlNaming, writeDefinition } from './write-definition';

export interface GeneratedFile {
  /** Relative to the output folder. */
  readonly path: string;
  readonly text: string;
}

export interface Generated {
  readonly files: readonly GeneratedFile[];
  /** What was not turned into a resource, and why, and which resources are read only: a sentence each. */
  readonly notes: readonly string[];
}

/**
 * Only the tables named (as the catalog spells them, or in another case when that is unambiguous); all without names.
 * The service's own tables (the change events' outbox and lease) are never among them.
 */
export function selectTables(described: DescribedSchema, names?: readonly string[]): DescribedSchema {
  const schema = { ...described, tables: described.tables.filter((t) => !serviceTables.includes(t.table)) };
  if (!names) return schema;
  const missing: string[] = [];
  const tables = names.flatMap((name) => {
    const exact = schema.tables.find((t) => t.table === name);
    const folded = schema.tables.filter((t) => t.table.toLowerCase() === name.toLowerCase());
    const table = exact ?? (folded.length === 1 ? folded[0] : undefined);
    if (!table) missing.push(name);
    return table ? [table] : [];
  });
  if (missing.length > 0) {
    const known = schema.tables.map((t) => t.table).join(', ') || 'none';
    throw new Error(`No table ${missing.join(', ')} in schema ${schema.schema} (its tables: ${known})`);
  }
  return { ...schema, tables: schema.tables.filter((t) => tables.includes(t)) };
}

export function generateDefinitions(schema: DescribedSchema, naming: SqlNaming): Generated {
  const { resources, notes } = planResources(schema);
  const files = resources.map((r) => ({ path: `${r.name}.xml`, text: writeDefinition(r, naming) }));
  return { files: [...files, { path: privilegesFile, text: privilegesStub(resources) }], notes };
}
