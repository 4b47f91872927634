/**
 * Table tests of the database login's pure parts: the RDS secret JSON read and checked (never quoting a value of
 * it), the URL a secret describes, TLS under IAM for each driver, and the configurations that are refused before
 * anything is fetched or signed. No database, no network.
 */
import { readConfig } from '../../lib/config';
import { explainMissingDatabase } from '../../lib/db/choose-database';
import { mysqlOptions } from '../../lib/db/engines/mysql/mysql-pool-options';
import { postgresOptions } from '../../lib/db/engines/postgres/postgres-options';
import { iamSource } from '../../lib/db/iam-source';
import { resolveLogin } from '../../lib/db/resolve-login';
import { parseSecretLogin, urlFromSecret } from '../../lib/db/secret-login';
import { ServiceError } from '../../lib/errors';
import { serviceErrorOf } from '../support/resources';

const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/db-AbCdEf';
const shape = 'it must hold the RDS secret JSON {"username", "password", "host", "port", "dbname", "engine"}';
const unusable = (problem: string) => ({
  name: 'DatabaseError',
  status: 500,
  code: 'database_unconfigured',
  message: `The database secret ${arn} (DATABASE_SECRET_ARN) ${problem}; ${shape}`,
});

describe('parseSecretLogin: the RDS secret JSON', () => {
  it.each([
    {
      name: 'every field of an RDS secret',
      text: '{"username":"app","password":"p@ss:/w","host":"db.example","port":5432,"dbname":"shop","engine":"postgres"}',
      expected: {
        username: 'app',
        password: 'p@ss:/w',
        host: 'db.example',
        port: 5432,
        dbname: 'shop',
        engine: 'postgres',
      },
    },
    {
      name: 'only username and password (DATABASE_URL names the server)',
      text: '{"username":"app","password":"x","dbInstanceIdentifier":"ignored"}',
      expected: { username: 'app', password: 'x' },
    },
    {
      name: 'a port as text',
      text: '{"username":"app","password":"x","port":"3306"}',
      expected: { username: 'app', password: 'x', port: 3306 },
    },
  ])('$name', ({ text, expected }) => {
    expect(JSON.parse(JSON.stringify(parseSecretLogin(arn, text)))).toEqual(expected);
  });

  it.each([
    { name: 'no SecretString (a binary secret)', text: undefined, problem: 'holds no text (SecretString)' },
    { name: 'not JSON, and the parser message is not repeated', text: 'password=hunter2', problem: 'is not JSON' },
    { name: 'a JSON array', text: '["hunter2"]', problem: 'is not a JSON object' },
    { name: 'JSON null', text: 'null', problem: 'is not a JSON object' },
    { name: 'no username', text: '{"password":"hunter2"}', problem: 'lacks "username"' },
    { name: 'no password', text: '{"username":"app"}', problem: 'lacks "password"' },
    { name: 'an empty password', text: '{"username":"app","password":""}', problem: 'lacks "password"' },
    {
      name: 'a password that is not text',
      text: '{"username":"app","password":12345}',
      problem: 'has a "password" that is not a string',
    },
    {
      name: 'a port that is not a port',
      text: '{"username":"app","password":"hunter2","port":"hunter2"}',
      problem: 'has a "port" that is not a port number',
    },
  ])('$name is a 500 naming the ARN, never a value', ({ text, problem }) => {
    const error = serviceErrorOf(() => parseSecretLogin(arn, text));
    expect(error).toEqual(unusable(problem));
    expect(error.message).not.toContain('hunter2');
  });
});

describe('urlFromSecret: the server a secret names, without its password', () => {
  const login = { username: 'app', password: 'hunter2', host: 'db.example', port: 6432, dbname: 'shop' };
  it.each([
    { engine: 'postgres', expected: 'postgres://app@db.example:6432/shop' },
    { engine: 'aurora-postgresql', expected: 'postgres://app@db.example:6432/shop' },
    { engine: 'mysql', expected: 'mysql://app@db.example:6432/shop' },
    { engine: 'mariadb', expected: 'mysql://app@db.example:6432/shop' },
    { engine: 'aurora-mysql', expected: 'mysql://app@db.example:6432/shop' },
  ])('engine $engine', ({ engine, expected }) => {
    expect(urlFromSecret(arn, { ...login, engine })).toBe(expected);
  });

  it.each([
    {
      name: 'the default port of the engine, no dbname',
      login: { username: 'app', password: 'x', host: 'h', engine: 'mysql' },
      expected: 'mysql://app@h:3306',
    },
    {
      name: 'postgres default port',
      login: { username: 'app', password: 'x', host: 'h', engine: 'postgres', dbname: 'd' },
      expected: 'postgres://app@h:5432/d',
    },
    {
      name: 'a user and database name that need encoding',
      login: { username: 'a b@c', password: 'x', host: 'h', engine: 'postgres', dbname: 'my db' },
      expected: 'postgres://a%20b%40c@h:5432/my%20db',
    },
  ])('$name', ({ login, expected }) => {
    expect(urlFromSecret(arn, login)).toBe(expected);
  });

  it.each([
    {
      login: { username: 'app', password: 'hunter2', engine: 'postgres' },
      message: `The database secret ${arn} (DATABASE_SECRET_ARN) lacks "host", which is needed when DATABASE_URL is not set; ${shape}`,
    },
    {
      login: { username: 'app', password: 'hunter2', host: 'h' },
      message: `The database secret ${arn} (DATABASE_SECRET_ARN) lacks "engine", which is needed when DATABASE_URL is not set; ${shape}`,
    },
    {
      login: { username: 'app', password: 'hunter2', host: 'h', engine: 'oracle-ee' },
      message: `The database secret ${arn} (DATABASE_SECRET_ARN) has engine "oracle-ee"; the service serves postgres, aurora-postgresql, mysql, mariadb, aurora-mysql`,
    },
  ])('$message', ({ login, message }) => {
    expect(serviceErrorOf(() => urlFromSecret(arn, login))).toEqual({
      name: 'DatabaseError',
      status: 500,
      code: 'database_unconfigured',
      message,
    });
  });
});

describe('TLS when DATABASE_IAM_AUTH=true', () => {
  const options = { connectTimeoutMs: 1000, statementTimeoutMs: 1000, poolSize: 1, idleTimeoutS: 1 };
  // a source of IAM tokens, never asked for one here: the options only say how a token would travel
  const iam = iamSource('postgres://app@h/db', 'eu-west-1');

  it.each([
    { url: 'postgres://app@h/db', ssl: 'verify-full' },
    { url: 'postgres://app@h/db?sslmode=verify-full', ssl: 'verify-full' },
    { url: 'postgres://app@h/db?sslmode=verify-ca', ssl: 'verify-full' },
    { url: 'postgres://app@h/db?ssl=true', ssl: 'verify-full' },
    { url: 'postgres://app@h/db?sslmode=require', ssl: 'require' },
  ])('PostgreSQL $url: $ssl', ({ url, ssl }) => {
    expect(postgresOptions(url, options, iam).ssl).toBe(ssl);
    expect(postgresOptions(url, options).ssl).toBeUndefined();
  });

  it.each(['disable', 'allow', 'prefer'])('PostgreSQL sslmode=%s is refused', (mode) => {
    expect(serviceErrorOf(() => postgresOptions(`postgres://app@h/db?sslmode=${mode}`, options, iam))).toEqual({
      name: 'ConfigurationError',
      status: 500,
      code: 'configuration_invalid',
      message: `DATABASE_IAM_AUTH=true sends the IAM token as the password, so it needs TLS; the database URL has sslmode=${mode}: use sslmode=verify-full (the default) or sslmode=require`,
    });
  });

  it.each([
    { url: 'mysql://app@h/db', iamSsl: 'Amazon RDS', plainSsl: undefined },
    { url: 'mysql://app@h/db?ssl=true', iamSsl: {}, plainSsl: {} },
    { url: 'mysql://app@h/db?ssl=Amazon%20RDS', iamSsl: 'Amazon RDS', plainSsl: 'Amazon RDS' },
    {
      url: 'mysql://app@h/db?ssl=require',
      iamSsl: { rejectUnauthorized: false },
      plainSsl: { rejectUnauthorized: false },
    },
  ])('MySQL $url', ({ url, iamSsl, plainSsl }) => {
    const withIam = mysqlOptions(url, options, iam);
    expect(withIam.ssl).toEqual(iamSsl);
    expect(Object.keys(withIam.authPlugins ?? {})).toEqual(['mysql_clear_password']);
    const plain = mysqlOptions(url, options);
    expect(plain.ssl).toEqual(plainSsl);
    expect(plain.authPlugins).toBeUndefined();
  });

  it('MySQL ssl=false is refused', () => {
    expect(serviceErrorOf(() => mysqlOptions('mysql://app@h/db?ssl=false', options, iam))).toMatchObject({
      code: 'configuration_invalid',
      message: expect.stringContaining('the database URL has ssl=false'),
    });
  });
});

describe('resolveLogin: configurations refused before anything is fetched or signed', () => {
  const refusal = async (
    env: Record<string, string | undefined>,
    url: string | undefined,
    variable = 'DATABASE_URL',
  ) => {
    const error = await resolveLogin(readConfig(env), url, variable).catch((e: unknown) => e);
    if (!(error instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(error)}`);
    return { code: error.code, message: error.message };
  };

  it.each([
    {
      name: 'both ways at once',
      env: { DATABASE_IAM_AUTH: 'true', DATABASE_SECRET_ARN: arn },
      url: 'postgres://app@h/db',
      message: 'DATABASE_IAM_AUTH=true and DATABASE_SECRET_ARN are both set: choose one way to log in to the database',
    },
    {
      name: 'IAM and a URL with a password',
      env: { DATABASE_IAM_AUTH: 'true' },
      url: 'postgres://app:hunter2@h/db',
      message:
        'DATABASE_URL holds a password, but with DATABASE_IAM_AUTH=true the password comes from an IAM token: remove it from the URL',
    },
    {
      name: 'a secret and a URL with a password',
      env: { DATABASE_SECRET_ARN: arn },
      url: 'mysql://app:hunter2@h/db',
      message:
        'DATABASE_URL holds a password, but with DATABASE_SECRET_ARN the password comes from the secret: remove it from the URL',
    },
    {
      name: 'IAM and a URL without a user',
      env: { DATABASE_IAM_AUTH: 'true' },
      url: 'postgres://h/db',
      message: "DATABASE_URL names no user: DATABASE_IAM_AUTH=true signs a token for the URL's user",
    },
  ])('$name', async ({ env, url, message }) => {
    const refused = await refusal(env, url);
    expect(refused).toEqual({ code: 'configuration_invalid', message });
    expect(refused.message).not.toContain('hunter2');
  });

  it('no flag: the URL as it is, password included (local runs)', async () => {
    expect(await resolveLogin(readConfig({}), 'postgres://app:pw@h/db', 'DATABASE_URL')).toEqual({
      url: 'postgres://app:pw@h/db',
    });
  });
});

describe('explainMissingDatabase when the secret names the server', () => {
  const config = { databaseUrl: undefined, databaseUrls: {}, databaseSecretArn: arn };
  it.each([
    {
      database: 'bookstore',
      expected: `Resource Book selects database bookstore, which does not exist on the server of the database secret ${arn} (DATABASE_SECRET_ARN); create it there, or set DATABASE_URL_BOOKSTORE to the URL of the database to use`,
    },
    {
      database: undefined,
      expected: `Resource Book uses the database named by the database secret ${arn} (DATABASE_SECRET_ARN), which does not exist on its server; create it, or correct the secret's dbname`,
    },
  ])('$database', ({ database, expected }) => {
    expect(explainMissingDatabase(config, 'Book', database)).toBe(expected);
  });
});
