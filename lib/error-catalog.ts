/**
 * Every code the service can answer with, its status, and when: the OpenAPI document's error responses and
 * docs/errors.md show it, and a test holds it to the codes the code throws. Pure data.
 */

/** The error catalog (docs/errors.md shows it): every code the service can answer with. */
export const errorCatalog: readonly { code: string; status: number; when: string }[] = [
  { code: 'bad_parameter', status: 400, when: 'a query parameter is unknown, repeated, read-only or malformed' },
  {
    code: 'bad_cursor',
    status: 400,
    when: 'an _after token was changed, does not decode, or belongs to another resource, order or filters',
  },
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
  {
    code: 'bad_argument',
    status: 400,
    when: 'an MCP tool call gives arguments its input schema refuses, or neither or both ways of addressing rows',
  },
  { code: 'bad_path_key', status: 400, when: 'the path key has the wrong number of segments or does not convert' },
  { code: 'bad_body', status: 400, when: 'the body is malformed, empty, or names an unknown element or field' },
  {
    code: 'bad_header',
    status: 400,
    when: 'If-Match or If-None-Match is malformed, or sent with a request it does not apply to',
  },
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
  {
    code: 'not_acceptable',
    status: 406,
    when: 'Accept admits neither application/xml nor application/json (nor text/csv on a read of a flat resource), or CSV is asked of a hierarchical resource or a write',
  },
  { code: 'unique_violation', status: 409, when: 'a unique or primary key constraint rejected the write' },
  { code: 'foreign_key_violation', status: 409, when: 'a foreign key constraint rejected the write' },
  {
    code: 'hidden_rows',
    status: 409,
    when: 'a write by filter, on a resource without a key, matched rows that equal rows the resource hides',
  },
  {
    code: 'changed_while_writing',
    status: 409,
    when: 'on a resource with change events, other writes changed the rows a write by filter matches while it ran; nothing was written; send it again',
  },
  {
    code: 'precondition_failed',
    status: 412,
    when: 'a row that a write with If-Match addresses has changed since that version was read, or does not exist',
  },
  { code: 'body_too_large', status: 413, when: 'the request body exceeds the limit' },
  {
    code: 'too_many_rows',
    status: 413,
    when: 'a read without _limit has more rows than the most one read returns; page it with _limit/_offset',
  },
  { code: 'result_too_large', status: 413, when: 'the result exceeds the limit; page it with _limit/_offset' },
  {
    code: 'unsupported_media_type',
    status: 415,
    when: 'the body is not XML, JSON or form-urlencoded, nor CSV on an insert into a flat resource',
  },
  {
    code: 'precondition_required',
    status: 428,
    when: 'a write by key on a resource whose definition requires If-Match, sent without it',
  },
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
