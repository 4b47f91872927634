/**
 * A folder of definition files for a test's own resources: each a query, its metadata's table elements and any
 * `more` elements (`<http>...</http>`), written to a temporary folder that `remove` deletes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface DefinitionFolder {
  readonly path: string;
  remove(): void;
}

export function definitionFolder(
  prefix: string,
  definitions: Readonly<Record<string, { query: string; tables: string; more?: string }>>,
): DefinitionFolder {
  const folder = mkdtempSync(path.join(tmpdir(), `rrs-${prefix}-`));
  for (const [name, { query, tables, more = '' }] of Object.entries(definitions)) {
    writeFileSync(
      path.join(folder, `${name}.xml`),
      `<rs:sqlResource xmlns:rs="http://restsql.org/schema">\n  <query>${query}</query>\n  <metadata>${tables}</metadata>\n${more}</rs:sqlResource>\n`,
    );
  }
  return { path: folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** The tag table (test/support/schema.ts) as a flat resource. */
export const tagDefinition = {
  query: 'select tag_id, label, weight from tag',
  tables: '<table name="tag" role="Parent" rowAlias="tag" rowSetAlias="tags"/>',
};
