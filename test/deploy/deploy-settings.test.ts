/**
 * What `serverless package` and `deploy` check and add (scripts/deploy/deploy-settings.js), by tables of cases:
 * every error and warning, word for word, and for the accepted params the whole result (environment, IAM
 * statements, authorizer, packaged files). test/deploy/package.test.ts checks the same on a real package.
 */
import { type DeploySettings, deploySettings } from '../../scripts/deploy/deploy-settings';

const issuer = 'https://issuer.example.com/';
const audience = 'rrs-api';
const proxyUrl = 'postgres://rrs@my-proxy.proxy-abc123.eu-west-1.rds.amazonaws.com:5432/bookstore';
const proxy = 'prx-0123456789abcdef0';
const secretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/db-AbCdEf';
const kmsArn = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const files = new Set(['definitions/privileges.properties', 'config/privileges.properties']);

const signIn = { authIssuer: issuer, authAudience: audience, privileges: 'definitions/privileges.properties' };
const signInEnv = { AUTH_ISSUER: issuer, AUTH_AUDIENCE: audience, PRIVILEGES: 'definitions/privileges.properties' };
const iam = { databaseIamAuth: 'true', databaseProxyResourceId: proxy };
const url = (value: string) => [{ name: 'DATABASE_URL', value }];
const dbUser = (user: string) => ({
  'Fn::Sub': `arn:\${AWS::Partition}:rds-db:\${AWS::Region}:\${AWS::AccountId}:dbuser:${proxy}/${user}`,
});
const connect = (...users: string[]) => ({ Effect: 'Allow', Action: ['rds-db:connect'], Resource: users.map(dbUser) });
const getSecret = { Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: secretArn };

const noPrivilegesWarning =
  'Sign-in is on but no privileges file is given (--param="privileges=..."): every request will be refused with ' +
  'a 403 until you give one. See docs/deployment.md#sign-in';
const authNoneWarning =
  'auth=none: this API has no sign-in. Anyone who can reach it can read, insert, update and delete every ' +
  'resource. Keep it in a private network, or deploy with --param="authIssuer=..." --param="authAudience=...".';
const noSignInError = [
  'Sign-in is not configured. Give the issuer and the audience of the tokens your callers send:',
  '  --param="authIssuer=https://your-issuer.example.com/" --param="authAudience=your-api"',
  'or, to deploy an API that anyone who can reach it may read and write, say so: --param="auth=none".',
  'See docs/deployment.md#sign-in',
].join('\n');
const noDatabaseError = [
  'No database is configured, so every request would fail. Give one of:',
  '  --param="databaseUrl=postgres://user@host:5432/db" (or mysql://...) with --param="databaseIamAuth=true"',
  '  --param="databaseSecretArn=arn:aws:secretsmanager:..."',
  'See docs/deployment.md#database-credentials',
].join('\n');
const passwordError = (label: string) =>
  `${label} carries a password, which would be written into the functions' configuration, the CloudFormation ` +
  'template and .serverless/. Leave it out of the URL and sign in to the database with ' +
  '--param="databaseIamAuth=true" (RDS Proxy IAM authentication) or --param="databaseSecretArn=arn:..." ' +
  '(Secrets Manager). See docs/deployment.md#database-credentials';
const notAUrl = (label: string) =>
  `${label} is not a database URL (postgres://, postgresql://, mysql:// or mariadb://)`;
const noneOnly = (name: string) => `${name} applies only with sign-in (authIssuer), and auth=none turns sign-in off`;

interface Case {
  readonly params: Record<string, string>;
  readonly urls?: { name: string; value: string }[];
}

function settingsOf({ params, urls = [] }: Case): DeploySettings {
  return deploySettings({ params, databaseUrls: urls, isFile: (relative) => files.has(relative) });
}

describe('refused params: every problem is reported, each in its own words', () => {
  it.each<[string, Case, string[]]>([
    ['nothing at all', { params: {} }, [noSignInError, noDatabaseError]],
    [
      'every param empty, as serverless.yml passes them',
      { params: { authIssuer: '', auth: '' } },
      [noSignInError, noDatabaseError],
    ],
    ['no sign-in, a database', { params: {}, urls: url(proxyUrl) }, [noSignInError]],
    [
      'auth with another value than none',
      { params: { auth: 'open' }, urls: url(proxyUrl) },
      ['--param="auth=open" is not understood: its only value is none (deploy without sign-in)'],
    ],
    [
      'auth=none and an issuer',
      { params: { auth: 'none', authIssuer: issuer }, urls: url(proxyUrl) },
      ['Give either --param="authIssuer=..." (sign-in) or --param="auth=none" (no sign-in), not both'],
    ],
    [
      'auth=none with sign-in settings',
      {
        params: { auth: 'none', authAudience: 'a', authRolesClaim: 'groups', authAdminRole: 'ops', privileges: 'p' },
        urls: url(proxyUrl),
      },
      ['authAudience', 'authRolesClaim', 'authAdminRole', 'privileges'].map(noneOnly),
    ],
    [
      'an issuer that is not https',
      { params: { ...signIn, authIssuer: 'http://issuer.example.com/' }, urls: url(proxyUrl) },
      ['authIssuer must be the https:// URL of the issuer (the "iss" of its tokens), got "http://issuer.example.com/"'],
    ],
    [
      'an issuer that is no URL',
      { params: { ...signIn, authIssuer: 'issuer.example.com' }, urls: url(proxyUrl) },
      ['authIssuer must be the https:// URL of the issuer (the "iss" of its tokens), got "issuer.example.com"'],
    ],
    [
      'an issuer without audience',
      { params: { ...signIn, authAudience: '' }, urls: url(proxyUrl) },
      ['authAudience is missing: give the audience ("aud") your tokens name: --param="authAudience=..."'],
    ],
    [
      'privileges in a bucket without key',
      { params: { ...signIn, privileges: 's3://bucket' }, urls: url(proxyUrl) },
      ['privileges must be s3://bucket/key (one object), got "s3://bucket"'],
    ],
    [
      'privileges naming an S3 folder',
      { params: { ...signIn, privileges: 's3://bucket/auth/' }, urls: url(proxyUrl) },
      ['privileges must be s3://bucket/key (one object), got "s3://bucket/auth/"'],
    ],
    ...['/etc/privileges.properties', '../privileges.properties', 'definitions/../../x'].map(
      (location): [string, Case, string[]] => [
        `privileges outside the project: ${location}`,
        { params: { ...signIn, privileges: location }, urls: url(proxyUrl) },
        [
          'privileges must be a file inside the project, which is packaged with the functions, or s3://bucket/key; ' +
            `got "${location}"`,
        ],
      ],
    ),
    [
      'a privileges file that is not there',
      { params: { ...signIn, privileges: 'definitions/nope.properties' }, urls: url(proxyUrl) },
      ['The privileges file definitions/nope.properties does not exist in the project folder'],
    ],
    [
      'databaseIamAuth neither true nor false',
      { params: { ...signIn, databaseIamAuth: 'yes' }, urls: url(proxyUrl) },
      ['databaseIamAuth must be true or false, got "yes"'],
    ],
    [
      'IAM authentication and a secret',
      { params: { ...signIn, ...iam, databaseSecretArn: secretArn }, urls: url(proxyUrl) },
      ['Choose one way to sign in to the database: databaseIamAuth=true or databaseSecretArn, not both'],
    ],
    ['IAM authentication without a URL', { params: { ...signIn, ...iam } }, [noDatabaseError]],
    ['a URL that does not parse', { params: signIn, urls: url('not a url') }, [notAUrl('databaseUrl (DATABASE_URL)')]],
    [
      'a URL of another scheme, named',
      { params: signIn, urls: [{ name: 'DATABASE_URL_SALES', value: 'https://db.example.com/sales' }] },
      [notAUrl('DATABASE_URL_SALES')],
    ],
    [
      'a password without IAM or secret',
      { params: signIn, urls: url('postgres://rrs:s3cret@db:5432/bookstore') },
      [passwordError('databaseUrl (DATABASE_URL)')],
    ],
    [
      'a password with IAM authentication',
      { params: { ...signIn, ...iam }, urls: url('postgres://rrs:s3cret@db:5432/bookstore') },
      [passwordError('databaseUrl (DATABASE_URL)')],
    ],
    [
      'a password in a named URL, with a secret',
      {
        params: { ...signIn, databaseSecretArn: secretArn },
        urls: [{ name: 'DATABASE_URL_SALES', value: 'mysql://rrs:s3cret@db:3306/sales' }],
      },
      [passwordError('DATABASE_URL_SALES')],
    ],
    ...['password', 'sslpassword', 'secret', 'token'].map((name): [string, Case, string[]] => [
      `a password in the query: ${name}`,
      { params: { ...signIn, ...iam }, urls: url(`${proxyUrl}?${name}=s3cret`) },
      [passwordError('databaseUrl (DATABASE_URL)')],
    ]),
    [
      'IAM authentication without the proxy',
      { params: { ...signIn, databaseIamAuth: 'true' }, urls: url(proxyUrl) },
      [
        'databaseIamAuth=true needs the resource id of the RDS Proxy: --param="databaseProxyResourceId=prx-..." ' +
          '(the last part of the proxy\'s ARN: aws rds describe-db-proxies --query "DBProxies[].DBProxyArn")',
      ],
    ],
    ...['my-proxy', 'arn:aws:rds:eu-west-1:123456789012:db-proxy:prx-0123', 'prx-ABC'].map(
      (id): [string, Case, string[]] => [
        `a proxy id that is not one: ${id}`,
        { params: { ...signIn, ...iam, databaseProxyResourceId: id }, urls: url(proxyUrl) },
        [`databaseProxyResourceId must look like prx-0123456789abcdef0, got "${id}"`],
      ],
    ),
    [
      'IAM authentication and a URL without user',
      { params: { ...signIn, ...iam }, urls: url('postgres://db.example.com:5432/bookstore') },
      ["databaseUrl (DATABASE_URL) names no user: IAM authentication connects as the URL's user"],
    ],
    [
      'a proxy without IAM authentication',
      { params: { ...signIn, databaseProxyResourceId: proxy }, urls: url(proxyUrl) },
      ['databaseProxyResourceId applies only with databaseIamAuth=true'],
    ],
    ...[
      'arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/db',
      'rrs/db-AbCdEf',
      'arn:aws:secretsmanager:eu-west-1:1234:secret:rrs/db-AbCdEf',
      'arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/*',
    ].map((arn): [string, Case, string[]] => [
      `a secret ARN that is not whole: ${arn}`,
      { params: { ...signIn, databaseSecretArn: arn } },
      [
        'databaseSecretArn must be the whole ARN of a Secrets Manager secret, as describe-secret shows it ' +
          `(arn:aws:secretsmanager:eu-west-1:123456789012:secret:name-AbCdEf), got "${arn}"`,
      ],
    ]),
    [
      'a KMS key without secret',
      { params: { ...signIn, databaseSecretKmsKeyArn: kmsArn }, urls: url('postgres://rrs@db/bookstore') },
      ['databaseSecretKmsKeyArn applies only with databaseSecretArn'],
    ],
    [
      'a KMS key that is an alias',
      { params: { ...signIn, databaseSecretArn: secretArn, databaseSecretKmsKeyArn: 'alias/rrs' } },
      ['databaseSecretKmsKeyArn must be the ARN of a KMS key (arn:aws:kms:...:key/...), got "alias/rrs"'],
    ],
  ])('%s', (_name, input, errors) => {
    expect(settingsOf(input).errors).toEqual(errors);
  });

  it('never repeats a URL in a message, since it may hold a password', () => {
    const hidden = 'postgres://rrs:Hidden-Pa55@db:5432/bookstore?sslpassword=Hidden-Pa55';
    const { errors, warnings } = settingsOf({ params: { ...signIn, ...iam }, urls: url(hidden) });
    expect(errors).toEqual([passwordError('databaseUrl (DATABASE_URL)')]);
    expect(JSON.stringify([errors, warnings])).not.toContain('Hidden-Pa55');
  });
});

describe('accepted params: what is added to the service', () => {
  const nothing: DeploySettings = {
    errors: [],
    warnings: [],
    environment: {},
    statements: [],
    authorizer: undefined,
    include: [],
  };

  it.each<[string, Case, Partial<DeploySettings>]>([
    [
      'sign-in with a packaged privileges file, IAM authentication through the proxy',
      { params: { ...signIn, ...iam }, urls: url(proxyUrl) },
      {
        environment: { ...signInEnv, DATABASE_IAM_AUTH: 'true' },
        statements: [connect('rrs')],
        authorizer: { issuerUrl: issuer, audience },
        include: ['definitions/privileges.properties'],
      },
    ],
    [
      'sign-in with every option, privileges in S3, a secret under a key of its own',
      {
        params: {
          ...signIn,
          authRolesClaim: 'cognito:groups',
          authAdminRole: 'ops',
          privileges: 's3://rrs-config/auth/privileges.properties',
          databaseSecretArn: secretArn,
          databaseSecretKmsKeyArn: kmsArn,
          databaseIamAuth: 'false',
        },
      },
      {
        environment: {
          AUTH_ISSUER: issuer,
          AUTH_AUDIENCE: audience,
          AUTH_ROLES_CLAIM: 'cognito:groups',
          AUTH_ADMIN_ROLE: 'ops',
          PRIVILEGES: 's3://rrs-config/auth/privileges.properties',
          DATABASE_SECRET_ARN: secretArn,
        },
        statements: [
          { Effect: 'Allow', Action: ['s3:GetObject'], Resource: 'arn:aws:s3:::rrs-config/auth/privileges.properties' },
          getSecret,
          {
            Effect: 'Allow',
            Action: ['kms:Decrypt'],
            Resource: kmsArn,
            Condition: { StringEquals: { 'kms:ViaService': 'secretsmanager.eu-west-1.amazonaws.com' } },
          },
        ],
        authorizer: { issuerUrl: issuer, audience },
      },
    ],
    [
      'a secret and a URL without password (the host), a privileges path to tidy',
      {
        params: { ...signIn, privileges: './config/../config/privileges.properties', databaseSecretArn: secretArn },
        urls: url('mysql://db.example.com:3306/sales'),
      },
      {
        environment: { ...signInEnv, PRIVILEGES: 'config/privileges.properties', DATABASE_SECRET_ARN: secretArn },
        statements: [getSecret],
        authorizer: { issuerUrl: issuer, audience },
        include: ['config/privileges.properties'],
      },
    ],
    [
      'IAM authentication with named databases: each user once, a "${" kept literal',
      {
        params: { ...signIn, ...iam },
        urls: [
          { name: 'DATABASE_URL', value: proxyUrl },
          { name: 'DATABASE_URL_SALES', value: 'mysql://sales%40eu@my-proxy:3306/sales' },
          { name: 'DATABASE_URL_ARCHIVE', value: 'postgres://rrs@my-proxy:5432/archive' },
          { name: 'DATABASE_URL_ODD', value: 'postgres://a$%7Bb@my-proxy:5432/odd' },
        ],
      },
      {
        environment: { ...signInEnv, DATABASE_IAM_AUTH: 'true' },
        statements: [connect('rrs', 'sales@eu', 'a${!b')],
        authorizer: { issuerUrl: issuer, audience },
        include: ['definitions/privileges.properties'],
      },
    ],
    [
      'sign-in without privileges file: a warning',
      { params: { authIssuer: issuer, authAudience: audience }, urls: url('postgresql://rrs@db/bookstore') },
      {
        warnings: [noPrivilegesWarning],
        environment: { AUTH_ISSUER: issuer, AUTH_AUDIENCE: audience },
        authorizer: { issuerUrl: issuer, audience },
      },
    ],
    [
      'auth=none, on purpose: a warning and no authorizer; params trimmed',
      { params: { auth: ' none ', authIssuer: '' }, urls: url('mariadb://rrs@db/bookstore') },
      { warnings: [authNoneWarning] },
    ],
  ])('%s', (_name, input, expected) => {
    expect(settingsOf(input)).toEqual({ ...nothing, ...expected });
  });
});
