/**
 * The OpenAPI 3.1 document of GET /openapi.json, generated from the definitions that load: every resource's
 * paths, operations, parameters and schemas; a definition that fails to load is left out and named, with its
 * error, in info.description and in `x-broken-resources`. Pure; must not resolve definitions: it is given what
 * resolving gave.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Privilege } from '../auth/caller';
import type { SqlResource } from '../resource';
import type { CatalogEntry } from '../serial/serialize-listing';
import { errorResponses, problemSchema, problemSchemaName } from './error-responses';
import { isMethod, type Method, type PathItem } from './path-item';
import {
  filterParameters,
  limitParameter,
  orderParameter,
  ownLimitParameter,
  queryGrammar,
  sharedParameters,
} from './query-parameters';
import { resourcePaths } from './resource-paths';
import { resourceSchemas } from './resource-schemas';
import { listingSchema, listingSchemaName, servicePaths } from './service-paths';
import { bearerScheme, bearerSchemeName, withSignInResponses } from './sign-in';
import { usedComponents } from './used-components';

/** The version of the interface this document describes, not of the package. */
const apiVersion = '1.0.0';

/** The licence of the service that serves this interface (its package's); the data it serves is its owner's. */
const license: OpenAPIV3_1.LicenseObject = { name: 'MIT', identifier: 'MIT' };

export interface OpenApiOptions {
  /** The server URL: `/`, or the prefix the service is mounted under (e.g. `/dev`). */
  readonly serverUrl: string;
  /** With sign-in: the privileges the caller holds on a resource; only those operations are described. */
  readonly granted?: (resource: string) => readonly Privilege[];
  /** MAX_ROWS: the largest _limit of a resource whose definition sets no cap of its own. */
  readonly maxRows: number;
}

/** The privilege each method of a resource path needs. */
const privilegeOfMethod: Readonly<Record<Method, Privilege>> = {
  get: 'select',
  post: 'insert',
  put: 'update',
  delete: 'delete',
};

/** The resource's paths with only the operations the caller may use; a path left without any is dropped. */
function grantedPaths(resource: SqlResource, granted: OpenApiOptions['granted']): Record<string, PathItem> {
  const paths = resourcePaths(resource);
  if (!granted) return paths;
  const held = new Set(granted(resource.name));
  const kept = Object.entries(paths).map(([path, item]): [string, PathItem] => [
    path,
    Object.fromEntries(Object.entries(item).filter(([key]) => !isMethod(key) || held.has(privilegeOfMethod[key]))),
  ]);
  return Object.fromEntries(kept.filter(([, item]) => Object.keys(item).some(isMethod)));
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

/** The document as served: OpenAPI 3.1 with the service's path items, and the definitions left out named. */
export type OpenApiDocument = Omit<OpenAPIV3_1.Document, 'paths'> & {
  readonly paths: Record<string, PathItem>;
  readonly 'x-broken-resources': readonly BrokenEntry[];
};

/** Later entries win a key, keeping its first position, as with Object.assign. */
const merged = <T>(records: readonly Readonly<Record<string, T>>[]): Record<string, T> =>
  Object.fromEntries(records.flatMap((record) => Object.entries(record)));

export function buildOpenApi(entries: readonly CatalogEntry[], options: OpenApiOptions): OpenApiDocument {
  const resources = entries.flatMap((e) => (e.resource ? [e.resource] : []));
  const broken: BrokenEntry[] = entries.flatMap((e) =>
    e.error ? [{ name: e.name, status: e.error.status, code: e.error.code, error: e.error.message }] : [],
  );
  const signIn = options.granted !== undefined;
  const described = uniqueOperationIds(
    merged([servicePaths, ...resources.map((resource) => grantedPaths(resource, options.granted))]),
  );
  const paths = signIn ? withSignInResponses(described) : described;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Relational Resource Service',
      version: apiVersion,
      description: `${overview}\n\nQuery parameters filter reads, and PUT and DELETE without a body. ${queryGrammar}${brokenText(broken)}`,
      license,
    },
    servers: [{ url: options.serverUrl, description: 'This service' }],
    // without sign-in no operation needs a token, said explicitly: an absent `security` would leave it unsaid
    security: signIn ? [{ [bearerSchemeName]: [] }] : [],
    tags: [
      { name: 'catalog', description: 'The listing of every resource and this document' },
      { name: 'health', description: 'Liveness and readiness checks, open to every caller' },
      ...resources.map((r) => ({ name: r.name, description: tagText(r) })),
    ],
    paths,
    components: usedComponents(paths, {
      schemas: {
        [problemSchemaName]: problemSchema,
        [listingSchemaName]: listingSchema,
        ...merged(resources.map(resourceSchemas)),
      },
      parameters: {
        Limit: limitParameter(options.maxRows),
        ...sharedParameters,
        ...merged(
          resources.map((r) => ({
            ...Object.fromEntries(filterParameters(r)),
            ...ownLimitParameter(r),
            ...orderParameter(r),
          })),
        ),
      },
      responses: errorResponses(signIn),
      ...(signIn ? { securitySchemes: { [bearerSchemeName]: bearerScheme } } : {}),
    }),
    'x-broken-resources': broken,
  };
}

function tagText(resource: SqlResource): string {
  const documentation = resource.documentation?.replace(/\s+/g, ' ').trim();
  return documentation || `A ${resource.kind} SQL resource`;
}

/** Names differing only in `.`, `-` or `_` would give one operationId; later ones get a number. */
function uniqueOperationIds(paths: Record<string, PathItem>): Record<string, PathItem> {
  const seen = new Set<string>();
  const unique = (op: OpenAPIV3_1.OperationObject): OpenAPIV3_1.OperationObject => {
    let id = String(op.operationId);
    for (let n = 2; seen.has(id); n++) id = `${String(op.operationId)}${n}`;
    seen.add(id);
    return { ...op, operationId: id };
  };
  const withUniqueIds = (item: PathItem): PathItem => {
    const renamed = { ...item };
    for (const method of Object.keys(item).filter(isMethod)) {
      const op = item[method];
      if (op) renamed[method] = unique(op);
    }
    return renamed;
  };
  return Object.fromEntries(Object.entries(paths).map(([path, item]) => [path, withUniqueIds(item)]));
}
