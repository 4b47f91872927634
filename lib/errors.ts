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
const internalErrorMessage = 'Internal error: the service failed unexpectedly; the details are in its log';

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

/**
 * 412: a conditional write whose If-Match no longer matches a row it addresses (changed, deleted, or never there);
 * 428: a write by key on a resource that requires If-Match, sent without it. Nothing was written.
 */
export class PreconditionError extends ServiceError {
  constructor(code: 'precondition_failed' | 'precondition_required', message: string) {
    super(code === 'precondition_failed' ? 412 : 428, code, message);
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
