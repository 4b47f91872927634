/**
 * A request body's rows, read by the resource's names: XML row elements named by the row name or by the
 * table's name (restSQL clients write the latter), child rows nested in their parent's element; JSON an object
 * whose one key is the collection name, child rows under the child collection name. With the parent in the
 * path the rows are child rows; CSV rows as they are, on a flat resource only (415 otherwise). Any other name is a 400 naming it. A body's rows are read a slice at a
 * time (map-in-slices), every row's names checked before any row is read, as a plain loop would. Pure; values stay
 * raw text.
 */
import { isLosslessNumber } from 'lossless-json';
import { BadRequestError, NegotiationError } from '../errors';
import { forEachInSlices, mapInSlices } from '../map-in-slices';
import type { BodyRow, RawValue, RequestBody, XmlElement } from '../request/resource-request';
import type { SqlResource } from '../resource';
import { tableOf, tableWithRole } from '../resource-levels';

type JsonObject = Record<string, unknown>;

export async function readBodyRows(resource: SqlResource, body: RequestBody): Promise<BodyRow[]> {
  switch (body.type) {
    case 'form':
      return [body.row];
    case 'xml':
      return xmlRows(resource, body.root, body.shape);
    case 'json':
      return jsonRows(resource, body.document, body.shape);
    case 'csv':
      return csvRows(resource, body.rows);
  }
}

// CSV -----------------------------------------------------------------------------------------------------------

/** One CSV record is one row: a hierarchical resource's rows hold child rows, which no CSV record can. */
function csvRows(resource: SqlResource, rows: readonly BodyRow[]): BodyRow[] {
  if (resource.kind !== 'flat') {
    throw new NegotiationError(
      415,
      'unsupported_media_type',
      `Resource ${resource.name} is hierarchical (its rows hold ${resource.childCollectionName}), and a text/csv body holds flat rows only; send its rows as application/xml or application/json`,
    );
  }
  return [...rows];
}

// XML -----------------------------------------------------------------------------------------------------------

async function xmlRows(resource: SqlResource, root: XmlElement, shape: 'parents' | 'children'): Promise<BodyRow[]> {
  const rowNames = elementNames(resource.rowName, tableOf(resource, 'Parent').table);
  const child = tableWithRole(resource, 'Child');
  const childNames =
    resource.childRowName === undefined ? undefined : elementNames(resource.childRowName, child?.table);
  if (shape === 'parents') {
    await forEachInSlices(root.children, (row) => checkElement(root, row, rowNames));
    // a row weighs one more for each child row in it
    return mapInSlices(root.children, (row) => parentRow(row, childNames), {
      weight: (row) => 1 + row.children.length,
    });
  }
  if (childNames === undefined) throw noChildRows();
  await forEachInSlices(root.children, (row) => checkElement(root, row, childNames));
  return mapInSlices(root.children, leafRow);
}

/** A row element is named by its row name, or by its table's name. */
function elementNames(rowName: string, table: string | undefined): string[] {
  return table === undefined || table === rowName ? [rowName] : [rowName, table];
}

/** In a hierarchical body, child rows are nested in their parent's element. */
function parentRow(row: XmlElement, childNames: readonly string[] | undefined): BodyRow {
  if (childNames === undefined) return leafRow(row);
  const children = elementsIn(row, childNames).map(leafRow);
  return children.length === 0 ? { values: row.attributes } : { values: row.attributes, children };
}

/** A row that may hold nothing but its attributes: children cannot nest further. */
function leafRow(row: XmlElement): BodyRow {
  elementsIn(row, []);
  return { values: row.attributes };
}

/** The element children of `parent`, each checked against `allowed`. */
function elementsIn(parent: XmlElement, allowed: readonly string[]): readonly XmlElement[] {
  for (const child of parent.children) checkElement(parent, child, allowed);
  return parent.children;
}

function checkElement(parent: XmlElement, child: XmlElement, allowed: readonly string[]): void {
  if (allowed.includes(child.name)) return;
  const expected = allowed.length === 0 ? 'no elements are allowed there' : `expected ${allowed.join(' or ')}`;
  throw bad(`The XML body has an element ${child.name} inside ${parent.name}; ${expected}`);
}

// JSON ----------------------------------------------------------------------------------------------------------

async function jsonRows(resource: SqlResource, document: unknown, shape: 'parents' | 'children'): Promise<BodyRow[]> {
  const collection = shape === 'parents' ? resource.collectionName : resource.childCollectionName;
  if (collection === undefined) throw noChildRows();
  const quoted = JSON.stringify(collection);
  if (!isObject(document)) {
    throw bad(`The JSON body must be an object with the key ${quoted}; found ${describe(document)}`);
  }
  const keys = Object.keys(document);
  if (keys.length !== 1 || keys[0] !== collection) {
    const found = keys.length === 0 ? 'no keys' : keys.map((key) => JSON.stringify(key)).join(', ');
    throw bad(`The JSON body must have exactly one key, ${quoted}; found ${found}`);
  }
  const rows = arrayOf(document[collection], quoted);
  await forEachInSlices(rows, (row, index) => checkRowObject(row, rowWhere(index, quoted)));
  const childCollection = shape === 'parents' ? resource.childCollectionName : undefined;
  // a row weighs one more for each child row in it
  const weight = (row: unknown) => 1 + childCount(row as JsonObject, childCollection);
  return mapInSlices(rows as JsonObject[], (row, index) => toBodyRow(row, rowWhere(index, quoted), childCollection), {
    weight,
  });
}

/** `value` must be an array; `where` names it in messages. */
function arrayOf(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value))
    throw bad(`In the JSON body, ${where} must be an array of row objects; found ${describe(value)}`);
  return value;
}

function checkRowObject(row: unknown, where: string): asserts row is JsonObject {
  if (!isObject(row)) throw bad(`In the JSON body, ${where} must be an object; found ${describe(row)}`);
}

const rowWhere = (index: number, where: string) => `row ${index + 1} of ${where}`;

function childCount(row: JsonObject, childCollection: string | undefined): number {
  const children = childCollection === undefined ? undefined : row[childCollection];
  return Array.isArray(children) ? children.length : 0;
}

/**
 * Only the child collection of a hierarchical parent may hold rows; every other property is a plain value. The
 * messages' places are written only for an error: a body of many rows has many properties.
 */
function toBodyRow(row: JsonObject, where: string, childCollection: string | undefined): BodyRow {
  const values: [string, RawValue][] = [];
  let children: BodyRow[] | undefined;
  for (const [name, value] of Object.entries(row)) {
    if (name === childCollection) {
      const childrenWhere = `${JSON.stringify(name)} in ${where}`;
      const objects = arrayOf(value, childrenWhere);
      for (const [index, child] of objects.entries()) checkRowObject(child, rowWhere(index, childrenWhere));
      children = (objects as JsonObject[]).map((child, index) =>
        toBodyRow(child, rowWhere(index, childrenWhere), undefined),
      );
    } else {
      values.push([name, toRawValue(value, name, where)]);
    }
  }
  const result = { values: Object.fromEntries(values) };
  return children === undefined ? result : { ...result, children };
}

/** A number keeps its exact digits as a string; the converter treats JSON strings and numbers alike. */
function toRawValue(value: unknown, name: string, where: string): RawValue {
  if (isLosslessNumber(value)) return value.value;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  throw bad(
    `In the JSON body, property ${JSON.stringify(name)} of ${where} must be a string, number, boolean or null; found ${describe(value)}`,
  );
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (isLosslessNumber(value)) return 'a number';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function noChildRows(): BadRequestError {
  return bad('The body lists child rows, but this resource has no child rows');
}

function bad(message: string): BadRequestError {
  return new BadRequestError('bad_body', message);
}
