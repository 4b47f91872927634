/**
 * Where a database connection's password comes from, so that no deployed file holds one:
 * - the URL itself (neither variable below set: the behaviour for local runs);
 * - DATABASE_IAM_AUTH=true: an RDS IAM token, signed for each new connection (iam-token.ts);
 * - DATABASE_SECRET_ARN: the RDS secret JSON in Secrets Manager (fetch-secret.ts), fetched on first use and cached
 *   for the life of the container, fetched again when the database refuses the login (a rotated password).
 * The AWS SDK modules are required only when their variable is set. Nothing here logs, and no message holds a
 * password, a token or the secret.
 */
import type { Config } from '../config';
import { ConfigurationError, DatabaseError, type ServiceError } from '../errors';
import { parseDatabaseUrl, withDatabaseName } from './database-url';
import { serverOf } from './mask-url';
import { parseSecretLogin, type SecretLogin, urlFromSecret } from './secret-login';

/** What a driver asks for each new connection, and what the service does when the database refuses the login. */
export interface PasswordSource {
  /** `iam`: a token sent in clear (mysql_clear_password), so the connection must use TLS. */
  readonly kind: 'iam' | 'secret';
  /**
   * The password of one new connection. Never rejects, because neither driver can take a rejection there
   * (postgres.js would leave it unhandled): a failure gives an empty password, which the database refuses, and
   * is kept for takeFailure().
   */
  password(): Promise<string>;
  /** The failure of a password() call since the last take, if any. */
  takeFailure(): ServiceError | undefined;
  /** Changes each time the password may have changed (the secret was fetched again). */
  readonly version: number;
  /**
   * The database refused a login made while `version` was current: fetch the secret again, unless that happened
   * since. True when a retry may succeed.
   */
  renew(version: number): Promise<boolean>;
  /** The 500 for a login the database refused for good (`error` is the classified driver error). */
  rejected(error: ServiceError): DatabaseError;
  /** Any other failure of a call, said in the source's terms when it has something to add. */
  explain(error: unknown): unknown;
}

export interface Login {
  /** The URL to connect to; it holds a password only when neither DATABASE_IAM_AUTH nor DATABASE_SECRET_ARN is set. */
  readonly url: string;
  readonly source?: PasswordSource;
}

/** The cached secret of one ARN, shared by every database that uses it. */
interface SecretEntry {
  latest?: SecretLogin;
  version: number;
  pending?: Promise<SecretLogin>;
}

const secrets = new Map<string, SecretEntry>();
let fetchModule: typeof import('./fetch-secret') | undefined;

function refresh(arn: string, entry: SecretEntry): Promise<SecretLogin> {
  entry.pending ??= (async () => {
    fetchModule ??= require('./fetch-secret') as typeof import('./fetch-secret');
    return parseSecretLogin(arn, await fetchModule.fetchSecret(arn));
  })()
    .then((login) => {
      entry.latest = login;
      entry.version += 1;
      return login;
    })
    .finally(() => {
      entry.pending = undefined;
    });
  return entry.pending;
}

/** The secret as cached: fetched on first use; a failed fetch is not cached, so the next request tries again. */
async function secretOf(arn: string): Promise<{ entry: SecretEntry; login: SecretLogin }> {
  let entry = secrets.get(arn);
  if (!entry) {
    entry = { version: 0 };
    secrets.set(arn, entry);
  }
  return { entry, login: entry.latest ?? (await refresh(arn, entry)) };
}

const userOf = (url: string) => decodeURIComponent(new URL(url).username);

function secretSource(arn: string, entry: SecretEntry, url: string): PasswordSource {
  return {
    kind: 'secret',
    // secretOf has fetched it before any client exists, and a fetch again replaces it only when it succeeds
    password: async () => entry.latest?.password ?? '',
    takeFailure: () => undefined,
    get version() {
      return entry.version;
    },
    async renew(version) {
      if (entry.version !== version) return true;
      const before = entry.latest?.password;
      return (await refresh(arn, entry)).password !== before;
    },
    rejected: (error) =>
      new DatabaseError(
        'database_unreachable',
        `The database refused the login of user ${userOf(url)} with the password of the database secret ${arn} (DATABASE_SECRET_ARN), also after reading the secret again: ${error.message}`,
        error,
      ),
    explain: (error) => error,
  };
}

/** postgres.js goes on with TLS even when the server says it has none; the server then hangs up. */
const tlsRefused = /before secure TLS connection was established/;

function iamSource(url: string, region: string): PasswordSource {
  let sign: (() => Promise<string>) | undefined;
  let failure: ServiceError | undefined;
  return {
    kind: 'iam',
    async password() {
      try {
        sign ??= (require('./iam-token') as typeof import('./iam-token')).iamTokenSigner(url, region);
        return await sign();
      } catch (error) {
        failure = error as ServiceError;
        return '';
      }
    },
    takeFailure() {
      const taken = failure;
      failure = undefined;
      return taken;
    },
    version: 0,
    // a token is signed for each new connection: a refused one is not fixed by signing another
    renew: async () => false,
    rejected: (error) =>
      new DatabaseError(
        'database_unreachable',
        `The database refused the IAM authentication token of user ${userOf(url)} (DATABASE_IAM_AUTH=true); the user must be allowed to log in with IAM (rds-db:connect) and, behind RDS Proxy, the proxy must require IAM authentication: ${error.message}`,
        error,
      ),
    explain: (error) =>
      error instanceof DatabaseError && tlsRefused.test(error.message)
        ? new DatabaseError(
            'database_unreachable',
            `The database server at ${serverOf(url)} hung up when TLS began: with DATABASE_IAM_AUTH=true the token is sent only over TLS, which this server does not seem to offer: ${error.message}`,
            error,
          )
        : error,
  };
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
  const { entry, login } = await secretOf(arn);
  const target =
    parsed ??
    new URL(
      database
        ? withDatabaseName(urlFromSecret(arn, login), 'The secret of DATABASE_SECRET_ARN', database)
        : urlFromSecret(arn, login),
    );
  // the URL gives the user when it names one; else the secret's
  if (!target.username) target.username = login.username;
  const resolved = target.toString();
  return { url: resolved, source: secretSource(arn, entry, resolved) };
}

/** Forgets the cached secrets and their clients (tests; closeDatabases). */
export function forgetCredentials(): void {
  secrets.clear();
  fetchModule?.forgetSecretsClients();
}
