/**
 * The parameters of the OpenAPI document: one filter per field with the query grammar described, the special
 * parameters `_limit`, `_offset`, `_output`, `_order` and `_after`, the path key segments, and the headers
 * X-HTTP-Method-Override and Prefer. Pure; must not
 * decide which operation uses which parameter (resource-paths does).
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { orderable } from '../plan/plan-read';
import type { Field, SqlResource } from '../resource';
import { keyLabels, tableWithRole } from '../resource-levels';
import { componentRef, filterParameterName } from './component-names';
import { fieldDescription, keySchema } from './field-schemas';

export const queryGrammar = [
  'The value, URL-decoded (`+` is a space, `%2B` a plus), selects the comparison; the first rule that matches wins:',
  '- `null`: IS NULL; `!null`: IS NOT NULL',
  '- `!v`: not equal',
  '- `<v`, `<=v`, `>v`, `>=v`: comparisons (URL-encoded `%3C`, `%3C%3D`, `%3E`, `%3E%3D`)',
  '- `(a,b,c)`: IN list; `\\,` is a literal comma inside an item',
  '- `\\` before a leading `!`, `<`, `>`, `(` or `\\`, or `\\null`: that backslash dropped and no operator applied; the rest is a LIKE if it contains `%` (`\\(%` matches values starting with `(`), else equals',
  '- a value containing `%` (sent as `%25`): LIKE, `%` any run of characters, `_` one; `\\%` and `\\_` are literal',
  '- anything else, including empty: equals',
  '',
  "Every value is converted to the field's type (a value that does not convert is a 400) and bound as a parameter.",
  'Different names are ANDed; the same name twice only as a range (one lower and one upper bound) or as several negations (`!v`, `!null`).',
].join('\n');

const specials = new Set(['_limit', '_offset', '_output', '_order', '_after']);

/** Fields that can filter: not computed (those are never filters), and not shadowed by a special parameter name. */
function filterFields(resource: SqlResource): Field[] {
  return resource.fields.filter((f) => !f.readOnly && !specials.has(f.label.toLowerCase()));
}

/** components.parameters entries of one resource's filters, keyed by component name, in field order. */
export function filterParameters(resource: SqlResource): Map<string, OpenAPIV3_1.ParameterObject> {
  const parameters = new Map<string, OpenAPIV3_1.ParameterObject>();
  filterFields(resource).forEach((field, index) => {
    let name = filterParameterName(resource, field.label);
    if (parameters.has(name)) name = `${name}.${index}`;
    parameters.set(name, {
      name: field.label,
      in: 'query',
      required: false,
      description: `Filter on ${field.label} (${field.type}, ${field.dbType}). ${queryGrammar}`,
      schema: { type: 'string' },
    });
  });
  return parameters;
}

export const filterRefs = (resource: SqlResource) =>
  [...filterParameters(resource).keys()].map((name) => componentRef('parameters', name));

/**
 * `_limit`, at most `maxRows`: MAX_ROWS for the shared parameter, a definition's own cap for its resource's reads.
 */
export function limitParameter(maxRows: number): OpenAPIV3_1.ParameterObject {
  return {
    name: '_limit',
    in: 'query',
    description: [
      `Maximum number of rows returned, at most ${maxRows} (a larger _limit is a 400 \`limit_too_large\`).`,
      `Without _limit, a read that has more than ${maxRows} rows is a 413 \`too_many_rows\`: page it with _limit and _offset.`,
      'Hierarchical resources: applied to the flat parent-child rows before they are regrouped, so the last parent may hold only some of its children.',
    ].join(' '),
    schema: { type: 'integer', minimum: 0, maximum: maxRows },
  };
}

/** The `_limit` of a resource whose definition sets its own cap, keyed by its component name; empty otherwise. */
export function ownLimitParameter(resource: SqlResource): Record<string, OpenAPIV3_1.ParameterObject> {
  return resource.maxRows === undefined ? {} : { [ownLimitName(resource)]: limitParameter(resource.maxRows) };
}

/** The resource's reads' `_limit`: its own (`Name._limit`, never a filter's name) or the shared one. */
export function limitRef(resource: SqlResource): OpenAPIV3_1.ReferenceObject {
  return resource.maxRows === undefined ? sharedRef('Limit') : componentRef('parameters', ownLimitName(resource));
}

const ownLimitName = (resource: SqlResource) => `${resource.name}._limit`;

/** The resource's `_order`: its orderable labels, each ascending or (`-label`) descending, comma-separated. */
export function orderParameter(resource: SqlResource): Record<string, OpenAPIV3_1.ParameterObject> {
  const labels = resource.fields.filter(orderable).map((f) => f.label);
  return {
    [orderName(resource)]: {
      name: '_order',
      in: 'query',
      description: [
        'The order of the rows: field labels separated by commas, `-` before one to order from its highest value',
        '(e.g. `_order=-price,title`). The key follows, so pages stay stable. NULL comes first going up and last going',
        'down. On a hierarchical resource, parent fields order the parents and child fields the children inside',
        'their parent. Without _order, rows come in key order.',
      ].join(' '),
      style: 'form',
      explode: false,
      schema: {
        type: 'array',
        uniqueItems: true,
        items: { type: 'string', enum: labels.flatMap((l) => [l, `-${l}`]) },
      },
    },
  };
}

export const orderRef = (resource: SqlResource) => componentRef('parameters', orderName(resource));

const orderName = (resource: SqlResource) => `${resource.name}._order`;

/** Shared parameters: the special query parameters (_limit apart: limitParameter) and the method override header. */
export const sharedParameters = {
  Offset: {
    name: '_offset',
    in: 'query',
    description: 'Number of rows skipped (default 0), counted as _limit counts them.',
    schema: { type: 'integer', minimum: 0 },
  },
  After: {
    name: '_after',
    in: 'query',
    description: [
      'The rows after the last row of a page: the token of that page\'s `Link: <...>; rel="next"`, as it is.',
      'It continues in the same order with the same filters, however many rows came before (no _offset with it).',
      'A token that was changed, or that belongs to another resource, order or filters, is a 400 `bad_cursor`.',
    ].join(' '),
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$' },
  },
  Prefer: {
    name: 'Prefer',
    in: 'header',
    description:
      "`count=exact`: the response's Content-Range gives the total of rows the read pages through (its filters, no paging), and Preference-Applied says so. Other preferences are ignored.",
    schema: { type: 'string', example: 'count=exact' },
  },
  Output: {
    name: '_output',
    in: 'query',
    description:
      'The response type, instead of the Accept header. text/csv (or csv) answers reads of flat resources only; elsewhere it is a 406.',
    schema: { type: 'string', enum: ['application/xml', 'application/json', 'text/csv', 'xml', 'json', 'csv'] },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    description:
      'ETags of versions the client holds (or *): when the answer would carry one of them, it is a 304 with no body.',
    schema: { type: 'string' },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    description:
      'The write happens only if every row it addresses by key is still one of these versions (ETags of reads of the row, in any representation), else 412 and nothing is written; * requires that the rows exist.',
    schema: { type: 'string' },
  },
  MethodOverride: {
    name: 'X-HTTP-Method-Override',
    in: 'header',
    description: 'A POST carrying this header is served as that method, for clients that cannot send it.',
    schema: { type: 'string', enum: ['PUT', 'DELETE'] },
  },
} satisfies Readonly<Record<string, OpenAPIV3_1.ParameterObject>>;

export const sharedRef = (name: (keyof typeof sharedParameters & string) | 'Limit') => componentRef('parameters', name);

/** The Parent key labels in key order; undefined when rows cannot be addressed by key (no key selected). */
export function pathKeyLabels(resource: SqlResource): string[] | undefined {
  return keyLabels(resource, tableWithRole(resource, 'Parent'));
}

/** One path parameter per Parent key field, in key order, typed like the field. */
export function keyParameters(resource: SqlResource, labels: readonly string[]): OpenAPIV3_1.ParameterObject[] {
  return labels.map((label) => {
    const field = resource.fields.find((f) => f.label === label) as Field;
    return {
      name: label,
      in: 'path',
      required: true,
      description: `Key part ${label} of the ${resource.rowName}: ${fieldDescription(resource, field)}`,
      schema: keySchema(field),
    };
  });
}
