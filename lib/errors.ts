/**
 * Typed errors of every pipeline stage. Each carries an HTTP status, a stable code and, when it stands for
 * another error (a driver's, a parser's), that error as its cause; lib/http/to-result.ts is the one place that
 * turns any of them (or any unexpected error) into a response. No IO here.
 */

export interface ErrorOptions {
  readonly headers?: Readonly<Record<string, string>>;
  /** The error this one stands for: kept for the log, never shown to a client. */
  readonly cause?: unknown;
}

export class ServiceError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: string, message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.headers = options.headers ?? {};
  }
}

/** What a client reads when the service fails in a way nobody planned for; the details go to the log. */
export const internalErrorMessage = 'Internal error: the service failed unexpectedly; the details are in its log';

/** Any error as the service answers it: a typed one as it is, anything else an internal_error that keeps it. */
export function toServiceError(error: unknown): ServiceError {
  return error instanceof ServiceError
    ? error
    : new ServiceError(500, 'internal_error', internalErrorMessage, { cause: error });
}

/** 400: a bad parameter, operator, value, body, field, missing key, or a guard against a whole-table write. */
export class BadRequestError extends ServiceError {
  constructor(code: string, message: string, cause?: unknown) {
    super(400, code, message, { cause });
  }
}

/** 401: sign-in is required and the request has no valid token; carries WWW-Authenticate: Bearer. */
export class UnauthenticatedError extends ServiceError {
  constructor(message: string, bearerError?: 'invalid_request' | 'invalid_token', cause?: unknown) {
    const challenge = bearerError
      ? `Bearer realm="relational-resource-service", error="${bearerError}"`
      : 'Bearer realm="relational-resource-service"';
    super(401, 'unauthenticated', message, { headers: { 'WWW-Authenticate': challenge }, cause });
  }
}

/** 403: the caller's roles do not hold the privilege, or a claim the resource needs is missing. */
export class ForbiddenError extends ServiceError {
  constructor(code: 'forbidden' | 'claim_missing' | 'claim_ambiguous', message: string) {
    super(403, code, message);
  }
}

/** 404: an unknown resource (its text names the definition file expected), an unknown path, a missing parent. */
export class NotFoundError extends ServiceError {
  constructor(code: string, message: string, cause?: unknown) {
    super(404, code, message, { cause });
  }
}

/** 405: method not allowed on the path; carries the Allow header. */
export class MethodNotAllowedError extends ServiceError {
  constructor(method: string, allowed: readonly string[]) {
    super(405, 'method_not_allowed', `Method ${method} is not allowed on this path; allowed: ${allowed.join(', ')}`, {
      headers: { Allow: allowed.join(', ') },
    });
  }
}

/** 406 and 415: content negotiation failed, before the resource was loaded. */
export class NegotiationError extends ServiceError {}

/**
 * What a write broke, in the database's own names and never with a value: the kind of constraint, its name, and
 * the table and columns it is about. lib/db reads it from the driver's error; lib/execute says it in the
 * resource's labels.
 */
export interface ConstraintViolation {
  readonly kind: 'unique' | 'foreign_key' | 'not_null' | 'check';
  /** The constraint's (or unique index's) name, when the database gives it. */
  readonly constraint?: string;
  /** The table the columns belong to; `schema` is the database on MySQL. */
  readonly table?: { readonly schema?: string; readonly table: string };
  /** Empty when the database does not say them (or, for a foreign key, not whose they are). */
  readonly columns: readonly string[];
  /**
   * A foreign key: `missing` when the row written names no row of `other`; `referenced` when rows of `other`
   * still refer to the row written (deleted, or its key changed). Absent when the database does not tell which.
   */
  readonly reference?: { readonly direction: 'missing' | 'referenced'; readonly other?: string };
}

const violationCodes: Readonly<Record<ConstraintViolation['kind'], readonly [number, string]>> = {
  unique: [409, 'unique_violation'],
  foreign_key: [409, 'foreign_key_violation'],
  not_null: [400, 'bad_value'],
  check: [400, 'bad_value'],
};

/** 409 (a unique or foreign-key violation) or 400 (a NULL or a CHECK the database refused); no value in its text. */
export class ConstraintError extends ServiceError {
  readonly violation: ConstraintViolation;

  constructor(violation: ConstraintViolation, message: string, cause?: unknown) {
    const [status, code] = violationCodes[violation.kind];
    super(status, code, message, { cause });
    this.violation = violation;
  }
}

/** 409: a write that cannot be done as asked without reaching rows it must not (no constraint refused it). */
export class ConflictError extends ServiceError {
  constructor(code: string, message: string, cause?: unknown) {
    super(409, code, message, { cause });
  }
}

/** 413: a request body or a result too large. */
export class TooLargeError extends ServiceError {
  constructor(code: string, message: string) {
    super(413, code, message);
  }
}

/**
 * 503: the server mode is at one of its limits (connections, request bytes in flight); the request was not read.
 * Carries Retry-After.
 */
export class OverloadedError extends ServiceError {
  constructor(message: string, retryAfterS: number) {
    super(503, 'overloaded', message, { headers: { 'Retry-After': String(retryAfterS) } });
  }
}

/** 500: a definition file that is malformed or inconsistent with the database. */
export class DefinitionError extends ServiceError {
  constructor(file: string, problem: string, cause?: unknown) {
    super(500, 'definition_invalid', `Definition ${file} is invalid: ${problem}`, { cause });
  }
}

/** 500: the definitions store (S3) cannot be read: access denied, a missing bucket, a network failure. */
export class DefinitionsUnreachableError extends ServiceError {
  constructor(location: string, detail: string, cause?: unknown) {
    super(500, 'definitions_unreachable', `Reading ${location} from S3 failed with ${detail}`, { cause });
  }
}

/** 500: an environment variable has a value the service cannot use (named, with the value; never a secret). */
export class ConfigurationError extends ServiceError {
  constructor(message: string) {
    super(500, 'configuration_invalid', message);
  }
}

/** 500: the database failed (unreachable, or another error); the message ends with ` :: ` and the SQL. */
export class DatabaseError extends ServiceError {
  constructor(code: string, message: string, cause?: unknown) {
    super(500, code, message, { cause });
  }
}

/** The error catalog (docs/errors.md shows it): every code the service can answer with. */
export const errorCatalog: readonly { code: string; status: number; when: string }[] = [
  { code: 'bad_parameter', status: 400, when: 'a query parameter is unknown, repeated, read-only or malformed' },
  {
    code: 'limit_too_large',
    status: 400,
    when: '_limit asks for more rows than the most one read of the resource returns',
  },
  {
    code: 'bad_value',
    status: 400,
    when: "a value does not convert to its field's type, a required field is missing or null, or the database refused a value (NOT NULL, CHECK)",
  },
  { code: 'bad_path_key', status: 400, when: 'the path key has the wrong number of segments or does not convert' },
  { code: 'bad_body', status: 400, when: 'the body is malformed, empty, or names an unknown element or field' },
  { code: 'missing_key', status: 400, when: 'a row to update or delete lacks its full primary key' },
  { code: 'read_only_field', status: 400, when: 'a computed (read-only) field is written or filtered on' },
  { code: 'validation_failed', status: 400, when: 'a value breaks a validatedAttribute rule of the definition' },
  { code: 'filter_required', status: 400, when: 'PUT or DELETE without body, path key or filter' },
  { code: 'bad_request', status: 400, when: 'the operation does not apply to this resource or path' },
  {
    code: 'unlinked_table',
    status: 400,
    when: 'the write needs a link between two tables of the resource that the database does not declare',
  },
  {
    code: 'unauthenticated',
    status: 401,
    when: 'sign-in is on and the token is missing, malformed, expired or invalid',
  },
  { code: 'forbidden', status: 403, when: "none of the caller's roles holds the privilege for the operation" },
  {
    code: 'claim_missing',
    status: 403,
    when: "the resource's query uses a claim that the caller's token lacks, or holds as a value the query cannot use",
  },
  {
    code: 'claim_ambiguous',
    status: 403,
    when: "the caller's token holds a claim both by its dotted name and as a nested claim",
  },
  { code: 'resource_not_found', status: 404, when: 'no definition file for the resource name' },
  {
    code: 'parent_not_found',
    status: 404,
    when: 'the parent named in the path of C3, U4 or D4 does not exist, or the resource does not show it',
  },
  { code: 'path_not_found', status: 404, when: 'the path is not served' },
  { code: 'method_not_allowed', status: 405, when: 'the method is not served on the path (Allow header lists it)' },
  { code: 'not_acceptable', status: 406, when: 'Accept admits neither application/xml nor application/json' },
  { code: 'unique_violation', status: 409, when: 'a unique or primary key constraint rejected the write' },
  { code: 'foreign_key_violation', status: 409, when: 'a foreign key constraint rejected the write' },
  {
    code: 'hidden_rows',
    status: 409,
    when: 'a write by filter, on a resource without a key, matched rows that equal rows the resource hides',
  },
  { code: 'body_too_large', status: 413, when: 'the request body exceeds the limit' },
  {
    code: 'too_many_rows',
    status: 413,
    when: 'a read without _limit has more rows than the most one read returns; page it with _limit/_offset',
  },
  { code: 'result_too_large', status: 413, when: 'the result exceeds the limit; page it with _limit/_offset' },
  { code: 'unsupported_media_type', status: 415, when: 'the body is not XML, JSON or form-urlencoded' },
  { code: 'definition_invalid', status: 500, when: 'the definition file is malformed or does not match the database' },
  {
    code: 'definitions_unreachable',
    status: 500,
    when: 'the S3 definitions store cannot be read (access, bucket, network)',
  },
  { code: 'privileges_invalid', status: 500, when: 'the privileges file is missing, unreadable or malformed' },
  { code: 'auth_unavailable', status: 500, when: "the issuer's signing keys cannot be fetched" },
  {
    code: 'configuration_invalid',
    status: 500,
    when: 'a setting such as DB_POOL_SIZE has an unusable value, or a MySQL server runs with an sql_mode the service refuses',
  },
  {
    code: 'database_unconfigured',
    status: 500,
    when: 'no database URL applies, it is not postgres:// / mysql://, or its database does not exist on the server',
  },
  { code: 'database_unreachable', status: 500, when: 'the database cannot be reached (driver message :: SQL)' },
  {
    code: 'database_error',
    status: 500,
    when: 'any other database error (driver message :: SQL, its values as placeholders)',
  },
  { code: 'internal_error', status: 500, when: 'an unexpected failure; details are logged, not returned' },
  {
    code: 'overloaded',
    status: 503,
    when: 'npm run serve is at its limit of connections or of request bytes in flight (Retry-After says when to retry)',
  },
];
