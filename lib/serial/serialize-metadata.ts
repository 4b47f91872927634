/**
 * What the service resolved for a resource (/conf/metadata): kind, row and collection names, tables with
 * their keys and the foreign-key links used, and every field with its table, column, types and flags. XML or
 * JSON, or tables in an HTML page for a browser. Pure.
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { SqlResource } from '../resource';
import type { OutputType } from '../values';
import { html, htmlPage, resourceNav, scrolling } from './html-page';

interface ResourceMetadata {
  readonly name: string;
  readonly kind: SqlResource['kind'];
  readonly database: string;
  /** The database engine, under the name the metadata has always given it. */
  readonly dialect: SqlResource['engine'];
  readonly rowName: string;
  readonly collectionName: string;
  readonly childRowName?: string;
  readonly childCollectionName?: string;
  readonly tables: readonly {
    name: string;
    schema: string;
    table: string;
    role: string;
    primaryKey: readonly string[];
    links: readonly { columns: readonly string[]; target: string; references: readonly string[] }[];
    /** An extension its owner looks up many-to-one: read-only through this resource. */
    lookup?: { owner: string; columns: readonly string[]; references: readonly string[] };
    /** Why a link is missing: the writes that need it are refused. */
    unlinked?: string;
  }[];
  readonly fields: readonly {
    label: string;
    table: string | null;
    column: string | null;
    type: string;
    dbType: string;
    primaryKey: boolean;
    generated: boolean;
    readOnly: boolean;
    nullable: boolean;
  }[];
}

function resourceMetadata(resource: SqlResource): ResourceMetadata {
  return {
    name: resource.name,
    kind: resource.kind,
    database: resource.database,
    dialect: resource.engine,
    rowName: resource.rowName,
    collectionName: resource.collectionName,
    ...(resource.childRowName
      ? { childRowName: resource.childRowName, childCollectionName: resource.childCollectionName }
      : {}),
    tables: Object.values(resource.tables).map((t) => ({
      name: t.name,
      schema: t.schema,
      table: t.table,
      role: t.role,
      primaryKey: t.primaryKey,
      links: t.links.map((l) => ({ columns: l.columns, target: l.target, references: l.references })),
      ...(t.lookup
        ? { lookup: { owner: t.lookup.owner, columns: t.lookup.columns, references: t.lookup.references } }
        : {}),
      ...(t.unlinked ? { unlinked: t.unlinked } : {}),
    })),
    fields: resource.fields.map((f) => ({
      label: f.label,
      table: f.table,
      column: f.column,
      type: f.type,
      dbType: f.dbType,
      primaryKey: f.primaryKey,
      generated: f.generated,
      readOnly: f.readOnly,
      nullable: f.nullable,
    })),
  };
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  suppressEmptyNode: true,
  suppressBooleanAttributes: false,
});

/** Attributes for scalars (lists joined with commas), elements for tables, links, lookups and fields. */
function metadataXml(meta: ResourceMetadata): string {
  const { tables, fields, ...scalars } = meta;
  const attrs = (o: object) =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [`@${k}`, Array.isArray(v) ? v.join(',') : String(v ?? '')]));
  const doc = {
    metadata: {
      ...attrs(scalars),
      table: tables.map(({ links, lookup, ...t }) => ({
        ...attrs(t),
        link: links.map(attrs),
        ...(lookup ? { lookup: attrs(lookup) } : {}),
      })),
      field: fields.map(attrs),
    },
  };
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build(doc)}`;
}

export function serializeMetadata(resource: SqlResource, type: OutputType): string {
  const meta = resourceMetadata(resource);
  return type === 'application/json' ? JSON.stringify(meta) : metadataXml(meta);
}

/** A table of one heading per column and one row per item; every cell's text escaped. */
function tableHtml(headings: readonly string[], rows: readonly (readonly string[])[]): string {
  const head = headings.map((h) => `<th>${html(h)}</th>`).join('');
  const body = rows.map((cells) => `<tr>${cells.map((c) => `<td>${html(c)}</td>`).join('')}</tr>`).join('');
  return scrolling(`<table><tr>${head}</tr>${body}</table>`);
}

const list = (items: readonly string[]) => items.join(', ');

/** The tables of a resource: how each hangs off the others, by which columns. */
function tablesHtml(meta: ResourceMetadata): string {
  const rows = meta.tables.map((t) => [
    t.name,
    t.role,
    `${t.schema}.${t.table}`,
    list(t.primaryKey),
    [
      ...t.links.map((l) => `${list(l.columns)} → ${l.target} (${list(l.references)})`),
      ...(t.lookup
        ? [`looked up by ${t.lookup.owner} (${list(t.lookup.columns)} → ${list(t.lookup.references)})`]
        : []),
      ...(t.unlinked ? [t.unlinked] : []),
    ].join('; '),
  ]);
  return tableHtml(['name', 'role', 'schema.table', 'primary key', 'links'], rows);
}

/** `base`: the path prefix the service is mounted under ('' or e.g. `/dev`). */
export function metadataHtml(resource: SqlResource, base: string): string {
  const meta = resourceMetadata(resource);
  const names = meta.childRowName
    ? `${meta.rowName} (${meta.collectionName}) holding ${meta.childRowName} (${meta.childCollectionName})`
    : `${meta.rowName} (${meta.collectionName})`;
  const facts = [
    ['kind', meta.kind],
    ['rows (collection)', names],
    ['database', meta.database],
    ['engine', meta.dialect],
  ];
  const summary = `<table>${facts.map(([name, value]) => `<tr><th>${name}</th><td>${html(value ?? '')}</td></tr>`).join('')}</table>`;
  const fields = meta.fields.map((f) => [
    f.label,
    f.table ?? '(computed)',
    f.column ?? '',
    f.type,
    f.dbType,
    [f.primaryKey && 'primary key', f.generated && 'generated', f.readOnly && 'read-only', f.nullable && 'nullable']
      .filter((flag): flag is string => typeof flag === 'string')
      .join(', '),
  ]);
  const body = [
    `<h1>${html(meta.name)}: metadata</h1>${resourceNav(base, meta.name, 'metadata')}`,
    `<p>What the service resolved from the definition and the database catalog.</p>${scrolling(summary)}`,
    `<h2>Tables</h2>${tablesHtml(meta)}`,
    `<h2>Fields</h2>${tableHtml(['label', 'table', 'column', 'type', 'database type', 'flags'], fields)}`,
  ].join('');
  return htmlPage(`${meta.name}: metadata`, base, body);
}
