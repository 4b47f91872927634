/**
 * The OpenAPI 3.1 document of GET /openapi.json (D24), generated from the definitions that load: every resource's
 * paths, operations, parameters and schemas; a definition that fails to load is left out and named, with its
 * error, in info.description and in `x-broken-resources`. Pure; must not resolve definitions: it is given what
 * resolving gave.
 */
import type { SqlResource } from '../resource';
import type { CatalogEntry } from '../serial/serialize-listing';
import type { OpenApiObject } from './component-names';
import { errorResponses, problemSchema, problemSchemaName } from './error-responses';
import { filterParameters, queryGrammar, sharedParameters } from './query-parameters';
import { resourcePaths } from './resource-paths';
import { resourceSchemas } from './resource-schemas';
import { listingSchema, listingSchemaName, servicePaths } from './service-paths';

/** The version of the interface this document describes, not of the package. */
const apiVersion = '1.0.0';

export interface OpenApiOptions {
  /** The server URL: `/`, or the prefix the service is mounted under (e.g. `/dev`). */
  readonly serverUrl: string;
}

const overview = [
  'Named SQL resources over HTTP. Every resource answers GET (read), POST (insert), PUT (update) and DELETE',
  'under /res/{name}, in XML (the default) or JSON: the Accept header or the `_output` parameter chooses, and',
  'for writes without either the request body type. XML bodies are described by /xsd/Request.xsd and',
  '/xsd/Response.xsd. Errors are text/plain, or RFC 9457 problem details when Accept lists',
  'application/problem+json; other methods on these paths answer 405 with an Allow header.',
].join(' ');

function brokenText(broken: readonly BrokenEntry[]): string {
  if (broken.length === 0) return '';
  const list = broken.map((b) => `${b.name} (${b.status} ${b.code}: ${b.error})`).join('; ');
  return `\n\n${broken.length} definition(s) failed to load and are left out of this document (see x-broken-resources): ${list}.`;
}

interface BrokenEntry {
  readonly name: string;
  readonly status: number;
  readonly code: string;
  readonly error: string;
}

export function buildOpenApi(entries: readonly CatalogEntry[], options: OpenApiOptions): OpenApiObject {
  const resources = entries.flatMap((e) => (e.resource ? [e.resource] : []));
  const broken: BrokenEntry[] = entries.flatMap((e) =>
    e.error ? [{ name: e.name, status: e.error.status, code: e.error.code, error: e.error.message }] : [],
  );
  const paths = uniqueOperationIds(Object.assign({ ...servicePaths }, ...resources.map(resourcePaths)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Relational Resource Service',
      version: apiVersion,
      description: `${overview}\n\nQuery parameters filter reads, and PUT and DELETE without a body. ${queryGrammar}${brokenText(broken)}`,
    },
    servers: [{ url: options.serverUrl, description: 'This service' }],
    tags: [
      { name: 'catalog', description: 'The listing of every resource and this document' },
      ...resources.map((r) => ({ name: r.name, description: tagText(r) })),
    ],
    paths,
    components: {
      schemas: {
        [problemSchemaName]: problemSchema,
        [listingSchemaName]: listingSchema,
        ...Object.assign({}, ...resources.map(resourceSchemas)),
      },
      parameters: {
        ...sharedParameters,
        ...Object.assign({}, ...resources.map((r) => Object.fromEntries(filterParameters(r)))),
      },
      responses: errorResponses,
    },
    'x-broken-resources': broken,
  };
}

function tagText(resource: SqlResource): string {
  const documentation = resource.documentation?.replace(/\s+/g, ' ').trim();
  return documentation || `A ${resource.kind} SQL resource`;
}

const methods = new Set(['get', 'put', 'post', 'delete']);

/** Names differing only in `.`, `-` or `_` would give one operationId; later ones get a number. */
function uniqueOperationIds(paths: Record<string, OpenApiObject>): Record<string, OpenApiObject> {
  const seen = new Set<string>();
  const unique = (op: OpenApiObject): OpenApiObject => {
    let id = String(op.operationId);
    for (let n = 2; seen.has(id); n++) id = `${String(op.operationId)}${n}`;
    seen.add(id);
    return { ...op, operationId: id };
  };
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([key, value]) => [key, methods.has(key) ? unique(value as OpenApiObject) : value]),
      ),
    ]),
  );
}
