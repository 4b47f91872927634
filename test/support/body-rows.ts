/**
 * Reads a body as the service does, for tests of the body readers: the request stage's syntax reader for the
 * type (XML, JSON, form), then the planner's reading of rows by a resource's names. Test code only.
 */

import { ServiceError } from '../../lib/errors';
import { readBodyRows } from '../../lib/plan/read-body-rows';
import { parseFormBody } from '../../lib/request/parse-form-body';
import { readCsvBody } from '../../lib/request/read-csv-body';
import { readJsonBody } from '../../lib/request/read-json-body';
import { readXmlBody } from '../../lib/request/read-xml-body';
import type { BodyRow, BodyType, RequestBody } from '../../lib/request/resource-request';
import type { ResourceTable, SqlResource } from '../../lib/resource';

/** The names a body uses: row and collection names, and the tables' names XML rows may use instead. */
export interface BodyNames {
  readonly rowName: string;
  readonly collectionName: string;
  readonly childRowName?: string;
  readonly childCollectionName?: string;
  readonly rowTable?: string;
  readonly childTable?: string;
}

function table(name: string, role: ResourceTable['role']): ResourceTable {
  return { name, schema: 'test', table: name, role, primaryKey: [], generatedColumns: [], uniqueKeys: [], links: [] };
}

/** A resource with these names and nothing else: enough for reading rows. */
function resourceNamed(names: BodyNames): SqlResource {
  const parent = table(names.rowTable ?? names.rowName, 'Parent');
  const child = names.childRowName ? table(names.childTable ?? names.childRowName, 'Child') : undefined;
  return {
    name: 'test.Names',
    file: 'Names.xml',
    kind: child ? 'one-to-many' : 'flat',
    database: 'test',
    engine: 'postgres',
    query: 'select 1',
    rowName: names.rowName,
    collectionName: names.collectionName,
    childRowName: names.childRowName,
    childCollectionName: names.childCollectionName,
    tables: Object.fromEntries([parent, ...(child ? [child] : [])].map((t) => [t.name, t])),
    fields: [],
    validations: [],
    cacheControl: 'no-cache, no-transform',
  };
}

export function parseBody(
  type: BodyType,
  text: string,
  names: BodyNames,
  shape: 'parents' | 'children',
): Promise<BodyRow[]> {
  const body: RequestBody =
    type === 'form'
      ? { type, row: parseFormBody(text) }
      : type === 'xml'
        ? { type, shape, root: readXmlBody(text) }
        : type === 'json'
          ? { type, shape, document: readJsonBody(text) }
          : { type, shape: 'parents' as const, rows: readCsvBody(text) };
  return readBodyRows(resourceNamed(names), body);
}

/** Names as the flat and hierarchical resources use them in request bodies. */
export const flatNames = { rowName: 'item', collectionName: 'items' };
export const hierarchicalNames = {
  rowName: 'lang',
  collectionName: 'langs',
  childRowName: 'movie',
  childCollectionName: 'movies',
};

/** What `attempt` threw or rejected with, reduced to what a client sees; undefined when it did not fail. */
export async function failure(
  attempt: () => unknown,
): Promise<{ error: string; status: number; code: string; message: string } | undefined> {
  try {
    await attempt();
  } catch (thrown) {
    if (!(thrown instanceof ServiceError)) throw thrown;
    return { error: thrown.name, status: thrown.status, code: thrown.code, message: thrown.message };
  }
  return undefined;
}

/** The failure a malformed or misnamed body gives. */
export function badBody(message: string) {
  return { error: 'BadRequestError', status: 400, code: 'bad_body', message };
}
