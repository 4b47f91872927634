/**
 * Joins a parsed definition with what the catalog says about it into a SqlResource (its consistency, names,
 * fields, keys and links). Pure: every problem that stops reads is a DefinitionError naming the file; a
 * missing write link is recorded on its table instead.
 */
import type { CatalogForeignKey, CatalogTable, QueryCatalog } from '../db/database';
import { DefinitionError } from '../errors';
import type {
  EngineName,
  Field,
  LookupLink,
  ResourceKind,
  ResourceTable,
  SqlResource,
  TableLink,
  TableRole,
} from '../resource';
import type { DeclaredTable, Definition } from './parse-definition';
import { showsEveryRow } from './query-shape';

const defaultCacheControl = 'no-cache, no-transform';

export function buildResource(
  name: string,
  definition: Definition,
  catalog: QueryCatalog,
  engine: EngineName,
): SqlResource {
  const { file } = definition;
  const found = declaredTables(definition, catalog);
  const fields = catalog.columns.map((column) => fieldOf(file, column, found));
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
    engine,
    query: definition.query,
    rowName,
    collectionName: parent?.rowSetAlias ?? `${rowName}s`,
    childRowName,
    childCollectionName: child ? (child.rowSetAlias ?? `${childRowName}s`) : undefined,
    tables,
    fields,
    validations: definition.validations,
    cacheControl: definition.cacheControl ?? defaultCacheControl,
    ...(definition.maxRows === undefined ? {} : { maxRows: definition.maxRows }),
    ...(definition.ifMatchRequired ? { ifMatchRequired: true } : {}),
    ...(definition.events === undefined ? {} : { events: definition.events }),
    documentation: definition.documentation,
    ...(showsWholeTable(definition, found, engine) ? { showsEveryRow: true } : {}),
  };
}

/** The catalog's table of each declared table: a declared table the database lacks is the definition's error. */
function declaredTables(definition: Definition, catalog: QueryCatalog): Map<string, CatalogTable> {
  const found = new Map<string, CatalogTable>();
  for (const declared of definition.tables) {
    const table = catalog.tables[declared.name];
    if (!table) {
      throw new DefinitionError(
        definition.file,
        `table ${declared.name} (role ${declared.role}) does not exist in the database`,
      );
    }
    found.set(declared.name, table);
  }
  return found;
}

/** A column of the query as a field: read-only when computed, else with its table column's key, rules and limits. */
function fieldOf(file: string, column: QueryCatalog['columns'][number], found: Map<string, CatalogTable>): Field {
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
      hasDefault: false,
    };
  }
  const tableName = [...found.entries()].find(([, t]) => t.schema === column.schema && t.table === column.table)?.[0];
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
    hasDefault: meta?.hasDefault ?? false,
    ...(meta?.limits ? { limits: meta.limits } : {}),
  };
}

/** A flat resource of one table whose query reads it alone, with no condition: every row of it is shown. */
function showsWholeTable(definition: Definition, found: Map<string, CatalogTable>, engine: EngineName): boolean {
  const only = definition.tables.length === 1 ? found.get(definition.tables[0]?.name ?? '') : undefined;
  return only !== undefined && showsEveryRow(definition.query, only, engine);
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

/**
 * Each table with its write links. A link the catalog does not show is not an error here: reads never need
 * one, so the table records why (`unlinked`) and only the writes that need it are refused.
 */
function buildTables(definition: Definition, found: Map<string, CatalogTable>): Record<string, ResourceTable> {
  const byRole = (role: TableRole) => definition.tables.find((t) => t.role === role)?.name ?? '';
  const manyToMany = definition.tables.some((t) => t.role === 'Join');
  return Object.fromEntries(
    definition.tables.map((declared) => {
      // many-to-many: the Child hangs off the Join, not the Parent
      const targets = manyToMany && declared.role === 'Child' ? [] : linkTargets[declared.role].map(byRole);
      return [declared.name, linkedTable(declared, found, targets)];
    }),
  );
}

/** One table with its links to `targets`, a lookup in their place, or why a link is missing. */
function linkedTable(
  declared: DeclaredTable,
  found: Map<string, CatalogTable>,
  targets: readonly string[],
): ResourceTable {
  const table = found.get(declared.name) as CatalogTable;
  const base = {
    name: declared.name,
    schema: table.schema,
    table: table.table,
    role: declared.role,
    primaryKey: table.primaryKey,
    generatedColumns: table.columns.filter((c) => c.generated).map((c) => c.name),
    uniqueKeys: table.uniqueKeys,
    columnTypes: Object.fromEntries(table.columns.map((c) => [c.name, c.type])),
  };
  const extension = declared.role === 'ParentExtension' || declared.role === 'ChildExtension';
  const links: TableLink[] = [];
  const missing: string[] = [];
  for (const target of targets) {
    const owner = found.get(target) as CatalogTable;
    const link = foreignKeyLink(table, owner, target);
    const lookup = extension && !link ? lookupLink(owner, table, target) : undefined;
    if (lookup) return { ...base, links: [], lookup };
    const fallback = link ?? sameNameLink(table, owner, target);
    if (fallback) links.push(fallback);
    else missing.push(`${target} (${owner.primaryKey.join(', ') || 'no primary key'})`);
  }
  if (missing.length === 0) return { ...base, links };
  const unlinked = `table ${declared.name} (${declared.role}) has no foreign key to ${missing.join(' or ')}, and no columns named like that key`;
  return { ...base, links, unlinked };
}

/** The foreign key of `table` that references `target`. */
function foreignKeyLink(table: CatalogTable, target: CatalogTable, targetName: string): TableLink | undefined {
  const fk = table.foreignKeys.find((f) => f.refSchema === target.schema && f.refTable === target.table);
  return fk ? { target: targetName, ...inKeyOrder(fk, target.primaryKey) } : undefined;
}

/**
 * The links of `resource` made by column names because no foreign key was there (sameNameLink), each as
 * `table.column = target.column`: equal names prove nothing (a forgotten Join table links `tag.id` to `task.id`), so
 * `npm run validate` names them.
 */
export function linksByName(resource: SqlResource, catalog: QueryCatalog): string[] {
  return Object.values(resource.tables).flatMap((table) =>
    table.links.flatMap((link) => {
      const own = catalog.tables[table.name] as CatalogTable;
      if (foreignKeyLink(own, catalog.tables[link.target] as CatalogTable, link.target)) return [];
      const pairs = link.columns.map((c, i) => `${table.name}.${c} = ${link.target}.${link.references[i]}`);
      return [`table ${table.name} (${table.role}) is linked to ${link.target} by ${pairs.join(' and ')}`];
    }),
  );
}

/** Failing a foreign key: columns of `table` named like the target's key columns. */
function sameNameLink(table: CatalogTable, target: CatalogTable, targetName: string): TableLink | undefined {
  if (target.primaryKey.length === 0) return undefined;
  const names = table.columns.map((c) => c.name);
  if (!target.primaryKey.every((k) => names.includes(k))) return undefined;
  return { columns: target.primaryKey, target: targetName, references: target.primaryKey };
}

/**
 * An extension linked the other way: its owner holds a foreign key to it, a many-to-one lookup such as
 * `book.publisher_id → publisher`. Only a declared foreign key counts: equal column names prove nothing here.
 */
function lookupLink(owner: CatalogTable, extension: CatalogTable, ownerName: string): LookupLink | undefined {
  const fk = owner.foreignKeys.find((f) => f.refSchema === extension.schema && f.refTable === extension.table);
  return fk ? { owner: ownerName, ...inKeyOrder(fk, extension.primaryKey) } : undefined;
}

type ColumnPairs = { readonly columns: readonly string[]; readonly references: readonly string[] };

/** Orders a foreign key's column pairs by the referenced key, so link values line up with key values. */
function inKeyOrder(fk: CatalogForeignKey, primaryKey: readonly string[]): ColumnPairs {
  const { columns, refColumns: references } = fk;
  if (primaryKey.length !== references.length || !primaryKey.every((k) => references.includes(k)))
    return { columns, references };
  return { columns: primaryKey.map((k) => columns[references.indexOf(k)] as string), references: [...primaryKey] };
}
