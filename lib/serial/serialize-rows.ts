/**
 * The one piece of code that writes rows out, shared by read and write responses: an XML document whose root
 * holds one element per row (children nested, NULL attributes omitted), and a JSON collection property built
 * from raw tokens so decimals keep their digits. Both are written straight into one string: a response of 100
 * rows is most of a read's work outside the database, and a document model (fast-xml-parser's builder) cost
 * several times more than the text itself. Many rows are written a slice at a time (map-in-slices), so a big
 * response holds other requests up for a slice at a time. Pure; must not look at anything but its arguments.
 */
import { type AtOnceOrLater, fitsOneSlice, forEachInSlices, sliceRows, thenAtOnce } from '../map-in-slices';
import type { SqlResource, ValueType } from '../resource';
import { escapeXmlAttribute } from '../text';
import type { OutRow } from '../values';
import { valueJson, valueText } from './format-value';

const declaration = '<?xml version="1.0" encoding="UTF-8"?>';

/** An attribute value, escaped; the apostrophe too, as `&apos;` (as the service's documents have always had it). */
function attributeValue(text: string): string {
  const escaped = escapeXmlAttribute(text);
  return escaped.includes("'") ? escaped.replaceAll("'", '&apos;') : escaped;
}

/** Each field's value type, and its JSON property name ready to write (`"label":`), per resource. */
interface FieldWriting {
  readonly types: ReadonlyMap<string, ValueType>;
  readonly jsonNames: ReadonlyMap<string, string>;
}

const writings = new WeakMap<SqlResource, FieldWriting>();

function fieldWriting(resource: SqlResource): FieldWriting {
  let writing = writings.get(resource);
  if (!writing) {
    writing = {
      types: new Map(resource.fields.map((field) => [field.label, field.type])),
      jsonNames: new Map(resource.fields.map((field) => [field.label, `${JSON.stringify(field.label)}:`])),
    };
    writings.set(resource, writing);
  }
  return writing;
}

/** A row weighs one more for each child row in it, in the slices it is written in. */
const rowWeight = (row: OutRow) => 1 + (row.children?.length ?? 0);

/** Rows whose texts are joined into one string before the next ones: one string per slice of rows, about. */
const joinedRows = sliceRows;

/**
 * The texts of `rows`, each written by `write`, with `separator` between them, a slice of rows at a time. Each slice's
 * texts are joined into one flat string: a string built by `+=` alone is a rope of every piece, and whoever reads the
 * whole response first (its byte length) would flatten it all at once, some 50 ms for 30,000 rows.
 */
function rowsText(rows: readonly OutRow[], write: (row: OutRow) => string, separator: string): AtOnceOrLater<string> {
  // a slice of rows or less (every read of a row, most writes) is written at once: no promise, no turn to wait for;
  // a row it cannot write rejects, as with more rows
  if (fitsOneSlice(rows, { weight: rowWeight })) {
    try {
      return rows.map(write).join(separator);
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return slicedRowsText(rows, write, separator);
}

async function slicedRowsText(rows: readonly OutRow[], write: (row: OutRow) => string, separator: string) {
  const joined: string[] = [];
  let texts: string[] = [];
  const writeRow = (row: OutRow) => {
    texts.push(write(row));
    if (texts.length < joinedRows) return;
    joined.push(texts.join(separator));
    texts = [];
  };
  await forEachInSlices(rows, writeRow, { weight: rowWeight });
  if (texts.length > 0) joined.push(texts.join(separator));
  return joined.join(separator);
}

/** `<?xml ...?><root attrs>rows</root>`, or a self-closed root when there are no rows. */
export function serializeXmlDocument(
  resource: SqlResource,
  root: string,
  rootAttributes: Readonly<Record<string, string>>,
  rows: readonly OutRow[],
): AtOnceOrLater<string> {
  const { types } = fieldWriting(resource);
  let out = `${declaration}<${root}`;
  for (const name in rootAttributes) out += ` ${name}="${attributeValue(rootAttributes[name] as string)}"`;
  if (rows.length === 0) return `${out}/>`;
  const childName = resource.childRowName;
  const writeRow = (row: OutRow) => {
    const children = row.children ?? [];
    const start = xmlStartTag(resource.rowName, types, row.values);
    if (children.length === 0) return `${start}/>`;
    // children cannot nest further, so a child's own children are never looked at
    if (childName === undefined) throw childlessResource(resource);
    let out = `${start}>`;
    for (const child of children) out += `${xmlStartTag(childName, types, child.values)}/>`;
    return `${out}</${resource.rowName}>`;
  };
  return thenAtOnce(rowsText(rows, writeRow, ''), (text) => `${out}>${text}</${root}>`);
}

/** `<name a="1" b="x"`, left open: NULL values are left out. */
function xmlStartTag(name: string, types: ReadonlyMap<string, ValueType>, values: OutRow['values']): string {
  let out = `<${name}`;
  for (const label of Object.keys(values)) {
    const text = valueText(types.get(label) ?? 'string', values[label] ?? null);
    if (text !== null) out += ` ${label}="${attributeValue(text)}"`;
  }
  return out;
}

/** `"<collectionName>":[...]`, a property ready to place in an object. */
export function serializeJsonRows(resource: SqlResource, rows: readonly OutRow[]): AtOnceOrLater<string> {
  const writing = fieldWriting(resource);
  const childCollection = resource.kind === 'flat' ? undefined : resource.childCollectionName;
  const childName = childCollection === undefined ? undefined : `${JSON.stringify(childCollection)}:`;
  const writeRow = (row: OutRow) => {
    let members = jsonMembers(writing, row.values);
    // a hierarchical parent always carries its child collection, `[]` when it has none
    if (childName !== undefined) {
      const children = (row.children ?? []).map((child) => `{${jsonMembers(writing, child.values)}}`);
      members += `${members === '' ? '' : ','}${childName}[${children.join(',')}]`;
    } else if (row.children !== undefined && row.children.length > 0) {
      throw childlessResource(resource);
    }
    return `{${members}}`;
  };
  const name = JSON.stringify(resource.collectionName);
  return thenAtOnce(rowsText(rows, writeRow, ','), (text) => `${name}:[${text}]`);
}

/** Property names as JSON strings; values as the raw tokens valueJson gives (numbers keep their digits). */
function jsonMembers({ types, jsonNames }: FieldWriting, values: OutRow['values']): string {
  let out = '';
  for (const label of Object.keys(values)) {
    const name = jsonNames.get(label) ?? `${JSON.stringify(label)}:`;
    out += `${out === '' ? '' : ','}${name}${valueJson(types.get(label) ?? 'string', values[label] ?? null)}`;
  }
  return out;
}

function childlessResource(resource: SqlResource): Error {
  return new Error(`Rows of resource ${resource.name} cannot carry children: it has no child rows`);
}
