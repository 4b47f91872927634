/**
 * Joins a parsed definition with what the catalog says about it into a SqlResource (D1 consistency, D2 names,
 * D4 fields, keys and links). Pure: every problem is a DefinitionError naming the file.
 */
import type { CatalogTable, QueryCatalog } from '../db/types';
import { DefinitionError } from '../errors';
import type { Dialect, Field, ResourceKind, ResourceTable, SqlResource, TableLink, TableRole } from '../resource';
import type { Definition } from './parse-definition';

const defaultCacheControl = 'no-cache, no-transform';

export function buildResource(
  name: string,
  definition: Definition,
  catalog: QueryCatalog,
  dialect: Dialect,
): SqlResource {
  const { file } = definition;
  const found = new Map<string, CatalogTable>();
  for (const declared of definition.tables) {
    const table = catalog.tables[declared.name];
    if (!table)
      throw new DefinitionError(file, `table ${declared.name} (role ${declared.role}) does not exist in the database`);
    found.set(declared.name, table);
  }
  const declaredOf = (schema: string | null, table: string | null) =>
    [...found.entries()].find(([, t]) => t.schema === schema && t.table === table)?.[0];
  const fields = catalog.columns.map((column): Field => {
    if (column.table === null || column.column === null) {
      return {
        label: column.label,
        table: null,
        column: null,
        type: column.type,
        dbType: column.dbType,
        primaryKey: false,
        generated: false,
        readOnly: true,
        nullable: true,
      };
    }
    const tableName = declaredOf(column.schema, column.table);
    if (!tableName) {
      throw new DefinitionError(
        file,
        `column ${column.label} comes from table ${column.table}, which is not declared in metadata`,
      );
    }
    const table = found.get(tableName) as CatalogTable;
    const meta = table.columns.find((c) => c.name === column.column);
    return {
      label: column.label,
      table: tableName,
      column: column.column,
      type: column.type,
      dbType: column.dbType,
      primaryKey: table.primaryKey.includes(column.column),
      generated: meta?.generated ?? false,
      readOnly: meta?.readOnly ?? false,
      nullable: meta?.nullable ?? true,
    };
  });
  checkLabels(file, fields, definition);
  const tables = buildTables(definition, found);
  const parent = definition.tables.find((t) => t.role === 'Parent');
  const child = definition.tables.find((t) => t.role === 'Child');
  const rowName = parent?.rowAlias ?? (found.get(parent?.name ?? '') as CatalogTable).table;
  const childRowName = child ? (child.rowAlias ?? (found.get(child.name) as CatalogTable).table) : undefined;
  return {
    name,
    file,
    kind: kindOf(definition.tables.map((t) => t.role)),
    database: definition.database ?? '',
    dialect,
    query: definition.query,
    rowName,
    collectionName: parent?.rowSetAlias ?? `${rowName}s`,
    childRowName,
    childCollectionName: child ? (child.rowSetAlias ?? `${childRowName}s`) : undefined,
    tables,
    fields,
    validations: definition.validations,
    cacheControl: definition.cacheControl ?? defaultCacheControl,
    documentation: definition.documentation,
  };
}

function kindOf(roles: readonly TableRole[]): ResourceKind {
  if (roles.includes('Join')) return 'many-to-many';
  return roles.includes('Child') ? 'one-to-many' : 'flat';
}

function checkLabels(file: string, fields: readonly Field[], definition: Definition): void {
  const seen = new Set<string>();
  for (const field of fields) {
    if (seen.has(field.label)) throw new DefinitionError(file, `the query has two columns labelled ${field.label}`);
    seen.add(field.label);
  }
  for (const rule of definition.validations) {
    if (!seen.has(rule.name))
      throw new DefinitionError(file, `validatedAttribute ${rule.name} matches no column label of the query`);
  }
}

/** Which table each role hangs off: extensions and Child off the Parent; ChildExtension off the Child. */
const linkTargets: Record<TableRole, TableRole[]> = {
  Parent: [],
  ParentExtension: ['Parent'],
  Child: ['Parent'],
  ChildExtension: ['Child'],
  Join: ['Parent', 'Child'],
};

function buildTables(definition: Definition, found: Map<string, CatalogTable>): Record<string, ResourceTable> {
  const byRole = (role: TableRole) => definition.tables.find((t) => t.role === role)?.name ?? '';
  const out: Record<string, ResourceTable> = {};
  for (const declared of definition.tables) {
    const table = found.get(declared.name) as CatalogTable;
    // many-to-many: the Child hangs off the Join, not the Parent
    const targets =
      definition.tables.some((t) => t.role === 'Join') && declared.role === 'Child' ? [] : linkTargets[declared.role];
    const links = targets.map((role) => {
      const target = byRole(role);
      const link = findLink(table, found.get(target) as CatalogTable, target);
      if (!link) {
        throw new DefinitionError(
          definition.file,
          `table ${declared.name} (${declared.role}) has no foreign key to ${target} and no columns named like its key`,
        );
      }
      return link;
    });
    out[declared.name] = {
      name: declared.name,
      schema: table.schema,
      table: table.table,
      role: declared.role,
      primaryKey: table.primaryKey,
      generatedColumns: table.columns.filter((c) => c.generated).map((c) => c.name),
      links,
    };
  }
  return out;
}

/** A foreign key of `table` to `target` (D4); failing that, columns named like the target's key columns. */
function findLink(table: CatalogTable, target: CatalogTable, targetName: string): TableLink | undefined {
  const fk = table.foreignKeys.find((f) => f.refSchema === target.schema && f.refTable === target.table);
  if (fk) return inKeyOrder({ columns: fk.columns, target: targetName, references: fk.refColumns }, target.primaryKey);
  if (target.primaryKey.length === 0) return undefined;
  const names = table.columns.map((c) => c.name);
  if (!target.primaryKey.every((k) => names.includes(k))) return undefined;
  return { columns: target.primaryKey, target: targetName, references: target.primaryKey };
}

/** Orders a link's column pairs by the target's primary key, so link values line up with key values. */
function inKeyOrder(link: TableLink, primaryKey: readonly string[]): TableLink {
  if (primaryKey.length !== link.references.length || !primaryKey.every((k) => link.references.includes(k)))
    return link;
  const columns = primaryKey.map((k) => link.columns[link.references.indexOf(k)] as string);
  return { columns, target: link.target, references: [...primaryKey] };
}
