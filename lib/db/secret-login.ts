/**
 * The database login held by a Secrets Manager secret (the RDS secret JSON: username, password, host, port, dbname,
 * engine), read and checked, and the URL it describes. Pure. A message here may name the secret's ARN and its
 * fields, never a value of it: not even a JSON parser's message, which quotes the text.
 */
import { DatabaseError } from '../errors';
import { engineList, engineOfSecret } from './engines/registry';

export interface SecretLogin {
  readonly username: string;
  readonly password: string;
  readonly host?: string;
  readonly port?: number;
  readonly dbname?: string;
  readonly engine?: string;
}

const unusable = (arn: string, problem: string) =>
  new DatabaseError(
    'database_unconfigured',
    `The database secret ${arn} (DATABASE_SECRET_ARN) ${problem}; it must hold the RDS secret JSON {"username", "password", "host", "port", "dbname", "engine"}`,
  );

function text(arn: string, fields: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null || value === '') {
    if (required) throw unusable(arn, `lacks "${name}"`);
    return undefined;
  }
  if (typeof value !== 'string') throw unusable(arn, `has a "${name}" that is not a string`);
  return value;
}

function port(arn: string, value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n <= 0 || n > 65535) throw unusable(arn, 'has a "port" that is not a port number');
  return n;
}

/** The secret's text as a login: username and password are required, the rest only to build a URL. */
export function parseSecretLogin(arn: string, secretString: string | undefined): SecretLogin {
  if (secretString === undefined) throw unusable(arn, 'holds no text (SecretString)');
  let parsed: unknown;
  try {
    parsed = JSON.parse(secretString);
  } catch {
    throw unusable(arn, 'is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw unusable(arn, 'is not a JSON object');
  }
  const fields = parsed as Record<string, unknown>;
  return {
    username: text(arn, fields, 'username', true) as string,
    password: text(arn, fields, 'password', true) as string,
    host: text(arn, fields, 'host', false),
    port: port(arn, fields.port),
    dbname: text(arn, fields, 'dbname', false),
    engine: text(arn, fields, 'engine', false),
  };
}

/**
 * The URL of the secret's database, without its password (the driver asks for that on each new connection):
 * `postgres://username@host:port/dbname` or `mysql://...`, by the secret's engine. Used when DATABASE_URL is not set.
 */
export function urlFromSecret(arn: string, login: SecretLogin): string {
  if (!login.host) throw unusable(arn, 'lacks "host", which is needed when DATABASE_URL is not set');
  if (!login.engine) throw unusable(arn, 'lacks "engine", which is needed when DATABASE_URL is not set');
  const engine = engineOfSecret(login.engine);
  if (!engine) {
    throw new DatabaseError(
      'database_unconfigured',
      `The database secret ${arn} (DATABASE_SECRET_ARN) has engine "${login.engine}"; the service serves ${engineList.flatMap((e) => e.secretEngines).join(', ')}`,
    );
  }
  const url = new URL(`${engine.schemes[0]}://placeholder`);
  url.hostname = login.host;
  url.port = String(login.port ?? engine.defaultPort);
  url.username = login.username;
  url.pathname = login.dbname ? `/${encodeURIComponent(login.dbname)}` : '';
  return url.toString();
}
