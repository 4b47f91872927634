/**
 * Documentation for people (/conf/documentation): the definition's `documentation` text, the fields with
 * their types, keys, flags and validation rules, and example requests. HTML for browsers, XML or JSON otherwise.
 * Pure.
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { SqlResource } from '../resource';
import { fieldLevels, keyLabels, tableWithRole } from '../resource-levels';
import { escapeHtml } from '../text';

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
      f.nullable ? '' : 'required',
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

function ruleText(rule: SqlResource['validations'][number]): string {
  const parts = Object.entries(rule).filter(([k, v]) => k !== 'name' && v !== undefined);
  return `validated: ${parts.map(([k, v]) => `${k}=${v}`).join(', ')}`;
}

function examplesOf(resource: SqlResource): string[] {
  const base = `/res/${resource.name}`;
  const key = keyLabels(resource, tableWithRole(resource, 'Parent'));
  const keyPath = key ? `/${key.map((l) => `{${l}}`).join('/')}` : '';
  const filter = resource.fields.find((f) => !f.readOnly && !f.primaryKey)?.label;
  return [
    `GET ${base}`,
    ...(filter ? [`GET ${base}?${filter}={value}&_limit=10&_output=json`] : []),
    ...(key ? [`GET ${base}${keyPath}`, `PUT ${base}${keyPath} (form fields)`, `DELETE ${base}${keyPath}`] : []),
    `POST ${base} (form fields, or <request><${resource.rowName} .../></request>, or {"${resource.collectionName}":[...]})`,
  ];
}

const html = escapeHtml;

export function documentationHtml(doc: Documentation): string {
  const rows = doc.fields
    .map(
      (f) =>
        `<tr><td><code>${html(f.label)}</code></td><td>${f.level}</td><td>${f.type}</td><td>${html(f.dbType)}</td><td>${html(f.notes)}</td></tr>`,
    )
    .join('');
  return [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
    `<title>${html(doc.name)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:left}</style>',
    `</head><body><h1>${html(doc.name)}</h1><p>A ${doc.kind} SQL resource.</p>`,
    doc.description ? `<p>${html(doc.description)}</p>` : '',
    '<h2>Fields</h2><table><tr><th>label</th><th>level</th><th>type</th><th>database type</th><th>notes</th></tr>',
    rows,
    '</table><h2>Examples</h2><ul>',
    doc.examples.map((e) => `<li><code>${html(e)}</code></li>`).join(''),
    '</ul><h2>XML schemas</h2><p>Request bodies: ',
    doc.schemas.map((s) => `<a href="${s}">${s}</a>`).join(', responses: '),
    '. Field names and types of this resource: <a href="/conf/metadata/',
    `${encodeURIComponent(doc.name)}">/conf/metadata/${html(doc.name)}</a>.</p></body></html>`,
  ].join('');
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
