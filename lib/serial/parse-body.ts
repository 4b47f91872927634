/**
 * Request bodies → rows (D10, D13): picks the reader for the body's type. Pure; the rows keep their raw text —
 * checking labels and converting values is the next stage's job, not this one's.
 */
import type { BodyRow, BodyType } from '../request/resource-request';
import { parseFormBody } from './parse-form-body';
import { parseJsonBody } from './parse-json-body';
import { parseXmlBody } from './parse-xml-body';
import type { BodyNames } from './types';

export type { BodyNames } from './types';

/**
 * `parents`: rows of the resource, hierarchical ones possibly with children (C2, U1, D1). `children`: child rows
 * of the parent named in the path (C3, U4, D4). A form body is always one row, whatever the shape.
 */
export function parseBody(type: BodyType, text: string, names: BodyNames, shape: 'parents' | 'children'): BodyRow[] {
  switch (type) {
    case 'form':
      return [parseFormBody(text)];
    case 'xml':
      return parseXmlBody(text, names, shape);
    case 'json':
      return parseJsonBody(text, names, shape);
  }
}
