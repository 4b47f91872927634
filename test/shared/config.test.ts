/**
 * Table tests of configuration and of which database a definition selects: readConfig over explicit environments,
 * chooseDatabase, chooseReadDatabase (the readers), the missing-database sentences, engineOfUrl and URL masking.
 * Pure: no connection is made.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Config, readConfig } from '../../lib/config';
import { chooseDatabase, chooseReadDatabase, explainMissingDatabase } from '../../lib/db/choose-database';
import { engineOfUrl } from '../../lib/db/engines/registry';
import { databaseOf, maskUrl, serverOf } from '../../lib/db/mask-url';
import { serviceErrorOf } from '../support/resources';

const bundledDefinitions = path.resolve(__dirname, '..', '..', 'definitions');
const mib5 = 5 * 1024 * 1024;

const defaults: Config = {
  definitionsDir: bundledDefinitions,
  definitionsS3: undefined,
  definitionsTtlS: 60,
  s3Endpoint: undefined,
  awsRegion: 'us-east-1',
  databaseUrl: undefined,
  databaseUrls: {},
  databaseReadUrl: undefined,
  databaseReadUrls: {},
  connectTimeoutMs: 3000,
  statementTimeoutMs: 20000,
  poolSize: 5,
  idleTimeoutS: 300,
  maxBodyBytes: mib5,
  maxResultBytes: mib5,
  maxRows: 10_000,
  authIssuer: undefined,
  authAudience: undefined,
  authJwksUrl: undefined,
  authRolesClaim: 'roles',
  authAdminRole: 'admin',
  privileges: undefined,
  databaseIamAuth: false,
  databaseSecretArn: undefined,
  mcpAllowedHosts: [],
  events: {
    source: 'relational-resource-service',
    webhookUrl: undefined,
    webhookSecret: undefined,
    webhookSecretArn: undefined,
    drainFunction: undefined,
    maxAttempts: 10,
    drainIntervalMs: 1000,
  },
  onLambda: false,
};

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('readConfig', () => {
  it.each([
    { name: 'an empty environment gives the defaults', env: {}, expected: defaults },
    {
      name: 'DATABASE_URL and every DATABASE_URL_<NAME> with a value',
      env: {
        DATABASE_URL: 'postgres://u:p@h/main',
        DATABASE_URL_SAKILA: 'mysql://u:p@h/sakila',
        DATABASE_URL_BOOK_STORE: 'postgres://u:p@h/bookstore',
        DATABASE_URL_EMPTY: '',
        DATABASE_URLX: 'not one of them',
        OTHER: 'x',
      },
      expected: {
        ...defaults,
        databaseUrl: 'postgres://u:p@h/main',
        databaseUrls: { SAKILA: 'mysql://u:p@h/sakila', BOOK_STORE: 'postgres://u:p@h/bookstore' },
      },
    },
    {
      name: 'DATABASE_READ_URL and every DATABASE_READ_URL_<NAME> with a value, apart from the writers',
      env: {
        DATABASE_URL: 'postgres://u:p@writer/main',
        DATABASE_URL_SAKILA: 'mysql://u:p@w/sakila',
        DATABASE_READ_URL: 'postgres://u:p@reader/main',
        DATABASE_READ_URL_SAKILA: 'mysql://u:p@r/sakila',
        DATABASE_READ_URL_EMPTY: '',
        DATABASE_READ_URLX: 'not one of them',
      },
      expected: {
        ...defaults,
        databaseUrl: 'postgres://u:p@writer/main',
        databaseUrls: { SAKILA: 'mysql://u:p@w/sakila' },
        databaseReadUrl: 'postgres://u:p@reader/main',
        databaseReadUrls: { SAKILA: 'mysql://u:p@r/sakila' },
      },
    },
    {
      name: 'empty strings count as unset',
      env: {
        DATABASE_URL: '',
        DATABASE_READ_URL: '',
        DEFINITIONS_DIR: '',
        DEFINITIONS_S3: '',
        DB_CONNECT_TIMEOUT_MS: '',
      },
      expected: defaults,
    },
    {
      name: 'a definitions folder, resolved; S3 definitions',
      env: { DEFINITIONS_DIR: '/srv/defs/', DEFINITIONS_S3: 's3://bucket/prefix' },
      expected: { ...defaults, definitionsDir: '/srv/defs', definitionsS3: 's3://bucket/prefix' },
    },
    {
      name: 'a relative definitions folder is resolved against the working directory',
      env: { DEFINITIONS_DIR: 'my/defs' },
      expected: { ...defaults, definitionsDir: path.resolve('my/defs') },
    },
    {
      name: 'numbers',
      env: {
        DB_CONNECT_TIMEOUT_MS: '1500',
        DB_STATEMENT_TIMEOUT_MS: '9000',
        DB_POOL_SIZE: '1',
        DB_IDLE_TIMEOUT_S: '30',
        MAX_BODY_BYTES: '1024',
        MAX_RESULT_BYTES: '2048',
      },
      expected: {
        ...defaults,
        connectTimeoutMs: 1500,
        statementTimeoutMs: 9000,
        poolSize: 1,
        idleTimeoutS: 30,
        maxBodyBytes: 1024,
        maxResultBytes: 2048,
      },
    },
    {
      name: 'sign-in, privileges and database credentials',
      env: {
        AUTH_ISSUER: 'https://issuer.example',
        AUTH_AUDIENCE: 'rrs',
        AUTH_JWKS_URL: 'file:///srv/jwks.json',
        AUTH_ROLES_CLAIM: 'realm_access.roles',
        AUTH_ADMIN_ROLE: 'ops',
        PRIVILEGES: 's3://bucket/privileges.properties',
        DATABASE_IAM_AUTH: 'true',
        DATABASE_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:db-AbCdEf',
      },
      expected: {
        ...defaults,
        authIssuer: 'https://issuer.example',
        authAudience: 'rrs',
        authJwksUrl: 'file:///srv/jwks.json',
        authRolesClaim: 'realm_access.roles',
        authAdminRole: 'ops',
        privileges: 's3://bucket/privileges.properties',
        databaseIamAuth: true,
        databaseSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:db-AbCdEf',
      },
    },
    {
      name: 'change events: the source, a signed webhook and the drain',
      env: {
        EVENTS_SOURCE: 'https://api.example.com',
        EVENTS_WEBHOOK_URL: 'http://localhost:4000/hooks',
        EVENTS_WEBHOOK_SECRET: secret,
        EVENTS_MAX_ATTEMPTS: '3',
        EVENTS_DRAIN_INTERVAL_MS: '250',
      },
      expected: {
        ...defaults,
        events: {
          source: 'https://api.example.com',
          webhookUrl: 'http://localhost:4000/hooks',
          webhookSecret: secret,
          webhookSecretArn: undefined,
          drainFunction: undefined,
          maxAttempts: 3,
          drainIntervalMs: 250,
        },
      },
    },
    {
      name: 'change events on AWS: the webhook secret in Secrets Manager, the drain function named',
      env: {
        EVENTS_WEBHOOK_URL: 'https://hooks.example.com/rrs',
        EVENTS_WEBHOOK_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/webhook-AbCdEf',
        EVENTS_DRAIN_FUNCTION: 'rrs-prod-eventsDrain',
      },
      expected: {
        ...defaults,
        events: {
          ...defaults.events,
          webhookUrl: 'https://hooks.example.com/rrs',
          webhookSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/webhook-AbCdEf',
          drainFunction: 'rrs-prod-eventsDrain',
        },
      },
    },
    {
      name: 'on Lambda the pool is 1: a container serves one request at a time',
      env: { AWS_LAMBDA_FUNCTION_NAME: 'rrs-get' },
      expected: { ...defaults, poolSize: 1, onLambda: true },
    },
    {
      name: 'under serverless-offline the pool stays 5',
      env: { AWS_LAMBDA_FUNCTION_NAME: 'rrs-get', IS_OFFLINE: 'true' },
      expected: defaults,
    },
    {
      name: 'on Lambda the bundled definitions are in the task root',
      env: { AWS_LAMBDA_FUNCTION_NAME: 'rrs-get', LAMBDA_TASK_ROOT: '/var/task' },
      expected: { ...defaults, definitionsDir: '/var/task/definitions', poolSize: 1, onLambda: true },
    },
    {
      name: 'an explicit pool size wins on Lambda',
      env: { AWS_LAMBDA_FUNCTION_NAME: 'rrs-get', DB_POOL_SIZE: '4' },
      expected: { ...defaults, poolSize: 4, onLambda: true },
    },
  ] as { name: string; env: NodeJS.ProcessEnv; expected: Config }[])('$name', ({ env, expected }) => {
    expect(readConfig(env)).toEqual(expected);
  });

  it('under serverless-offline (LAMBDA_TASK_ROOT=/var/task) the definitions are in the working directory', () => {
    const cwd = process.cwd();
    const project = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'rrs-offline-')));
    try {
      process.chdir(project);
      const env = { AWS_LAMBDA_FUNCTION_NAME: 'rrs-get', IS_OFFLINE: 'true', LAMBDA_TASK_ROOT: '/var/task' };
      expect(readConfig(env).definitionsDir).toBe(path.join(project, 'definitions'));
      expect(readConfig({ ...env, DEFINITIONS_DIR: '/srv/defs' }).definitionsDir).toBe('/srv/defs');
    } finally {
      process.chdir(cwd);
      rmSync(project, { recursive: true });
    }
  });

  it('is frozen, and so are its database URLs', () => {
    const config = readConfig({ DATABASE_URL_A: 'postgres://h/a', DATABASE_READ_URL_A: 'postgres://r/a' });
    expect([config, config.databaseUrls, config.databaseReadUrls].map(Object.isFrozen)).toEqual([true, true, true]);
  });

  it.each([
    { name: 'DB_CONNECT_TIMEOUT_MS', value: 'abc' },
    { name: 'DB_CONNECT_TIMEOUT_MS', value: '0' },
    { name: 'DB_STATEMENT_TIMEOUT_MS', value: '-5' },
    { name: 'DB_POOL_SIZE', value: '1.5' },
    { name: 'MAX_BODY_BYTES', value: ' ' },
    { name: 'MAX_RESULT_BYTES', value: '10MB' },
  ])('$name=$value is a configuration_invalid 500 naming it', ({ name, value }) => {
    expect(serviceErrorOf(() => readConfig({ [name]: value }))).toEqual({
      name: 'ConfigurationError',
      status: 500,
      code: 'configuration_invalid',
      message: `${name} must be a positive integer, got "${value}"`,
    });
  });

  it.each([
    {
      env: { AUTH_ISSUER: 'https://issuer.example' },
      message: 'AUTH_AUDIENCE must be set with AUTH_ISSUER: the audience tokens must name',
    },
    {
      env: { AUTH_AUDIENCE: 'rrs' },
      message: 'AUTH_AUDIENCE is set but AUTH_ISSUER is not: without sign-in it cannot apply',
    },
    {
      env: { PRIVILEGES: 'privileges.properties' },
      message: 'PRIVILEGES is set but AUTH_ISSUER is not: without sign-in it cannot apply',
    },
    { env: { DATABASE_IAM_AUTH: 'yes' }, message: 'DATABASE_IAM_AUTH must be true or false, got "yes"' },
    {
      env: { EVENTS_WEBHOOK_URL: 'http://localhost:4000/hooks' },
      message:
        'EVENTS_WEBHOOK_SECRET (or EVENTS_WEBHOOK_SECRET_ARN) must be set with EVENTS_WEBHOOK_URL: webhooks are signed',
    },
    {
      env: { EVENTS_WEBHOOK_URL: 'localhost:4000', EVENTS_WEBHOOK_SECRET: secret },
      message: 'EVENTS_WEBHOOK_URL must be an http:// or https:// URL, got "localhost:4000"',
    },
    {
      env: { EVENTS_WEBHOOK_URL: 'http://localhost:4000/hooks', EVENTS_WEBHOOK_SECRET: 'hunter2' },
      message: 'EVENTS_WEBHOOK_SECRET must be a whsec_ secret: whsec_ and at least 12 bytes in base64',
    },
    { env: { EVENTS_MAX_ATTEMPTS: '0' }, message: 'EVENTS_MAX_ATTEMPTS must be a positive integer, got "0"' },
  ])('$message', ({ env, message }) => {
    expect(serviceErrorOf(() => readConfig(env))).toMatchObject({ code: 'configuration_invalid', message });
  });

  it('DEFINITIONS_TTL_S may be 0 but not negative', () => {
    expect(readConfig({ DEFINITIONS_TTL_S: '0' }).definitionsTtlS).toBe(0);
    expect(serviceErrorOf(() => readConfig({ DEFINITIONS_TTL_S: '-1' }))).toMatchObject({
      code: 'configuration_invalid',
      message: 'DEFINITIONS_TTL_S must be a non-negative integer, got "-1"',
    });
  });
});

const config = (databaseUrl: string | undefined, databaseUrls: Record<string, string> = {}) => ({
  databaseUrl,
  databaseUrls,
});

describe('chooseDatabase: the URL of database X', () => {
  it.each([
    {
      name: 'DATABASE_URL_X wins',
      config: config('postgres://u:p@h:5432/main', { SAKILA: 'mysql://u:p@m:3306/sakila' }),
      database: 'sakila',
      expected: 'mysql://u:p@m:3306/sakila',
    },
    {
      name: 'X is upper-cased, characters outside A-Z0-9 become _',
      config: config(undefined, { BOOK_STORE_2: 'postgres://h/bs' }),
      database: 'Book-store.2',
      expected: 'postgres://h/bs',
    },
    {
      name: 'otherwise DATABASE_URL with its database part replaced',
      config: config('postgres://u:p@h:5432/main?sslmode=require', { OTHER: 'mysql://h/other' }),
      database: 'bookstore',
      expected: 'postgres://u:p@h:5432/bookstore?sslmode=require',
    },
    {
      name: 'a DATABASE_URL without a database part gets one',
      config: config('mysql://u:p@h:3306'),
      database: 'sakila',
      expected: 'mysql://u:p@h:3306/sakila',
    },
    {
      name: 'the database name is percent-encoded in the URL',
      config: config('postgresql://h/main'),
      database: 'my db',
      expected: 'postgresql://h/my%20db',
    },
    {
      name: 'no database: DATABASE_URL as it is',
      config: config('postgres://u:p%40ss@h/main?sslmode=require', { MAIN: 'mysql://h/x' }),
      database: undefined,
      expected: 'postgres://u:p%40ss@h/main?sslmode=require',
    },
    {
      name: 'an empty database name is no database',
      config: config('postgres://h/main'),
      database: '',
      expected: 'postgres://h/main',
    },
  ])('$name', ({ config, database, expected }) => {
    expect(chooseDatabase(config, database).url).toBe(expected);
  });

  it.each([
    { config: config(undefined), database: 'sakila' },
    { config: config(undefined), database: undefined },
    { config: config(undefined, { OTHER: 'mysql://h/o' }), database: 'sakila' },
  ])('no DATABASE_URL and no DATABASE_URL_X for $database is a 500', ({ config, database }) => {
    expect(serviceErrorOf(() => chooseDatabase(config, database).url)).toEqual({
      name: 'DatabaseError',
      status: 500,
      code: 'database_unconfigured',
      message: 'No database is configured: set DATABASE_URL (see README)',
    });
  });
});

const readers = (
  databaseReadUrl: string | undefined,
  databaseReadUrls: Record<string, string> = {},
  databaseUrls: Record<string, string> = {},
) => ({ databaseReadUrl, databaseReadUrls, databaseUrls });

describe('chooseReadDatabase: where the reads of database X go (undefined: to its writer)', () => {
  it.each([
    { name: 'no read URL at all: the writer', config: readers(undefined), database: 'bookstore', expected: undefined },
    {
      name: 'DATABASE_READ_URL_X wins',
      config: readers('postgres://r:5432/main', { BOOK_STORE: 'postgres://r2/copy' }),
      database: 'book-store',
      expected: 'postgres://r2/copy',
    },
    {
      name: 'DATABASE_READ_URL_X even when DATABASE_URL_X names the writer',
      config: readers(undefined, { SAKILA: 'mysql://r/sakila' }, { SAKILA: 'mysql://w/sakila' }),
      database: 'sakila',
      expected: 'mysql://r/sakila',
    },
    {
      name: 'otherwise DATABASE_READ_URL with its database part replaced by X',
      config: readers('postgres://ro:p@reader:5432/main?sslmode=require', { OTHER: 'postgres://r/o' }),
      database: 'bookstore',
      expected: 'postgres://ro:p@reader:5432/bookstore?sslmode=require',
    },
    {
      name: 'a DATABASE_READ_URL without a database part gets one',
      config: readers('mysql://reader:3306'),
      database: 'sakila',
      expected: 'mysql://reader:3306/sakila',
    },
    {
      name: 'a writer of its own (DATABASE_URL_X) and no DATABASE_READ_URL_X: reads stay on that writer',
      config: readers('postgres://reader/main', {}, { BOOKSTORE: 'postgres://elsewhere/copy' }),
      database: 'bookstore',
      expected: undefined,
    },
    {
      name: 'no database: DATABASE_READ_URL as it is',
      config: readers('postgres://reader/main', { MAIN: 'postgres://r/x' }),
      database: undefined,
      expected: 'postgres://reader/main',
    },
    {
      name: 'DATABASE_READ_URL_X alone does not serve a definition without <database>',
      config: readers(undefined, { MAIN: 'postgres://r/x' }),
      database: undefined,
      expected: undefined,
    },
  ])('$name', ({ config, database, expected }) => {
    expect(chooseReadDatabase(config, database)?.url).toBe(expected);
  });

  it('a DATABASE_READ_URL that does not parse is a 500 naming it, not its value', () => {
    expect(serviceErrorOf(() => chooseReadDatabase(readers('postgres://u:secret@[bad/db'), 'x'))).toEqual({
      name: 'DatabaseError',
      status: 500,
      code: 'database_unconfigured',
      message: 'DATABASE_READ_URL is not a valid URL (expected postgres://... or mysql://...)',
    });
  });
});

describe('explainMissingDatabase: the database a resource uses does not exist on its server', () => {
  it.each([
    {
      name: 'database X on the server of DATABASE_URL: names DATABASE_URL_X as the fix, and only host:port of the URL',
      config: config('postgres://u:secret@h:5432/mydb?sslmode=require'),
      database: 'bookstore',
      expected:
        'Resource Book selects database bookstore, which does not exist on the server of DATABASE_URL (h:5432); create it there, or set DATABASE_URL_BOOKSTORE to the URL of the database to use',
    },
    {
      name: 'DATABASE_URL_X was the URL used: names that variable and its database',
      config: config('postgres://u@h/mydb', { BOOK_STORE: 'mysql://root:secret@m:3306/my_copy' }),
      database: 'book-store',
      expected:
        'Resource Book selects database book-store through DATABASE_URL_BOOK_STORE, whose database my_copy does not exist on its server (m:3306); create it, or set DATABASE_URL_BOOK_STORE to the URL of an existing database',
    },
    {
      name: 'no <database>: DATABASE_URL as it is',
      config: config('postgres://u@h:5432/mydb'),
      database: undefined,
      expected:
        'Resource Book uses DATABASE_URL, whose database mydb does not exist on its server (h:5432); create it, or set DATABASE_URL to the URL of an existing database',
    },
  ])('$name', ({ config, database, expected }) => {
    expect(explainMissingDatabase(config, 'Book', database)).toBe(expected);
  });

  it.each([
    {
      name: 'on the reader of DATABASE_READ_URL: names DATABASE_READ_URL_X as the fix',
      config: { ...config('postgres://u@w:5432/main'), ...readers('postgres://ro:secret@r:5432/main') },
      database: 'bookstore',
      expected:
        'Resource Book selects database bookstore, which does not exist on the server of DATABASE_READ_URL (r:5432); create it there, or set DATABASE_READ_URL_BOOKSTORE to the URL of the database to use',
    },
    {
      name: 'on the reader DATABASE_READ_URL_X: names that variable',
      config: { ...config('postgres://u@w/main'), ...readers(undefined, { BOOKSTORE: 'mysql://ro@r:3306/copy' }) },
      database: 'bookstore',
      expected:
        'Resource Book selects database bookstore through DATABASE_READ_URL_BOOKSTORE, whose database copy does not exist on its server (r:3306); create it, or set DATABASE_READ_URL_BOOKSTORE to the URL of an existing database',
    },
  ])('$name', ({ config, database, expected }) => {
    expect(explainMissingDatabase(config, 'Book', database, true)).toBe(expected);
  });
});

describe('masking database URLs', () => {
  it.each([
    { url: 'postgres://u:p%40ss@h:5432/db?sslmode=require', masked: 'postgres://u:***@h:5432/db?sslmode=require' },
    { url: 'mysql://root@h/db', masked: 'mysql://root@h/db' },
    { url: 'postgres://h/db?password=pw&sslkey=/k.pem', masked: 'postgres://h/db?password=***&sslkey=***' },
    { url: 'not a url', masked: '(a URL that does not parse)' },
  ])('maskUrl($url)', ({ url, masked }) => {
    expect(maskUrl(url)).toBe(masked);
  });

  it.each([
    { url: 'postgres://u:pw@h:5432/db?password=pw', server: 'h:5432' },
    { url: 'mysql://h/db', server: 'h' },
    { url: 'nope', server: '(a URL that does not parse)' },
  ])('serverOf($url)', ({ url, server }) => {
    expect(serverOf(url)).toBe(server);
  });

  it.each([
    { url: 'postgres://h/my%20db', database: 'my db' },
    { url: 'mysql://h:3306', database: '' },
    { url: 'postgres://h/50%', database: '50%' },
  ])('databaseOf($url)', ({ url, database }) => {
    expect(databaseOf(url)).toBe(database);
  });
});

describe('engineOfUrl', () => {
  it.each([
    { url: 'postgres://u:p@h:5432/db', engine: 'postgres' },
    { url: 'postgresql://h/db', engine: 'postgres' },
    { url: 'POSTGRES://h/db', engine: 'postgres' },
    { url: 'mysql://u:p@h:3306/db', engine: 'mysql' },
    { url: 'mariadb://h/db', engine: 'mysql' },
  ])('$url → $engine', ({ url, engine }) => {
    expect(engineOfUrl(url).name).toBe(engine);
  });

  it.each([
    { url: 'sqlite://file.db', scheme: 'sqlite' },
    { url: 'mssql://h/db', scheme: 'mssql' },
    { url: 'http://h/db', scheme: 'http' },
  ])('$url is unsupported', ({ url, scheme }) => {
    expect(serviceErrorOf(() => engineOfUrl(url))).toEqual({
      name: 'DatabaseError',
      status: 500,
      code: 'database_unconfigured',
      message: `Database URL scheme "${scheme}:" is not supported; use postgres:// or mysql://`,
    });
  });
});
