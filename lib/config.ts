/**
 * The service's configuration, read from process.env once into a frozen object. Nothing else reads env.
 */
import path from 'node:path';
import { ConfigurationError } from './errors';

export interface Config {
  readonly definitionsDir: string;
  readonly definitionsS3?: string;
  /** How often a cached definition is checked for a newer version, in seconds. */
  readonly definitionsTtlS: number;
  /** An S3-compatible endpoint for the S3 definitions source (tests, MinIO, LocalStack). */
  readonly s3Endpoint?: string;
  /** The region of the S3 definitions bucket (the Lambda runtime sets AWS_REGION). */
  readonly awsRegion: string;
  readonly databaseUrl?: string;
  /** DATABASE_URL_<NAME> variables, keyed by NAME as written. */
  readonly databaseUrls: Readonly<Record<string, string>>;
  /** DATABASE_READ_URL: a reader endpoint or replica of DATABASE_URL's server; reads go there, writes never. */
  readonly databaseReadUrl?: string;
  /** DATABASE_READ_URL_<NAME> variables, keyed by NAME as written: the reader of DATABASE_URL_<NAME>. */
  readonly databaseReadUrls: Readonly<Record<string, string>>;
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
  /** Connections per database and container: 1 on Lambda (one request at a time), more locally. */
  readonly poolSize: number;
  /** How long an unused pooled connection stays open, in seconds. */
  readonly idleTimeoutS: number;
  /**
   * DB_PREPARE: PostgreSQL statements are prepared once per connection (named), for a process that talks to the
   * database directly (`npm run serve` sets it by default), and so is MariaDB's one statement for an insert with
   * change events. Unset (Lambda): unnamed statements, which never pin an RDS Proxy connection.
   */
  readonly dbPrepare?: boolean;
  readonly maxBodyBytes: number;
  readonly maxResultBytes: number;
  /** MAX_ROWS: the most rows one read returns, unless its definition sets its own (`<limits maxRows>`). */
  readonly maxRows: number;
  /** Sign-in: the token issuer (`iss`); none means the service runs open, without sign-in or privileges. */
  readonly authIssuer?: string;
  /** The audience (`aud`) a token must name; required with authIssuer. */
  readonly authAudience?: string;
  /** Where the issuer's signing keys are: https://, http:// or a local file: URL (default: the issuer's JWKS). */
  readonly authJwksUrl?: string;
  /** The claim holding the caller's roles: a name (`roles`, `cognito:groups`, `scope`) or a dotted path. */
  readonly authRolesClaim: string;
  /** The role that may reload definitions through /conf/reload. */
  readonly authAdminRole: string;
  /** The privileges file: a path, or s3://bucket/key. */
  readonly privileges?: string;
  /** Connect with an RDS IAM authentication token (rds-signer) instead of a password. */
  readonly databaseIamAuth: boolean;
  /** A Secrets Manager secret (the RDS secret JSON) holding the database login. */
  readonly databaseSecretArn?: string;
  /** CURSOR_SECRET: the key `_after` tokens are signed with; unset, a public fallback (docs/configuration.md). */
  readonly cursorSecret?: string;
  /** MCP_ALLOWED_HOSTS: host names besides this machine's that /mcp answers without sign-in (DNS rebinding). */
  readonly mcpAllowedHosts: readonly string[];
  /** Change events: where they say they come from, and how the drain publishes them (docs/events.md). */
  readonly events: EventsConfig;
  /** True on AWS Lambda itself (not under serverless-offline): API Gateway's authorizer has checked the token. */
  readonly onLambda: boolean;
}

export interface EventsConfig {
  /** EVENTS_SOURCE: the CloudEvents `source` of the service; an event's is this and `/res/<name>`. */
  readonly source: string;
  /** EVENTS_WEBHOOK_URL: where the drain POSTs each event (Standard Webhooks), with EVENTS_WEBHOOK_SECRET. */
  readonly webhookUrl?: string;
  /** EVENTS_WEBHOOK_SECRET: the `whsec_...` secret webhooks are signed with. */
  readonly webhookSecret?: string;
  /** EVENTS_WEBHOOK_SECRET_ARN: a Secrets Manager secret holding it instead (on AWS). */
  readonly webhookSecretArn?: string;
  /** EVENTS_DRAIN_FUNCTION: on Lambda, the drain function a write that announced events invokes at once. */
  readonly drainFunction?: string;
  /** EVENTS_EVENTBRIDGE_BUS: the name or ARN of the EventBridge bus the drain puts events on, instead. */
  readonly eventBridgeBus?: string;
  /** EVENTS_SQS_QUEUE_URL: the SQS queue the drain sends events to, instead. */
  readonly sqsQueueUrl?: string;
  /** EVENTS_SNS_TOPIC_ARN: the SNS topic the drain publishes events to, instead. */
  readonly snsTopicArn?: string;
  /** EVENTS_MAX_ATTEMPTS: failed deliveries of an event before it is dead-lettered. */
  readonly maxAttempts: number;
  /** EVENTS_DRAIN_INTERVAL_MS: how often a drain in a long-running process looks for events. */
  readonly drainIntervalMs: number;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigurationError(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ConfigurationError(`${name} must be true or false, got "${raw}"`);
}

function nonNegativeInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new ConfigurationError(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

/** The variables `{prefix}NAME` with a value, keyed by NAME as written. */
function urlsNamed(env: NodeJS.ProcessEnv, prefix: string): Readonly<Record<string, string>> {
  const urls: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith(prefix) && value) urls[key.slice(prefix.length)] = value;
  }
  return Object.freeze(urls);
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const onLambda = Boolean(env.AWS_LAMBDA_FUNCTION_NAME) && !env.IS_OFFLINE;
  return Object.freeze({
    definitionsDir: path.resolve(env.DEFINITIONS_DIR || defaultDefinitionsDir(env)),
    definitionsS3: env.DEFINITIONS_S3 || undefined,
    definitionsTtlS: nonNegativeInt(env, 'DEFINITIONS_TTL_S', 60),
    s3Endpoint: env.S3_ENDPOINT || undefined,
    awsRegion: env.AWS_REGION || 'us-east-1',
    databaseUrl: env.DATABASE_URL || undefined,
    databaseUrls: urlsNamed(env, 'DATABASE_URL_'),
    databaseReadUrl: env.DATABASE_READ_URL || undefined,
    databaseReadUrls: urlsNamed(env, 'DATABASE_READ_URL_'),
    connectTimeoutMs: positiveInt(env, 'DB_CONNECT_TIMEOUT_MS', 3000),
    statementTimeoutMs: positiveInt(env, 'DB_STATEMENT_TIMEOUT_MS', 20000),
    poolSize: positiveInt(env, 'DB_POOL_SIZE', onLambda ? 1 : 5),
    idleTimeoutS: positiveInt(env, 'DB_IDLE_TIMEOUT_S', 300),
    dbPrepare: env.DB_PREPARE ? flag(env, 'DB_PREPARE') : undefined,
    maxBodyBytes: positiveInt(env, 'MAX_BODY_BYTES', 5 * 1024 * 1024),
    maxResultBytes: positiveInt(env, 'MAX_RESULT_BYTES', 5 * 1024 * 1024),
    maxRows: positiveInt(env, 'MAX_ROWS', 10_000),
    ...authConfig(env),
    databaseIamAuth: flag(env, 'DATABASE_IAM_AUTH'),
    databaseSecretArn: env.DATABASE_SECRET_ARN || undefined,
    cursorSecret: env.CURSOR_SECRET || undefined,
    mcpAllowedHosts: (env.MCP_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim())
      .filter(Boolean),
    events: eventsConfig(env),
    onLambda,
  });
}

/**
 * Whether sign-in is asked for (AUTH_ISSUER has a value), even when the rest of the configuration does not read:
 * error bodies are then masked (lib/http/mask-error-text.ts), on the safe side of a setting half made.
 */
export function signInAsked(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.AUTH_ISSUER);
}

/** Sign-in and privileges: all or nothing, so a half-configured service never runs open by mistake. */
export function authConfig(env: NodeJS.ProcessEnv) {
  const authIssuer = env.AUTH_ISSUER || undefined;
  const authAudience = env.AUTH_AUDIENCE || undefined;
  if (authIssuer && !authAudience)
    throw new ConfigurationError('AUTH_AUDIENCE must be set with AUTH_ISSUER: the audience tokens must name');
  if (!authIssuer) {
    for (const name of ['AUTH_AUDIENCE', 'AUTH_JWKS_URL', 'PRIVILEGES'])
      if (env[name])
        throw new ConfigurationError(`${name} is set but AUTH_ISSUER is not: without sign-in it cannot apply`);
  }
  return {
    authIssuer,
    authAudience,
    authJwksUrl: env.AUTH_JWKS_URL || undefined,
    authRolesClaim: env.AUTH_ROLES_CLAIM || 'roles',
    authAdminRole: env.AUTH_ADMIN_ROLE || 'admin',
    privileges: env.PRIVILEGES || undefined,
  };
}

/** A webhook is always signed: a URL without its secret, or a secret not in the `whsec_` form, is refused. */
function eventsConfig(env: NodeJS.ProcessEnv): EventsConfig {
  const sinks = ['EVENTS_WEBHOOK_URL', 'EVENTS_EVENTBRIDGE_BUS', 'EVENTS_SQS_QUEUE_URL', 'EVENTS_SNS_TOPIC_ARN'];
  const given = sinks.filter((name) => env[name]);
  if (given.length > 1)
    throw new ConfigurationError(`Change events go to one sink, and ${given.join(', ')} are set: keep one`);
  return Object.freeze({
    source: env.EVENTS_SOURCE || 'relational-resource-service',
    ...webhookConfig(env),
    drainFunction: env.EVENTS_DRAIN_FUNCTION || undefined,
    eventBridgeBus: env.EVENTS_EVENTBRIDGE_BUS || undefined,
    sqsQueueUrl: matching(env, 'EVENTS_SQS_QUEUE_URL', /^https?:\/\/[^\s]+$/i, "the queue's URL (https://sqs...)"),
    snsTopicArn: matching(
      env,
      'EVENTS_SNS_TOPIC_ARN',
      /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[\w.-]+$/,
      'the ARN of a topic (arn:aws:sns:...)',
    ),
    maxAttempts: positiveInt(env, 'EVENTS_MAX_ATTEMPTS', 10),
    drainIntervalMs: positiveInt(env, 'EVENTS_DRAIN_INTERVAL_MS', 1000),
  });
}

function webhookConfig(
  env: NodeJS.ProcessEnv,
): Pick<EventsConfig, 'webhookUrl' | 'webhookSecret' | 'webhookSecretArn'> {
  const webhookUrl = matching(env, 'EVENTS_WEBHOOK_URL', /^https?:\/\/[^\s]+$/i, 'an http:// or https:// URL');
  const webhookSecret = env.EVENTS_WEBHOOK_SECRET || undefined;
  const webhookSecretArn = env.EVENTS_WEBHOOK_SECRET_ARN || undefined;
  if (webhookUrl && !webhookSecret && !webhookSecretArn)
    throw new ConfigurationError(
      'EVENTS_WEBHOOK_SECRET (or EVENTS_WEBHOOK_SECRET_ARN) must be set with EVENTS_WEBHOOK_URL: webhooks are signed',
    );
  if (webhookSecret) checkWebhookSecret(webhookSecret, 'EVENTS_WEBHOOK_SECRET');
  return { webhookUrl, webhookSecret, webhookSecretArn };
}

/** The variable's value, which must match `pattern` (`what` says what it must be); undefined when not set. */
function matching(env: NodeJS.ProcessEnv, name: string, pattern: RegExp, what: string): string | undefined {
  const value = env[name] || undefined;
  if (value !== undefined && !pattern.test(value))
    throw new ConfigurationError(`${name} must be ${what}, got "${value}"`);
  return value;
}

/** A Standard Webhooks secret: `whsec_` and at least 12 bytes in base64; `where` names where it came from. */
export function checkWebhookSecret(secret: string, where: string): void {
  if (!/^whsec_[A-Za-z0-9+/]{16,}={0,2}$/.test(secret))
    throw new ConfigurationError(`${where} must be a whsec_ secret: whsec_ and at least 12 bytes in base64`);
}

/**
 * The bundled definitions folder. On Lambda it is `definitions/` in the package (serverless.yml includes it),
 * which is the task root. serverless-offline sets LAMBDA_TASK_ROOT to /var/task too, which does not exist
 * locally, and runs the handlers bundled into .esbuild/, so neither that nor __dirname finds the folder; its
 * working directory is the project folder. In a checkout (tests, scripts) it is beside the project root.
 */
function defaultDefinitionsDir(env: NodeJS.ProcessEnv): string {
  if (env.IS_OFFLINE) return path.resolve('definitions');
  if (env.LAMBDA_TASK_ROOT) return path.join(env.LAMBDA_TASK_ROOT, 'definitions');
  return path.resolve(__dirname, '..', 'definitions');
}

let cached: Config | undefined;

/** The process-wide configuration, read on first use. */
export function config(): Config {
  cached ??= readConfig();
  return cached;
}

/** For tests that change the environment between cases. */
export function resetConfig(): void {
  cached = undefined;
}
