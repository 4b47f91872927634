/**
 * A write request as the request stage hands it to the planner, built from a test's case: the operation, path
 * keys and filters, and the body's rows written in the resource's names (a form's one row, XML row elements, a
 * JSON collection whose numbers keep their digits as the JSON reader keeps them, CSV rows as they are). With a key in the path, the
 * rows of a hierarchical resource are its child rows, as parseRequest reads them. Test code only.
 */
import { LosslessNumber } from 'lossless-json';
import type { BodyRow, BodyType, RawFilter, WriteRequest, XmlElement } from '../../lib/request/resource-request';
import type { SqlResource } from '../../lib/resource';

/** A write as a case states it: the request's parts, and the rows of its body, if it has one. */
export interface WriteCase {
  readonly op: WriteRequest['op'];
  readonly pathKeys: readonly string[];
  readonly filters: readonly RawFilter[];
  readonly bodyType?: BodyType;
  readonly rows?: readonly BodyRow[];
}

export function writeRequest(
  resource: SqlResource,
  { op, pathKeys, filters, bodyType, rows = [] }: WriteCase,
): WriteRequest {
  const request = { op, name: resource.name, pathKeys, query: { filters } };
  if (bodyType === undefined) return request;
  const shape = pathKeys.length > 0 ? 'children' : 'parents';
  // a flat resource has no child rows: its body is written as its own rows, which the planner refuses with a path key
  const childRows = shape === 'children' && resource.kind !== 'flat';
  switch (bodyType) {
    case 'form': {
      const [row, ...more] = rows;
      if (row === undefined || more.length > 0) throw new Error('A form body holds exactly one row');
      return { ...request, body: { type: 'form', row } };
    }
    case 'xml':
      return { ...request, body: { type: 'xml', shape, root: xmlBody(resource, rows, childRows) } };
    case 'json':
      return { ...request, body: { type: 'json', shape, document: jsonBody(resource, rows, childRows) } };
    case 'csv':
      return { ...request, body: { type: 'csv', shape: 'parents', rows } };
  }
}

function xmlBody(resource: SqlResource, rows: readonly BodyRow[], childRows: boolean): XmlElement {
  const element = (name: string | undefined, row: BodyRow): XmlElement => {
    const attributes = Object.entries(row.values).map(([label, value]) => {
      if (typeof value !== 'string') throw new Error(`An XML attribute is text: ${label} is ${String(value)}`);
      return [label, value];
    });
    return {
      name: name ?? '',
      attributes: Object.fromEntries(attributes),
      children: (row.children ?? []).map((child) => element(resource.childRowName, child)),
    };
  };
  const rowName = childRows ? resource.childRowName : resource.rowName;
  const collection = childRows ? resource.childCollectionName : resource.collectionName;
  return { name: collection ?? '', attributes: {}, children: rows.map((row) => element(rowName, row)) };
}

function jsonBody(resource: SqlResource, rows: readonly BodyRow[], childRows: boolean): unknown {
  const object = (row: BodyRow): Record<string, unknown> => {
    const values = Object.entries(row.values).map(([label, value]) => [
      label,
      typeof value === 'number' ? new LosslessNumber(String(value)) : value,
    ]);
    const children =
      row.children && resource.childCollectionName ? { [resource.childCollectionName]: row.children.map(object) } : {};
    return { ...Object.fromEntries(values), ...children };
  };
  const collection = childRows ? resource.childCollectionName : resource.collectionName;
  return { [collection ?? '']: rows.map(object) };
}
