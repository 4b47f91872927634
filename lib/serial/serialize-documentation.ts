/**
 * Documentation for people (/conf/documentation): the definition's `documentation` text, the fields with
 * their types, keys, flags and validation rules, and example requests. HTML for browsers, XML or JSON otherwise.
 * Pure.
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { Field, SqlResource } from '../resource';
import { fieldLevels, keyLabels, type Level, tableWithRole } from '../resource-levels';
import { html, htmlPage, link, resourceNav, scrolling } from './html-page';

export interface Documentation {
  readonly name: string;
  readonly kind: SqlResource['kind'];
  readonly description: string;
  readonly fields: readonly { label: string; level: string; type: string; dbType: string; notes: string }[];
  readonly examples: readonly string[];
  /** The XML Schemas of request and response bodies. */
  readonly schemas: readonly string[];
}

const schemas = ['/xsd/Request.xsd', '/xsd/Response.xsd'];

export function documentationOf(resource: SqlResource): Documentation {
  const levels = fieldLevels(resource);
  const fields = resource.fields.map((f) => {
    const notes = [
      f.primaryKey ? 'primary key' : '',
      f.generated ? 'generated on insert' : '',
      f.readOnly ? 'read-only (computed)' : '',
      // why a NOT NULL column need not be sent (MariaDB says a nullable column defaults to NULL: nothing to tell)
      !f.nullable && f.hasDefault && !f.generated && !f.readOnly ? 'database default' : '',
      requiredOnInsert(resource, f, levels.get(f.label) ?? 'parent') ? 'required' : '',
      ...resource.validations.filter((r) => r.name === f.label).map(ruleText),
    ].filter(Boolean);
    return {
      label: f.label,
      level: levels.get(f.label) ?? 'parent',
      type: f.type,
      dbType: f.dbType,
      notes: notes.join('; '),
    };
  });
  return {
    name: resource.name,
    kind: resource.kind,
    description: resource.documentation ?? '',
    fields,
    examples: examplesOf(resource),
    schemas,
  };
}

/**
 * Whether an insert must send the field, as the service checks it: a NOT NULL column with no default that is not
 * generated, computed, filled from the parent (a child's or an extension's link) or a looked-up row's. A
 * many-to-many child is associated by its key, which it must send even when the key is generated, and nothing else.
 */
function requiredOnInsert(resource: SqlResource, field: Field, level: Level): boolean {
  const table = field.table === null ? undefined : resource.tables[field.table];
  if (!table || field.readOnly || table.lookup) return false;
  if (resource.kind === 'many-to-many' && level === 'child' && table.role !== 'Join')
    return table.role === 'Child' && field.column !== null && table.primaryKey.includes(field.column);
  const linked = table.links.some((l) => field.column !== null && l.columns.includes(field.column));
  return !field.nullable && !field.hasDefault && !field.generated && !linked;
}

function ruleText(rule: SqlResource['validations'][number]): string {
  const parts = Object.entries(rule).filter(([k, v]) => k !== 'name' && v !== undefined);
  return `validated: ${parts.map(([k, v]) => `${k}=${v}`).join(', ')}`;
}

/** `{label}` for each label, joined as path segments. */
const placeholders = (labels: readonly string[]) => labels.map((l) => `{${l}}`).join('/');

function examplesOf(resource: SqlResource): string[] {
  const base = `/res/${resource.name}`;
  const key = keyLabels(resource, tableWithRole(resource, 'Parent'));
  const keyPath = key ? `/${placeholders(key)}` : '';
  const filter = resource.fields.find((f) => !f.readOnly && !f.primaryKey)?.label;
  return [
    `GET ${base}`,
    `GET ${base}?_limit=10&_offset=10`,
    ...(filter ? [`GET ${base}?${filter}={value}&_limit=10&_output=json`] : []),
    ...(key ? [`GET ${base}${keyPath}`, `PUT ${base}${keyPath} (form fields)`, `DELETE ${base}${keyPath}`] : []),
    ...(resource.kind === 'many-to-many' && key ? associations(resource, base, key) : []),
    ...(resource.kind === 'many-to-many'
      ? []
      : [
          `POST ${base} (form fields, or <request><${resource.rowName} .../></request>, or {"${resource.collectionName}":[...]})`,
        ]),
  ];
}

/** A many-to-many resource inserts and deletes associations: each child is named by its key alone. */
function associations(resource: SqlResource, base: string, parentKey: readonly string[]): string[] {
  const childKey = keyLabels(resource, tableWithRole(resource, 'Child'));
  if (!childKey) return [];
  const { rowName, collectionName, childRowName = '', childCollectionName = '' } = resource;
  const xmlChild = `<${childRowName} ${childKey.map((l) => `${l}="{${l}}"`).join(' ')}/>`;
  const jsonChild = `{${childKey.map((l) => `"${l}":{${l}}`).join(',')}}`;
  const jsonParent = `{"${collectionName}":[{${parentKey.map((l) => `"${l}":{${l}}`).join(',')},"${childCollectionName}":[${jsonChild}]}]}`;
  const xmlParent = `<request><${rowName} ${parentKey.map((l) => `${l}="{${l}}"`).join(' ')}>${xmlChild}</${rowName}></request>`;
  return [
    `POST ${base}/${placeholders(parentKey)} <request>${xmlChild}</request> or {"${childCollectionName}":[${jsonChild}]} (associates an existing ${childRowName} by its key)`,
    `POST ${base} ${xmlParent} or ${jsonParent} (associations of existing rows, by their keys)`,
    `DELETE ${base} ${jsonParent} (removes the association; both rows stay)`,
  ];
}

/** An example as a list item: a GET that needs no value filled in is a link to try it. */
function exampleHtml(example: string, base: string): string {
  const path = /^GET (\/\S*)$/.exec(example)?.[1];
  if (path === undefined || path.includes('{')) return `<li><code>${html(example)}</code></li>`;
  return `<li><code>GET ${link(`${base}${path}`, path)}</code></li>`;
}

/** `base`: the path prefix the service is mounted under ('' or e.g. `/dev`). */
export function documentationHtml(doc: Documentation, base: string): string {
  const rows = doc.fields
    .map(
      (f) =>
        `<tr><td><code>${html(f.label)}</code></td><td>${f.level}</td><td>${f.type}</td><td>${html(f.dbType)}</td><td>${html(f.notes)}</td></tr>`,
    )
    .join('');
  const schemaLinks = doc.schemas.map((s) => link(`${base}${s}`, s));
  const body = [
    `<h1>${html(doc.name)}</h1>${resourceNav(base, doc.name, 'documentation')}<p>A ${doc.kind} SQL resource.</p>`,
    doc.description ? `<p>${html(doc.description)}</p>` : '',
    '<h2>Fields</h2><p>Required: an insert must send the field (it has no default and is not generated).</p>',
    scrolling(
      `<table><tr><th>label</th><th>level</th><th>type</th><th>database type</th><th>notes</th></tr>${rows}</table>`,
    ),
    '<h2>Examples</h2><ul>',
    doc.examples.map((e) => exampleHtml(e, base)).join(''),
    `</ul><h2>XML schemas</h2><p>Request bodies: ${schemaLinks.join(', responses: ')}.</p>`,
  ].join('');
  return htmlPage(doc.name, base, body);
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', suppressEmptyNode: true });

export function documentationXml(doc: Documentation): string {
  const body = {
    documentation: {
      '@name': doc.name,
      '@kind': doc.kind,
      description: doc.description,
      field: doc.fields.map((f) => Object.fromEntries(Object.entries(f).map(([k, v]) => [`@${k}`, v]))),
      example: doc.examples,
      schema: doc.schemas,
    },
  };
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build(body)}`;
}
