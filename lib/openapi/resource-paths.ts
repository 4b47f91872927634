/**
 * The path items of one resource: `/res/{name}` with GET, POST, PUT and DELETE of rows; `/res/{name}/{key}...`
 * with GET, PUT and DELETE of one row, and POST of child rows (hierarchical only). Each summary names its operations
 * as docs/operations.md does (R1, C1...). A resource
 * whose query does not select its Parent key cannot address rows by key: it gets reads, inserts, and updates and
 * deletes by filter. Pure; must not describe schemas (resource-schemas does).
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { SqlResource } from '../resource';
import { operationId } from './component-names';
import { type ErrorStatus, errorRefs } from './error-responses';
import { type BodyOptions, notModifiedResponse, readResponse, requestBody, writeResponse } from './operation-content';
import type { PathItem } from './path-item';
import { filterRefs, keyParameters, limitRef, orderRef, pathKeyLabels, sharedRef } from './query-parameters';

const readErrors: readonly ErrorStatus[] = [400, 404, 406, 413, 500];
const writeErrors: readonly ErrorStatus[] = [400, 404, 406, 409, 413, 415, 500];

interface Operation {
  readonly verb: 'read' | 'insert' | 'update' | 'delete';
  readonly suffix?: string;
  readonly summary: string;
  readonly description: string;
  readonly parameters: readonly OpenAPIV3_1.ReferenceObject[];
  readonly body?: BodyOptions;
  /** It addresses rows by key (the path's, or each body row's), so If-Match applies. */
  readonly byKey?: boolean;
  /** A read of rows: its response says where its page is. */
  readonly paged?: true;
}

function operation(resource: SqlResource, op: Operation): OpenAPIV3_1.OperationObject {
  const read = op.verb === 'read';
  // writes of rows by key take If-Match: PUT and DELETE of rows in the body or of the row in the path
  const conditional = op.byKey === true && (op.verb === 'update' || op.verb === 'delete');
  const conditions = read ? [sharedRef('IfNoneMatch')] : conditional ? [sharedRef('IfMatch')] : [];
  const statuses = read ? readErrors : conditional ? conditionalErrors(resource) : writeErrors;
  return {
    tags: [resource.name],
    summary: op.summary,
    description: op.description,
    operationId: operationId(op.verb, resource, op.suffix),
    parameters: [...op.parameters, ...conditions],
    ...(op.body ? { requestBody: requestBody(resource, op.body) } : {}),
    responses: {
      '200': read
        ? readResponse(resource, op.paged)
        : writeResponse(resource, op.verb === 'insert', conditional && op.suffix === 'ByKey' && op.verb === 'update'),
      ...(read ? { '304': notModifiedResponse } : {}),
      ...errorRefs(statuses),
    },
  };
}

function conditionalErrors(resource: SqlResource): ErrorStatus[] {
  const statuses: ErrorStatus[] = [...writeErrors, 412, ...(resource.ifMatchRequired ? [428 as const] : [])];
  return statuses.sort((a, b) => a - b);
}

function childText(resource: SqlResource, text: (child: string) => string): string {
  return resource.childRowName ? text(resource.childRowName) : '';
}

function readRows(resource: SqlResource): OpenAPIV3_1.OperationObject {
  return operation(resource, {
    verb: 'read',
    summary: `R1: read ${resource.collectionName}`,
    description:
      'The rows matching every filter, all rows without any; ordered by _order, paged with _limit and _offset or _after (the Link of the previous page); with `Prefer: count=exact`, their total.',
    parameters: [
      ...filterRefs(resource),
      limitRef(resource),
      sharedRef('Offset'),
      orderRef(resource),
      sharedRef('After'),
      sharedRef('Output'),
      sharedRef('Prefer'),
    ],
    paged: true,
  });
}

function insertRows(resource: SqlResource): OpenAPIV3_1.OperationObject {
  const children = childText(
    resource,
    (child) => `, each optionally with ${child} rows (a parent key naming an existing row relates the children to it)`,
  );
  return operation(resource, {
    verb: 'insert',
    summary: `C1, C2: insert ${resource.collectionName}`,
    description: `C1: a form body is one ${resource.rowName} row. C2: JSON or XML rows${children}${resource.kind === 'flat' ? ', or CSV rows' : ''}. Generated keys may be omitted; the response returns them.`,
    parameters: [sharedRef('Output'), sharedRef('MethodOverride')],
    body: {
      rows: 'parents',
      form: true,
      csv: resource.kind === 'flat',
      required: true,
      description: 'The rows to insert.',
    },
  });
}

function updateRows(resource: SqlResource): OpenAPIV3_1.OperationObject {
  const children = childText(resource, (child) => ` (or only its key and the ${child} rows to change; not both)`);
  return operation(resource, {
    verb: 'update',
    summary: `U1, U2: update ${resource.collectionName}`,
    description: `U1: JSON or XML rows, each with its full key and the fields to change${children}. U2: form fields with the new values of every row the query filters match; at least one filter.`,
    byKey: true,
    parameters: [...filterRefs(resource), sharedRef('Output')],
    body: { rows: 'parents', form: true, required: true, description: 'The rows or new values.' },
  });
}

function deleteRows(resource: SqlResource): OpenAPIV3_1.OperationObject {
  const children = childText(resource, (child) => `; rows holding ${child} rows delete (or unlink) only those`);
  return operation(resource, {
    verb: 'delete',
    summary: `D1, D2: delete ${resource.collectionName}`,
    description: `D1: JSON or XML rows named by their keys${children}. D2: no body, the rows the query filters match; at least one filter.${deleteRule(resource)}`,
    byKey: true,
    parameters: [...filterRefs(resource), sharedRef('Output')],
    body: { rows: 'parents', audience: 'keys', required: false, description: 'D1: the rows to delete.' },
  });
}

function deleteRule(resource: SqlResource): string {
  if (resource.kind === 'one-to-many')
    return ` Deleting a ${resource.rowName} deletes its ${resource.childRowName} rows too.`;
  if (resource.kind === 'many-to-many')
    return ` Deleting a ${resource.rowName} removes its links to ${resource.childRowName} rows; those rows stay.`;
  return '';
}

function readOne(resource: SqlResource): OpenAPIV3_1.OperationObject {
  return operation(resource, {
    verb: 'read',
    suffix: 'ByKey',
    summary: `R2: read one ${resource.rowName}`,
    description: 'The row with this key, or an empty collection when there is none.',
    parameters: [sharedRef('Output')],
  });
}

function updateOne(resource: SqlResource): OpenAPIV3_1.OperationObject {
  const hierarchical = resource.kind !== 'flat';
  const children = childText(
    resource,
    (child) =>
      ` U4: JSON or XML ${child} rows of this ${resource.rowName}, each with its key and the fields to change.`,
  );
  return operation(resource, {
    verb: 'update',
    suffix: 'ByKey',
    summary: `U3${hierarchical ? ', U4' : ''}: update one ${resource.rowName}`,
    description: `U3: form fields with its new values; rowsAffected is 1 when the row exists, 0 when not.${children}`,
    byKey: true,
    parameters: [sharedRef('Output')],
    body: { ...(hierarchical ? { rows: 'children' } : {}), form: true, required: true, description: 'The new values.' },
  });
}

function deleteOne(resource: SqlResource): OpenAPIV3_1.OperationObject {
  const hierarchical = resource.kind !== 'flat';
  const verb = resource.kind === 'many-to-many' ? 'unlinked' : 'deleted';
  const children = childText(
    resource,
    (child) => ` D4: with a JSON or XML body, only the listed ${child} rows are ${verb}.`,
  );
  return operation(resource, {
    verb: 'delete',
    suffix: 'ByKey',
    summary: `D3${hierarchical ? ', D4' : ''}: delete one ${resource.rowName}`,
    description: `D3: without a body, the row with this key.${deleteRule(resource)}${children}`,
    byKey: true,
    parameters: [sharedRef('Output')],
    ...(hierarchical
      ? { body: { rows: 'children', audience: 'keys', required: false, description: 'D4: the child rows.' } }
      : {}),
  });
}

function insertChildren(resource: SqlResource): OpenAPIV3_1.OperationObject {
  const link = resource.kind === 'many-to-many';
  return operation(resource, {
    verb: 'insert',
    suffix: 'Children',
    summary: `C3: add ${resource.childCollectionName} to one ${resource.rowName}`,
    description: link
      ? `Links existing ${resource.childRowName} rows, given by their keys only, to this ${resource.rowName}.`
      : `Inserts ${resource.childRowName} rows that belong to this ${resource.rowName}; the response holds the ${resource.rowName} by its key with the inserted rows.`,
    parameters: [sharedRef('Output'), sharedRef('MethodOverride')],
    body: { rows: 'children', audience: link ? 'keys' : 'request', required: true, description: 'The child rows.' },
  });
}

/** Updates and deletes by filter only: a resource whose query selects no key changes and deletes rows so. */
function writesByFilter(resource: SqlResource): PathItem {
  const note = `The query selects no key of ${resource.rowName} rows, so they are found by the values of the fields it selects: a row equal in all of them to a matching row is written too.`;
  return {
    put: operation(resource, {
      verb: 'update',
      summary: `U2: update the ${resource.collectionName} a filter matches`,
      description: `Form fields with the new values of every row the query filters match; at least one filter. ${note}`,
      parameters: [...filterRefs(resource), sharedRef('Output')],
      body: { form: true, required: true, description: 'The new values.' },
    }),
    delete: operation(resource, {
      verb: 'delete',
      summary: `D2: delete the ${resource.collectionName} a filter matches`,
      description: `No body: the rows the query filters match; at least one filter.${deleteRule(resource)} ${note}`,
      parameters: [...filterRefs(resource), sharedRef('Output')],
    }),
  };
}

/** `{ "/res/Item": {...}, "/res/Item/{id}": {...} }` */
export function resourcePaths(resource: SqlResource): Record<string, PathItem> {
  const base = `/res/${resource.name}`;
  const labels = pathKeyLabels(resource);
  const reads = { get: readRows(resource), post: insertRows(resource) };
  if (!labels) return { [base]: { ...reads, ...writesByFilter(resource) } };
  return {
    [base]: { ...reads, put: updateRows(resource), delete: deleteRows(resource) },
    [`${base}/${labels.map((l) => `{${l}}`).join('/')}`]: {
      parameters: keyParameters(resource, labels),
      get: readOne(resource),
      ...(resource.kind === 'flat' ? {} : { post: insertChildren(resource) }),
      put: updateOne(resource),
      delete: deleteOne(resource),
    },
  };
}
