/**
 * The one piece of code that writes rows out, shared by read and write responses: an XML document whose root
 * holds one element per row (children nested, NULL attributes omitted), and a JSON collection property built
 * from raw tokens so decimals keep their digits. Pure; must not look at anything but its arguments.
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { SqlResource, ValueType } from '../resource';
import { escapeXmlAttribute } from '../text';
import type { OutRow } from '../values';
import { formatValue } from './format-value';

/** A node in fast-xml-parser's ordered ("preserveOrder") shape: `{ name: children, ':@': attributes }`. */
type XmlNode = Record<string, XmlNode[] | Record<string, string>>;

/**
 * Ordered mode keeps rows and attributes in the order given; entity processing is off because
 * escapeXmlAttribute does it (XMLBuilder would write tabs and line breaks raw); the text "true" must stay `a="true"`, never a bare boolean attribute (the
 * unordered builder would shorten it); an element without children is written self-closed (`<readResponse/>`).
 */
const builder = new XMLBuilder({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: false,
  suppressBooleanAttributes: false,
  suppressEmptyNode: true,
  attributeValueProcessor: (_name, value) => escapeXmlAttribute(String(value)),
});

const declaration: XmlNode = { '?xml': [], ':@': { version: '1.0', encoding: 'UTF-8' } };

/** `<?xml ...?><root attrs>rows</root>`, or a self-closed root when there are no rows. */
export function serializeXmlDocument(
  resource: SqlResource,
  root: string,
  rootAttributes: Readonly<Record<string, string>>,
  rows: readonly OutRow[],
): string {
  const types = fieldTypes(resource);
  const content = rows.map((row) => xmlRow(resource, types, row));
  return builder.build([declaration, { [root]: content, ':@': { ...rootAttributes } }]);
}

/** `"<collectionName>":[...]`, a property ready to place in an object. */
export function serializeJsonRows(resource: SqlResource, rows: readonly OutRow[]): string {
  const types = fieldTypes(resource);
  return `${JSON.stringify(resource.collectionName)}:[${rows.map((row) => jsonRow(resource, types, row)).join(',')}]`;
}

/** A parent (or flat) row; children cannot nest further, so a child's own children are never looked at. */
function xmlRow(resource: SqlResource, types: ReadonlyMap<string, ValueType>, row: OutRow): XmlNode {
  const children = row.children ?? [];
  const childName = resource.childRowName;
  if (childName === undefined) {
    if (children.length > 0) throw childlessResource(resource);
    return xmlElement(resource.rowName, types, row.values, []);
  }
  const content = children.map((child) => xmlElement(childName, types, child.values, []));
  return xmlElement(resource.rowName, types, row.values, content);
}

function xmlElement(name: string, types: ReadonlyMap<string, ValueType>, values: OutRow['values'], content: XmlNode[]) {
  const attributes = Object.fromEntries(
    Object.entries(values).flatMap(([label, value]) => {
      const formatted = formatValue(types.get(label) ?? 'string', value);
      return formatted === null ? [] : [[label, formatted.text]];
    }),
  );
  return { [name]: content, ':@': attributes };
}

/** A hierarchical parent always carries its child collection, `[]` when it has none. */
function jsonRow(resource: SqlResource, types: ReadonlyMap<string, ValueType>, row: OutRow): string {
  const members = jsonMembers(types, row.values);
  const childCollection = resource.kind === 'flat' ? undefined : resource.childCollectionName;
  if (childCollection !== undefined) {
    const children = (row.children ?? []).map((child) => `{${jsonMembers(types, child.values).join(',')}}`);
    members.push(`${JSON.stringify(childCollection)}:[${children.join(',')}]`);
  } else if (row.children !== undefined && row.children.length > 0) {
    throw childlessResource(resource);
  }
  return `{${members.join(',')}}`;
}

/** Property names and strings through JSON.stringify; numbers and booleans as the raw tokens formatValue gives. */
function jsonMembers(types: ReadonlyMap<string, ValueType>, values: OutRow['values']): string[] {
  return Object.entries(values).map(
    ([label, value]) => `${JSON.stringify(label)}:${formatValue(types.get(label) ?? 'string', value)?.json ?? 'null'}`,
  );
}

function fieldTypes(resource: SqlResource): ReadonlyMap<string, ValueType> {
  return new Map(resource.fields.map((field) => [field.label, field.type]));
}

function childlessResource(resource: SqlResource): Error {
  return new Error(`Rows of resource ${resource.name} cannot carry children: it has no child rows`);
}
