/**
 * The login of a database connection: its URL, and where its password comes from, so that no deployed file holds
 * one:
 * - the URL itself (neither variable below set: the behaviour for local runs);
 * - DATABASE_IAM_AUTH=true: an RDS IAM token, signed for each new connection (iam-source.ts);
 * - DATABASE_SECRET_ARN: the RDS secret JSON in Secrets Manager (secret-source.ts), which may also name the server.
 * The configurations that cannot work are refused here, before anything is fetched or signed. Nothing here logs,
 * and no message holds a password, a token or the secret.
 */
import type { Config } from '../config';
import { ConfigurationError, DatabaseError } from '../errors';
import { parseDatabaseUrl, withDatabaseName } from './database-url';
import { iamSource } from './iam-source';
import type { PasswordSource } from './password-source';
import { urlFromSecret } from './secret-login';
import { secretLogin, secretSource } from './secret-source';

export interface Login {
  /** The URL to connect to; it holds a password only when neither DATABASE_IAM_AUTH nor DATABASE_SECRET_ARN is set. */
  readonly url: string;
  readonly source?: PasswordSource;
}

type LoginConfig = Pick<Config, 'databaseIamAuth' | 'databaseSecretArn' | 'awsRegion'>;

/** The URL, parsed, when a password comes from elsewhere: it must not hold one of its own. */
function urlWithoutPassword(config: LoginConfig, url: string | undefined, variable: string): URL | undefined {
  if (config.databaseIamAuth && config.databaseSecretArn) {
    throw new ConfigurationError(
      'DATABASE_IAM_AUTH=true and DATABASE_SECRET_ARN are both set: choose one way to log in to the database',
    );
  }
  if (!url || !(config.databaseIamAuth || config.databaseSecretArn)) return undefined;
  const parsed = parseDatabaseUrl(url, variable);
  if (parsed.password) {
    const [flag, from] = config.databaseIamAuth
      ? ['DATABASE_IAM_AUTH=true', 'an IAM token']
      : ['DATABASE_SECRET_ARN', 'the secret'];
    throw new ConfigurationError(
      `${variable} holds a password, but with ${flag} the password comes from ${from}: remove it from the URL`,
    );
  }
  return parsed;
}

/**
 * The login for a database: `url` is the URL chosen by DATABASE_URL_X / DATABASE_URL (named by `variable`), or
 * undefined when neither is set and the secret names the server; `database` then replaces the secret's dbname.
 * With a secret, the secret is fetched (on first use) before the login is returned.
 */
export async function resolveLogin(
  config: LoginConfig,
  url: string | undefined,
  variable: string,
  database?: string,
): Promise<Login> {
  const parsed = urlWithoutPassword(config, url, variable);
  const arn = config.databaseSecretArn;
  if (url && config.databaseIamAuth) {
    if (!parsed?.username) {
      throw new ConfigurationError(
        `${variable} names no user: DATABASE_IAM_AUTH=true signs a token for the URL's user`,
      );
    }
    return { url, source: iamSource(url, config.awsRegion) };
  }
  if (!arn) {
    if (!url)
      throw new DatabaseError('database_unconfigured', 'No database is configured: set DATABASE_URL (see README)');
    return { url };
  }
  const login = await secretLogin(arn);
  const target =
    parsed ??
    new URL(
      database
        ? withDatabaseName(urlFromSecret(arn, login), 'The secret of DATABASE_SECRET_ARN', database)
        : urlFromSecret(arn, login),
    );
  // the URL gives the user when it names one; else the secret's
  if (!target.username) target.username = login.username;
  return { url: target.toString(), source: secretSource(arn) };
}
