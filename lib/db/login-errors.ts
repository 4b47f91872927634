/**
 * What a database call's failure says when its password comes from a source (an IAM token, a secret): a login the
 * database refused for good, said in the source's terms, and a server that hung up when TLS began under IAM
 * authentication. Pure; no message holds a password, a token or the secret.
 */
import { DatabaseError, type ServiceError } from '../errors';
import { serverOf } from './mask-url';
import type { PasswordSource } from './password-source';

/** A connection's URL (without a password) and where its password comes from. */
export interface SourcedLogin {
  readonly url: string;
  readonly source: PasswordSource;
}

const userOf = (url: string) => decodeURIComponent(new URL(url).username);

/** The 500 for a login the database refused for good (`error` is the classified driver error). */
export function refusedLogin({ url, source }: SourcedLogin, error: ServiceError): DatabaseError {
  const message =
    source.kind === 'iam'
      ? `The database refused the IAM authentication token of user ${userOf(url)} (DATABASE_IAM_AUTH=true); the user must be allowed to log in with IAM (rds-db:connect) and, behind RDS Proxy, the proxy must require IAM authentication: ${error.message}`
      : `The database refused the login of user ${userOf(url)} with the password of the database secret ${source.arn} (DATABASE_SECRET_ARN), also after reading the secret again: ${error.message}`;
  return new DatabaseError('database_unreachable', message, error);
}

/** postgres.js goes on with TLS even when the server says it has none; the server then hangs up. */
const tlsRefused = /before secure TLS connection was established/;

/** Any other failure of a call, said in the source's terms when it has something to add. */
export function explainFailure({ url, source }: SourcedLogin, error: unknown): unknown {
  if (source.kind !== 'iam' || !(error instanceof DatabaseError) || !tlsRefused.test(error.message)) return error;
  return new DatabaseError(
    'database_unreachable',
    `The database server at ${serverOf(url)} hung up when TLS began: with DATABASE_IAM_AUTH=true the token is sent only over TLS, which this server does not seem to offer: ${error.message}`,
    error,
  );
}
