/**
 * What the service resolved for a resource (/conf/metadata): kind, row and collection names, tables with
 * their keys and the foreign-key links used, and every field with its table, column, types and flags. XML or
 * JSON. Pure.
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { SqlResource } from '../resource';
import type { OutputType } from '../values';

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
