/**
 * A request body's rows, read by the resource's names: XML row elements named by the row name or by the
 * table's name (restSQL clients write the latter), child rows nested in their parent's element; JSON an object
 * whose one key is the collection name, child rows under the child collection name. With the parent in the
 * path (C3, U4, D4) the rows are child rows. Any other name is a 400 naming it. Pure; values stay raw text.
 */
import { isLosslessNumber } from 'lossless-json';
import { BadRequestError } from '../errors';
import type { BodyRow, RawValue, RequestBody, XmlElement } from '../request/resource-request';
import type { SqlResource } from '../resource';
import { tableOf, tableWithRole } from '../resource-levels';

type JsonObject = Record<string, unknown>;

export function readBodyRows(resource: SqlResource, body: RequestBody): BodyRow[] {
  switch (body.type) {
    case 'form':
      return [body.row];
    case 'xml':
      return xmlRows(resource, body.root, body.shape);
    case 'json':
      return jsonRows(resource, body.document, body.shape);
  }
}

// XML -----------------------------------------------------------------------------------------------------------

function xmlRows(resource: SqlResource, root: XmlElement, shape: 'parents' | 'children'): BodyRow[] {
  const rowNames = elementNames(resource.rowName, tableOf(resource, 'Parent').table);
  const child = tableWithRole(resource, 'Child');
  const childNames =
    resource.childRowName === undefined ? undefined : elementNames(resource.childRowName, child?.table);
  if (shape === 'parents') return elementsIn(root, rowNames).map((row) => parentRow(row, childNames));
  if (childNames === undefined) throw noChildRows();
  return elementsIn(root, childNames).map(leafRow);
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
function elementsIn(parent: XmlElement, allowed: readonly string[]): XmlElement[] {
  for (const child of parent.children) {
    if (!allowed.includes(child.name)) {
      const expected = allowed.length === 0 ? 'no elements are allowed there' : `expected ${allowed.join(' or ')}`;
      throw bad(`The XML body has an element ${child.name} inside ${parent.name}; ${expected}`);
    }
  }
  return [...parent.children];
}

// JSON ----------------------------------------------------------------------------------------------------------

function jsonRows(resource: SqlResource, document: unknown, shape: 'parents' | 'children'): BodyRow[] {
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
  const childCollection = shape === 'parents' ? resource.childCollectionName : undefined;
  return rowObjects(document[collection], quoted).map(([row, where]) => toBodyRow(row, where, childCollection));
}

/** `value` must be an array of objects; `where` names it in messages. Returns each row with its own `where`. */
function rowObjects(value: unknown, where: string): [JsonObject, string][] {
  if (!Array.isArray(value))
    throw bad(`In the JSON body, ${where} must be an array of row objects; found ${describe(value)}`);
  return value.map((row: unknown, index): [JsonObject, string] => {
    const rowWhere = `row ${index + 1} of ${where}`;
    if (!isObject(row)) throw bad(`In the JSON body, ${rowWhere} must be an object; found ${describe(row)}`);
    return [row, rowWhere];
  });
}

/** Only the child collection of a hierarchical parent may hold rows; every other property is a plain value. */
function toBodyRow(row: JsonObject, where: string, childCollection: string | undefined): BodyRow {
  const values: [string, RawValue][] = [];
  let children: BodyRow[] | undefined;
  for (const [name, value] of Object.entries(row)) {
    if (name === childCollection) {
      children = rowObjects(value, `${JSON.stringify(name)} in ${where}`).map(([child, childWhere]) =>
        toBodyRow(child, childWhere, undefined),
      );
    } else {
      values.push([name, toRawValue(value, `property ${JSON.stringify(name)} of ${where}`)]);
    }
  }
  const result = { values: Object.fromEntries(values) };
  return children === undefined ? result : { ...result, children };
}

/** A number keeps its exact digits as a string; the converter treats JSON strings and numbers alike. */
function toRawValue(value: unknown, where: string): RawValue {
  if (isLosslessNumber(value)) return value.value;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  throw bad(`In the JSON body, ${where} must be a string, number, boolean or null; found ${describe(value)}`);
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
