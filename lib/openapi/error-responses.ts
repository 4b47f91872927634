/**
 * The error responses of the OpenAPI document: one reusable response per status an operation answers with,
 * each as text/plain (one sentence naming what is wrong) and as RFC 9457 problem details with a stable `code`
 * from the error catalog. Pure; must not invent codes: they come from lib/errors.ts.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { errorCatalog } from '../error-catalog';
import { componentRef } from './component-names';

/**
 * 405 is not among them: no described operation answers it (other methods on a path do, which info.description
 * says), and a component no operation uses would only be clutter.
 */
export type ErrorStatus = 400 | 401 | 403 | 404 | 406 | 409 | 412 | 413 | 415 | 428 | 500;

interface ErrorText {
  /** The component name. */
  readonly name: string;
  /** The RFC 9457 title, as lib/http/to-result.ts writes it. */
  readonly title: string;
  readonly summary: string;
  readonly code: string;
  readonly example: string;
}

const errors: Readonly<Record<ErrorStatus, ErrorText>> = {
  400: {
    name: 'BadRequest',
    title: 'Bad Request',
    summary: 'A bad parameter, operator, value, body, unknown field, missing key, disallowed update or guard',
    code: 'bad_value',
    example: 'Could not convert id value "47 or 1=1" to number',
  },
  401: {
    name: 'Unauthorized',
    title: 'Unauthorized',
    summary:
      'Sign-in is on and the bearer token is missing, malformed, expired, wrongly signed or for another audience; the message and WWW-Authenticate say which check failed',
    code: 'unauthenticated',
    example: 'The token has expired',
  },
  403: {
    name: 'Forbidden',
    title: 'Forbidden',
    summary:
      "None of the caller's roles holds the privilege for the operation, or the resource needs a claim the token lacks",
    code: 'forbidden',
    example: 'Roles reader may not delete Publisher',
  },
  404: {
    name: 'NotFound',
    title: 'Not Found',
    summary: 'Unknown resource (no definition file), unknown path, or the parent in the path not found',
    code: 'resource_not_found',
    example: 'SQL Resource Nope not found - expected /var/task/definitions/Nope.xml',
  },
  406: {
    name: 'NotAcceptable',
    title: 'Not Acceptable',
    summary:
      'Accept admits neither application/xml nor application/json (nor text/csv, on a read of a flat resource), or CSV is asked of a hierarchical resource or a write',
    code: 'not_acceptable',
    example: 'Accept "image/png" admits no type this service answers with; use application/xml or application/json',
  },
  409: {
    name: 'Conflict',
    title: 'Conflict',
    summary: 'A unique or foreign-key constraint rejected the write',
    code: 'unique_violation',
    example: 'Conflict: duplicate value for name',
  },
  412: {
    name: 'PreconditionFailed',
    title: 'Precondition Failed',
    summary: 'A row the write addresses is no longer the version its If-Match names (or is gone); nothing was written',
    code: 'precondition_failed',
    example:
      'Row id 7 of Book has changed since the version in If-Match was read; nothing was written (read it again for its ETag)',
  },
  413: {
    name: 'ContentTooLarge',
    title: 'Content Too Large',
    summary: 'The request body is too large, or the result has too many rows or bytes: page it with _limit and _offset',
    code: 'result_too_large',
    example: 'The result is larger than 6000000 bytes; page it with _limit and _offset, or narrow it with filters',
  },
  415: {
    name: 'UnsupportedMediaType',
    title: 'Unsupported Media Type',
    summary: 'The request body is not XML, JSON or form-urlencoded, nor CSV on an insert into a flat resource',
    code: 'unsupported_media_type',
    example: 'Content-Type "text/plain" is not supported for request bodies',
  },
  428: {
    name: 'PreconditionRequired',
    title: 'Precondition Required',
    summary: "The resource's definition requires If-Match on a write by key, and the request has none",
    code: 'precondition_required',
    example: 'Resource Book requires If-Match on a write by key: read the row first and send its ETag as If-Match',
  },
  500: {
    name: 'ServerError',
    title: 'Internal Server Error',
    summary: 'The database is unreachable or failed (message :: SQL), or the definition is broken',
    code: 'database_unreachable',
    example: 'connect ECONNREFUSED 10.0.0.5:5432 :: select ... from item where item_id = 1 order by item_id',
  },
};

export const problemSchemaName = 'Problem';

export const problemSchema: OpenAPIV3_1.SchemaObject = {
  type: 'object',
  description: 'RFC 9457 problem details, sent instead of text/plain when Accept lists application/problem+json.',
  properties: {
    type: { type: 'string', format: 'uri', examples: ['urn:relational-resource-service:error:bad_value'] },
    title: { type: 'string', examples: ['Bad Request'] },
    status: { type: 'integer' },
    detail: { type: 'string', description: 'The same sentence as the text/plain body' },
    code: { type: 'string', enum: [...new Set(errorCatalog.map((e) => e.code))] },
    instance: {
      type: 'string',
      format: 'uri',
      description: 'urn:request:{id}: the id of the request, also in the X-Request-Id header and the log line',
      examples: ['urn:request:17005a79-f938-4bd7-b4cb-e46833981858'],
    },
  },
  required: ['type', 'title', 'status', 'detail', 'code'],
};

const challengeHeader: Record<string, OpenAPIV3_1.HeaderObject> = {
  'WWW-Authenticate': {
    description: 'Bearer realm="relational-resource-service", with error="invalid_token" when a token was refused',
    schema: { type: 'string' },
  },
};

const headersOf: Partial<Record<ErrorStatus, Record<string, OpenAPIV3_1.HeaderObject>>> = {
  401: challengeHeader,
};

function errorResponse(status: ErrorStatus): OpenAPIV3_1.ResponseObject {
  const text = errors[status];
  const codes = errorCatalog.filter((e) => e.status === status).map((e) => `\`${e.code}\`: ${e.when}`);
  const headers = headersOf[status];
  return {
    description: `${text.summary}. Codes: ${codes.join('; ')}.`,
    ...(headers ? { headers } : {}),
    content: {
      'text/plain': { schema: { type: 'string' }, example: text.example },
      'application/problem+json': {
        schema: componentRef('schemas', problemSchemaName),
        example: {
          type: `urn:relational-resource-service:error:${text.code}`,
          title: text.title,
          status,
          detail: text.example,
          code: text.code,
        },
      },
    },
  };
}

/** The statuses of sign-in, documented only when sign-in is on. */
export const signInStatuses: readonly ErrorStatus[] = [401, 403];

const statuses = (Object.keys(errors).map(Number) as ErrorStatus[]).filter((s) => !signInStatuses.includes(s));

/** components.responses: `BadRequest`, `NotFound`, ... (with `signIn`, `Unauthorized` and `Forbidden` too). */
export function errorResponses(signIn: boolean): Record<string, OpenAPIV3_1.ResponseObject> {
  const documented = signIn ? [...statuses, ...signInStatuses].sort((a, b) => a - b) : statuses;
  return Object.fromEntries(documented.map((status) => [errors[status].name, errorResponse(status)]));
}

/** `{ "400": {$ref}, ... }` for the statuses an operation can answer with. */
export function errorRefs(statuses: readonly ErrorStatus[]): Record<string, OpenAPIV3_1.ReferenceObject> {
  return Object.fromEntries(statuses.map((s) => [String(s), componentRef('responses', errors[s].name)]));
}
