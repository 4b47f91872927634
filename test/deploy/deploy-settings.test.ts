/**
 * What `serverless package` and `deploy` check and add (scripts/deploy/deploy-settings.js and
 * operating-settings.js), by tables of cases: every error and warning, word for word, and for the accepted params
 * the whole result (environment, IAM statements, authorizer, packaged files, limits, CORS, tracing, alarms).
 * Unless a case says otherwise, it deploys into a VPC with maxConcurrency, as production does.
 * test/deploy/package.test.ts checks the same on a real package.
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

const noVpcError = [
  'No VPC is given, and an RDS Proxy (like most databases on AWS) is reachable only inside its VPC. Give',
  'the database\'s VPC: --param="securityGroupIds=<sg-id>,<sg-id>" --param="subnetIds=<subnet-id>,<subnet-id>"',
  'or, if the database is reachable without one, say so: --param="vpc=none".',
  'See docs/deployment.md#vpc',
].join('\n');
const noMaxConcurrencyWarning =
  'No maxConcurrency: the functions that reach the database may scale up to the concurrency of the account ' +
  "(1000 by default), each container with its own pool of connections, more than RDS Proxy's or the " +
  'database\'s limit. Cap them with --param="maxConcurrency=N". See docs/deployment.md#limits';

/** What every deployment below has unless its case says `bare`: a VPC and a cap on concurrency. */
const operated = {
  securityGroupIds: 'sg-0123456789abcdef0',
  subnetIds: 'subnet-0123456789abcdef0,subnet-0fedcba9876543210',
  maxConcurrency: '20',
};

interface Case {
  readonly params: Record<string, string>;
  readonly urls?: { name: string; value: string }[];
  /** Only the case's params, without `operated`. */
  readonly bare?: boolean;
}

function settingsOf({ params, urls = [], bare }: Case): DeploySettings {
  return deploySettings({
    params: bare ? params : { ...operated, ...params },
    databaseUrls: urls,
    isFile: (relative) => files.has(relative),
  });
}

describe('refused params: every problem is reported, each in its own words', () => {
  it.each<[string, Case, string[]]>([
    ['nothing at all', { params: {}, bare: true }, [noSignInError, noDatabaseError, noVpcError]],
    [
      'every param empty, as serverless.yml passes them',
      { params: { authIssuer: '', auth: '', securityGroupIds: '', subnetIds: '', vpc: '' }, bare: true },
      [noSignInError, noDatabaseError, noVpcError],
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
        'databaseIamAuth=true needs the resource id of the RDS Proxy: --param="databaseProxyResourceId=<prx-id>" ' +
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
    reservedConcurrency: 20,
    healthConcurrency: 2,
    throttle: { rateLimit: 500, burstLimit: 1000 },
    cors: undefined,
    tracing: false,
    alarms: undefined,
    events: undefined,
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
    expect(settingsOf(input)).toEqual({
      ...nothing,
      ...expected,
      environment: { ...expected.environment, POWERTOOLS_TRACE_ENABLED: 'false' },
    });
  });
});

describe('the URLs of more databases and of read replicas', () => {
  const base = { ...signIn, ...iam };
  const entryError = (param: string, i: number) =>
    `${param}: entry ${i} is not NAME=URL (a name of letters, digits and _, entries separated by ";": ` +
    `--param="${param}=BOOKSTORE=postgres://user@host:5432/bookstore;SALES=mysql://user@host:3306/sales")`;

  it.each<[string, Case, string[]]>([
    [
      'a password in databaseReadUrl',
      { params: { ...base, databaseReadUrl: 'postgres://rrs:s3cret@reader:5432/bookstore' }, urls: url(proxyUrl) },
      [passwordError('databaseReadUrl (DATABASE_READ_URL)')],
    ],
    [
      'a password in one of databaseUrls',
      {
        params: { ...base, databaseUrls: 'BOOKSTORE=postgres://rrs@db/bookstore;SALES=mysql://rrs:s3cret@db/sales' },
      },
      [passwordError('databaseUrls (DATABASE_URL_SALES)')],
    ],
    [
      'a password in the query of databaseReadUrls',
      { params: { ...base, databaseReadUrls: 'sales=mysql://rrs@reader/sales?password=x' }, urls: url(proxyUrl) },
      [passwordError('databaseReadUrls (DATABASE_READ_URL_SALES)')],
    ],
    [
      "a password in the environment's DATABASE_READ_URL_SALES",
      {
        params: base,
        urls: [...url(proxyUrl), { name: 'DATABASE_READ_URL_SALES', value: 'mysql://rrs:s3cret@reader/sales' }],
      },
      [passwordError('DATABASE_READ_URL_SALES')],
    ],
    [
      'entries that are not NAME=URL, reported by position and never echoed',
      { params: { ...base, databaseUrls: 'postgres://rrs:s3cret@db/a;;B-2=postgres://rrs@db/b' }, urls: url(proxyUrl) },
      [entryError('databaseUrls', 1), entryError('databaseUrls', 3)],
    ],
    [
      'a read URL that is no database URL',
      { params: { ...base, databaseReadUrls: 'SALES=https://reader/sales' }, urls: url(proxyUrl) },
      [notAUrl('databaseReadUrls (DATABASE_READ_URL_SALES)')],
    ],
    [
      'a name given twice',
      {
        params: { ...base, databaseUrls: 'SALES=mysql://rrs@db/sales' },
        urls: [{ name: 'DATABASE_URL_SALES', value: 'mysql://rrs@other/sales' }],
      },
      ['DATABASE_URL_SALES is given twice'],
    ],
    [
      'a read URL alone is no database',
      { params: { ...base, databaseReadUrl: 'postgres://rrs@reader:5432/bookstore' } },
      [noDatabaseError],
    ],
    [
      'IAM authentication and a read URL without user',
      { params: { ...base, databaseReadUrl: 'postgres://reader:5432/bookstore' }, urls: url(proxyUrl) },
      ["databaseReadUrl (DATABASE_READ_URL) names no user: IAM authentication connects as the URL's user"],
    ],
  ])('refused: %s', (_name, input, errors) => {
    const { errors: found } = settingsOf(input);
    expect(found).toEqual(errors);
    expect(JSON.stringify(found)).not.toContain('s3cret');
  });

  it('gives every URL its variable, and rds-db:connect as the users of the read URLs too', () => {
    const settings = settingsOf({
      params: {
        ...base,
        databaseUrls: ' bookstore=postgres://rrs@proxy:5432/bookstore ; SALES=mysql://sales@proxy:3306/sales;',
        databaseReadUrl: 'postgres://reader@proxy-ro:5432/bookstore',
        databaseReadUrls: 'Sales=mysql://sales_ro@proxy-ro:3306/sales',
      },
      urls: url(proxyUrl),
    });
    expect(settings.errors).toEqual([]);
    expect(settings.environment).toMatchObject({
      DATABASE_URL_BOOKSTORE: 'postgres://rrs@proxy:5432/bookstore',
      DATABASE_URL_SALES: 'mysql://sales@proxy:3306/sales',
      DATABASE_READ_URL: 'postgres://reader@proxy-ro:5432/bookstore',
      DATABASE_READ_URL_SALES: 'mysql://sales_ro@proxy-ro:3306/sales',
    });
    expect(settings.statements).toEqual([connect('rrs', 'reader', 'sales', 'sales_ro')]);
  });
});

describe('the network, limits, CORS, tracing, alarms and tuning', () => {
  const base = { ...signIn, ...iam };
  const positive = (name: string, value: string) => `${name} must be a positive integer, got "${value}"`;
  const topic = 'arn:aws:sns:eu-west-1:123456789012:rrs-alarms';

  it.each<[string, Case, string[]]>([
    [
      'no VPC and no vpc=none',
      { params: { ...base, maxConcurrency: '5' }, urls: url(proxyUrl), bare: true },
      [noVpcError],
    ],
    [
      'vpc with another value than none',
      { params: { ...base, vpc: 'no' }, urls: url(proxyUrl), bare: true },
      ['--param="vpc=no" is not understood: its only value is none (the functions run in no VPC)'],
    ],
    [
      'vpc=none and a VPC',
      { params: { ...base, vpc: 'none' }, urls: url(proxyUrl) },
      [
        'Give either --param="securityGroupIds=..." --param="subnetIds=..." (a VPC) or --param="vpc=none" (no VPC), not both',
      ],
    ],
    [
      'security groups without subnets',
      { params: { ...base, securityGroupIds: 'sg-0123456789abcdef0' }, urls: url(proxyUrl), bare: true },
      ["securityGroupIds is given without subnetIds: the functions' VPC needs both"],
    ],
    [
      'subnets without security groups',
      { params: { ...base, subnetIds: 'subnet-0123abcd' }, urls: url(proxyUrl), bare: true },
      ["subnetIds is given without securityGroupIds: the functions' VPC needs both"],
    ],
    [
      'ids that are not ids',
      {
        params: { ...base, securityGroupIds: 'sg-1,my-group', subnetIds: 'subnet-0123abcd,sg-0123abcd' },
        urls: url(proxyUrl),
      },
      [
        'securityGroupIds: "sg-1" is not an id like sg-0123456789abcdef0',
        'securityGroupIds: "my-group" is not an id like sg-0123456789abcdef0',
        'subnetIds: "sg-0123abcd" is not an id like subnet-0123456789abcdef0',
      ],
    ],
    [
      "the README's placeholders, each given twice: each said once",
      {
        params: { ...base, securityGroupIds: '<sg-id>,<sg-id>', subnetIds: 'subnet-..,subnet-..,subnet-0123abcd' },
        urls: url(proxyUrl),
      },
      [
        'securityGroupIds: "<sg-id>" is a placeholder: put the ids of your own in its place, like sg-0123456789abcdef0',
        'subnetIds: "subnet-.." is a placeholder: put the ids of your own in its place, like subnet-0123456789abcdef0',
      ],
    ],
    [
      'an origin given twice: said once',
      { params: { ...base, corsOrigins: 'https://a.example.com/,https://a.example.com/' }, urls: url(proxyUrl) },
      [
        'corsOrigins: "https://a.example.com/" is not an origin: give https://host or https://host:port, without path or trailing slash',
      ],
    ],
    ...(
      [
        ['maxConcurrency', '0'],
        ['maxConcurrency', '-5'],
        ['maxConcurrency', '2.5'],
        ['throttleRate', 'fast'],
        ['throttleBurst', '1e3'],
        ['healthConcurrency', '0'],
        ['healthConcurrency', 'two'],
        ['dbPoolSize', '0'],
        ['dbConnectTimeoutMs', '3s'],
        ['dbStatementTimeoutMs', '-1'],
        ['dbIdleTimeoutS', '0'],
        ['maxBodyBytes', '5MB'],
        ['maxResultBytes', '0x10'],
        ['maxRows', '10k'],
      ] as const
    ).map(([name, value]): [string, Case, string[]] => [
      `${name}=${value}`,
      { params: { ...base, [name]: value }, urls: url(proxyUrl) },
      [positive(name, value)],
    ]),
    [
      'definitionsTtlS below 0',
      { params: { ...base, definitionsTtlS: '-1' }, urls: url(proxyUrl) },
      ['definitionsTtlS must be a non-negative integer, got "-1"'],
    ],
    [
      'a log level that is none',
      { params: { ...base, logLevel: 'verbose' }, urls: url(proxyUrl) },
      ['logLevel must be one of TRACE, DEBUG, INFO, WARN, ERROR, CRITICAL, SILENT, got "verbose"'],
    ],
    [
      'origins that are not origins',
      {
        params: {
          ...base,
          corsOrigins: 'https://app.example.com/,app.example.com,ftp://x.example.com,https://*.example.com',
        },
        urls: url(proxyUrl),
      },
      ['https://app.example.com/', 'app.example.com', 'ftp://x.example.com', 'https://*.example.com'].map(
        (origin) =>
          `corsOrigins: "${origin}" is not an origin: give https://host or https://host:port, without path or trailing slash`,
      ),
    ],
    [
      '* among origins',
      { params: { ...base, corsOrigins: 'https://app.example.com,*' }, urls: url(proxyUrl) },
      ['corsOrigins: * (every origin) stands alone, not in a list of origins'],
    ],
    [
      'tracing neither true nor false',
      { params: { ...base, tracing: 'yes' }, urls: url(proxyUrl) },
      ['tracing must be true or false, got "yes"'],
    ],
    [
      'a topic that is no SNS topic',
      { params: { ...base, alarmTopicArn: 'arn:aws:sqs:eu-west-1:123456789012:q' }, urls: url(proxyUrl) },
      [
        'alarmTopicArn must be the ARN of an SNS topic (arn:aws:sns:eu-west-1:123456789012:name), got ' +
          '"arn:aws:sqs:eu-west-1:123456789012:q"',
      ],
    ],
    [
      'alarm thresholds without topic',
      { params: { ...base, alarmErrorRate: '5', alarmLatencyMs: '1000' }, urls: url(proxyUrl) },
      ['alarmErrorRate applies only with alarmTopicArn', 'alarmLatencyMs applies only with alarmTopicArn'],
    ],
    [
      'alarm thresholds out of range',
      { params: { ...base, alarmTopicArn: topic, alarmErrorRate: '150', alarmLatencyMs: '0' }, urls: url(proxyUrl) },
      ['alarmErrorRate is a percentage of the requests, from 1 to 100, got "150"', positive('alarmLatencyMs', '0')],
    ],
  ])('refused: %s', (_name, input, errors) => {
    expect(settingsOf(input).errors).toEqual(errors);
  });

  it('warns without maxConcurrency, and for CORS open to every origin', () => {
    const { errors, warnings, cors } = settingsOf({
      params: { ...base, maxConcurrency: '', corsOrigins: '*' },
      urls: url(proxyUrl),
    });
    expect(errors).toEqual([]);
    expect(warnings).toEqual([
      noMaxConcurrencyWarning,
      "corsOrigins=*: a web page of any site may call this API from its visitors' browsers. Name the origins of " +
        'your web apps instead: --param="corsOrigins=https://app.example.com". See docs/deployment.md#cors',
    ]);
    expect(cors?.allowedOrigins).toEqual(['*']);
  });

  it('vpc=none, on purpose: no VPC error', () => {
    expect(
      settingsOf({ params: { ...base, vpc: 'none', maxConcurrency: '3' }, urls: url(proxyUrl), bare: true }).errors,
    ).toEqual([]);
  });

  it('turns every param into what the plugin applies', () => {
    const settings = settingsOf({
      params: {
        ...base,
        maxConcurrency: '50',
        healthConcurrency: '3',
        throttleRate: '200',
        throttleBurst: '400',
        corsOrigins: 'https://app.example.com, http://localhost:5173',
        tracing: 'true',
        alarmTopicArn: topic,
        alarmLatencyMs: '2500',
        dbPoolSize: '1',
        dbConnectTimeoutMs: '2000',
        dbStatementTimeoutMs: '15000',
        dbIdleTimeoutS: '120',
        maxBodyBytes: '1048576',
        maxResultBytes: '2097152',
        maxRows: '500',
        definitionsTtlS: '0',
        logLevel: 'debug',
      },
      urls: url(proxyUrl),
    });
    expect(settings).toMatchObject({
      errors: [],
      warnings: [],
      reservedConcurrency: 50,
      healthConcurrency: 3,
      throttle: { rateLimit: 200, burstLimit: 400 },
      cors: {
        allowedOrigins: ['https://app.example.com', 'http://localhost:5173'],
        allowedHeaders: ['Content-Type', 'Accept', 'Authorization', 'X-HTTP-Method-Override', 'Prefer'],
        allowedMethods: ['GET', 'POST', 'PUT', 'DELETE'],
        exposedResponseHeaders: [
          'X-Request-Id',
          'WWW-Authenticate',
          'Allow',
          'Content-Range',
          'Link',
          'Preference-Applied',
        ],
        maxAge: 600,
      },
      tracing: true,
      alarms: { topicArn: topic, errorRatePercent: 5, latencyMs: 2500 },
    });
    expect(settings.environment).toEqual({
      ...signInEnv,
      DATABASE_IAM_AUTH: 'true',
      POWERTOOLS_TRACE_ENABLED: 'true',
      DB_POOL_SIZE: '1',
      DB_CONNECT_TIMEOUT_MS: '2000',
      DB_STATEMENT_TIMEOUT_MS: '15000',
      DB_IDLE_TIMEOUT_S: '120',
      MAX_BODY_BYTES: '1048576',
      MAX_RESULT_BYTES: '2097152',
      MAX_ROWS: '500',
      DEFINITIONS_TTL_S: '0',
      LOG_LEVEL: 'DEBUG',
    });
  });

  it('throttles the whole stage by default, and takes the rate alone or the burst alone', () => {
    const throttleOf = (params: Record<string, string>) =>
      settingsOf({ params: { ...base, ...params }, urls: url(proxyUrl) }).throttle;
    expect(throttleOf({})).toEqual({ rateLimit: 500, burstLimit: 1000 });
    expect(throttleOf({ throttleRate: '10' })).toEqual({ rateLimit: 10, burstLimit: 1000 });
    expect(throttleOf({ throttleBurst: '7' })).toEqual({ rateLimit: 500, burstLimit: 7 });
  });

  it('sets CURSOR_SECRET from cursorSecret, which must be at least 32 characters long', () => {
    const of = (cursorSecret: string) => settingsOf({ params: { ...base, cursorSecret }, urls: url(proxyUrl) });
    const secret = 'k'.repeat(32);
    expect(of(secret).environment.CURSOR_SECRET).toBe(secret);
    expect(of(secret).errors).toEqual([]);
    expect(of('short').errors).toEqual(['cursorSecret must be at least 32 characters long, got 5']);
    expect(of('short').environment.CURSOR_SECRET).toBeUndefined();
  });

  it('caps the health checks at 2 containers by default, or at healthConcurrency', () => {
    expect(settingsOf({ params: base, urls: url(proxyUrl) }).healthConcurrency).toBe(2);
    expect(settingsOf({ params: { ...base, healthConcurrency: '5' }, urls: url(proxyUrl) }).healthConcurrency).toBe(5);
  });
});

describe('engine: the database drivers the bundles carry', () => {
  const base = { ...signIn, ...iam };
  const mysqlUrl = 'mysql://rrs@my-proxy.proxy-abc123.eu-west-1.rds.amazonaws.com:3306/sales';
  const mismatch = (label: string, found: string, scheme: string, engine: string, other: string, driver: string) =>
    `${label} is a ${found} URL (${scheme}//), but --param="engine=${engine}" leaves the ${found} driver out of ` +
    `the bundles, so every request to it would fail. Give --param="engine=${other}" or --param="engine=both", ` +
    `or a ${driver}// URL`;
  const toMysql = (label: string, scheme = 'mysql:') =>
    mismatch(label, 'MySQL', scheme, 'postgres', 'mysql', 'postgres:');
  const toPostgres = (label: string, scheme = 'postgres:') =>
    mismatch(label, 'PostgreSQL', scheme, 'mysql', 'postgres', 'mysql:');

  it.each<[string, Case, string[]]>([
    ['engine=postgres, a PostgreSQL URL', { params: { ...base, engine: 'postgres' }, urls: url(proxyUrl) }, []],
    [
      'engine=postgres, postgresql:// URLs everywhere',
      {
        params: {
          ...base,
          engine: 'postgres',
          databaseUrls: 'A=postgresql://rrs@db/a',
          databaseReadUrl: 'postgres://rrs@reader:5432/bookstore',
        },
        urls: url(proxyUrl),
      },
      [],
    ],
    ['engine=mysql, a MySQL URL', { params: { ...base, engine: 'mysql' }, urls: url(mysqlUrl) }, []],
    ['engine=mysql, a mariadb:// URL', { params: { ...base, engine: 'mysql' }, urls: url('mariadb://rrs@db/a') }, []],
    [
      'engine=both, both kinds',
      { params: { ...base, engine: 'both', databaseUrls: `SALES=${mysqlUrl}` }, urls: url(proxyUrl) },
      [],
    ],
    [
      'no engine (both), both kinds',
      { params: { ...base, databaseUrls: `SALES=${mysqlUrl}` }, urls: url(proxyUrl) },
      [],
    ],
    [
      'engine=postgres with only a secret',
      { params: { ...signIn, engine: 'postgres', databaseSecretArn: secretArn } },
      [],
    ],
    [
      'an engine that does not exist',
      { params: { ...base, engine: 'oracle' }, urls: url(proxyUrl) },
      [
        '--param="engine=oracle" is not understood: give postgres (bundle only the PostgreSQL driver), mysql ' +
          '(only the MySQL/MariaDB driver) or both (the default)',
      ],
    ],
    [
      'engine=postgres, a MySQL databaseUrl',
      { params: { ...base, engine: 'postgres' }, urls: url(mysqlUrl) },
      [toMysql('databaseUrl (DATABASE_URL)')],
    ],
    [
      'engine=postgres, a mariadb:// URL among databaseUrls and a MySQL read URL',
      {
        params: {
          ...base,
          engine: 'postgres',
          databaseUrls: 'A=postgres://rrs@db/a;SALES=mariadb://rrs@db/sales',
          databaseReadUrls: `SALES=${mysqlUrl}`,
        },
        urls: url(proxyUrl),
      },
      [toMysql('databaseUrls (DATABASE_URL_SALES)', 'mariadb:'), toMysql('databaseReadUrls (DATABASE_READ_URL_SALES)')],
    ],
    [
      "engine=mysql, the environment's PostgreSQL DATABASE_URL_BOOKS",
      {
        params: { ...base, engine: 'mysql' },
        urls: [...url(mysqlUrl), { name: 'DATABASE_URL_BOOKS', value: 'postgresql://rrs@db/books' }],
      },
      [toPostgres('DATABASE_URL_BOOKS', 'postgresql:')],
    ],
  ])('%s', (_name, input, errors) => {
    expect(settingsOf(input).errors).toEqual(errors);
  });

  it('adds nothing to the environment: the engine is decided when the bundles are built', () => {
    const withEngine = settingsOf({ params: { ...base, engine: 'postgres' }, urls: url(proxyUrl) });
    expect(withEngine.errors).toEqual([]);
    expect(withEngine).toEqual(settingsOf({ params: base, urls: url(proxyUrl) }));
  });
});

describe('engine: what esbuild defines and leaves out (bundle-define.js, bundle-exclude.js)', () => {
  // the resolvers are plain CommonJS, as serverless loads them
  const define = require('../../scripts/deploy/bundle-define.js');
  const exclude = require('../../scripts/deploy/bundle-exclude.js');
  const resolving = (engine: string) => ({
    resolveVariable: async (variable: string) => (variable.startsWith('param:engine') ? engine : ''),
  });
  const sdk = [
    '@aws-sdk/client-s3',
    '@aws-sdk/client-secrets-manager',
    '@aws-sdk/client-lambda',
    '@aws-sdk/client-eventbridge',
    '@aws-sdk/client-sqs',
    '@aws-sdk/client-sns',
    '@aws-sdk/rds-signer',
  ];

  it.each<[string, Record<string, string>, string[]]>([
    ['postgres', { 'process.env.RRS_BUNDLE_ENGINE': '"postgres"' }, ['mysql2']],
    ['mysql', { 'process.env.RRS_BUNDLE_ENGINE': '"mysql"' }, ['postgres']],
    [' postgres ', { 'process.env.RRS_BUNDLE_ENGINE': '"postgres"' }, ['mysql2']],
    ['both', {}, []],
    ['', {}, []],
    ['oracle', {}, []],
  ])('engine=%j', async (engine, defined, driver) => {
    expect(await define(resolving(engine))).toEqual(defined);
    expect(await exclude(resolving(engine))).toEqual([...sdk, '@aws-lambda-powertools/tracer', 'jose', ...driver]);
  });
});

describe('change events: one sink, and the statement of the drain role for it', () => {
  const base = { ...signIn, ...iam };
  const hook = 'https://hooks.example.com/rrs';
  const hookSecret = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/webhook-AbCdEf';
  const queue = 'https://sqs.eu-west-1.amazonaws.com/123456789012/rrs-events.fifo';
  const topic = 'arn:aws:sns:eu-west-1:123456789012:rrs-events';
  const of = (params: Record<string, string>) => settingsOf({ params: { ...base, ...params }, urls: url(proxyUrl) });

  it.each<[string, Record<string, string>, string[]]>([
    [
      'the webhook without its secret',
      { eventsWebhookUrl: hook },
      [
        'Change events to a webhook need --param="eventsWebhookSecretArn=arn:aws:secretsmanager:..." too (the whsec_ secret the deliveries are signed with)',
      ],
    ],
    [
      'a secret without a webhook',
      { eventsWebhookSecretArn: hookSecret },
      ['eventsWebhookSecretArn applies only with --param="eventsWebhookUrl=https://..."'],
    ],
    [
      'a webhook that is not https',
      { eventsWebhookUrl: 'http://hooks.example.com/', eventsWebhookSecretArn: hookSecret },
      ['eventsWebhookUrl must be an https:// URL, got "http://hooks.example.com/"'],
    ],
    [
      'a partial secret ARN',
      {
        eventsWebhookUrl: hook,
        eventsWebhookSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/webhook',
      },
      [
        'eventsWebhookSecretArn must be the whole ARN of a Secrets Manager secret, as describe-secret shows it (arn:aws:secretsmanager:eu-west-1:123456789012:secret:name-AbCdEf), got "arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/webhook"',
      ],
    ],
    [
      'two sinks',
      { eventsSqsQueueUrl: queue, eventsSnsTopicArn: topic },
      ['Change events go to one sink; give one of --param="eventsSqsQueueUrl=...", --param="eventsSnsTopicArn=..."'],
    ],
    [
      'a queue name instead of its URL',
      { eventsSqsQueueUrl: 'rrs-events' },
      [
        'eventsSqsQueueUrl must be the URL of a queue, as get-queue-url shows it (https://sqs.eu-west-1.amazonaws.com/123456789012/name), got "rrs-events"',
      ],
    ],
    [
      'a topic name instead of its ARN',
      { eventsSnsTopicArn: 'rrs-events' },
      ['eventsSnsTopicArn must be the ARN of a topic (arn:aws:sns:eu-west-1:123456789012:name), got "rrs-events"'],
    ],
    [
      'a bus name with a space',
      { eventsEventBridgeBus: 'my bus' },
      ['eventsEventBridgeBus must be the name or the ARN of an event bus, got "my bus"'],
    ],
  ])('%s is refused', (_name, params, errors) => {
    expect(of(params).errors).toEqual(errors);
    expect(of(params).events).toBeUndefined();
  });

  const allow = (action: string, resource: unknown) => ({ Effect: 'Allow', Action: [action], Resource: resource });
  it.each<[string, Record<string, string>, Record<string, string>, unknown]>([
    [
      'a webhook: its secret',
      { eventsWebhookUrl: hook, eventsWebhookSecretArn: hookSecret },
      { EVENTS_WEBHOOK_URL: hook, EVENTS_WEBHOOK_SECRET_ARN: hookSecret },
      allow('secretsmanager:GetSecretValue', hookSecret),
    ],
    [
      "a bus by name: PutEvents on it, in the stack's account and region",
      { eventsEventBridgeBus: 'rrs-bus' },
      { EVENTS_EVENTBRIDGE_BUS: 'rrs-bus' },
      allow('events:PutEvents', {
        'Fn::Sub': `arn:\${AWS::Partition}:events:\${AWS::Region}:\${AWS::AccountId}:event-bus/rrs-bus`,
      }),
    ],
    [
      'a bus by ARN',
      { eventsEventBridgeBus: 'arn:aws:events:eu-west-1:123456789012:event-bus/rrs-bus' },
      { EVENTS_EVENTBRIDGE_BUS: 'arn:aws:events:eu-west-1:123456789012:event-bus/rrs-bus' },
      allow('events:PutEvents', 'arn:aws:events:eu-west-1:123456789012:event-bus/rrs-bus'),
    ],
    [
      'a queue: SendMessage on it',
      { eventsSqsQueueUrl: queue },
      { EVENTS_SQS_QUEUE_URL: queue },
      allow('sqs:SendMessage', { 'Fn::Sub': `arn:\${AWS::Partition}:sqs:eu-west-1:123456789012:rrs-events.fifo` }),
    ],
    [
      'a topic: Publish on it',
      { eventsSnsTopicArn: topic },
      { EVENTS_SNS_TOPIC_ARN: topic },
      allow('sns:Publish', topic),
    ],
  ])('%s', (_name, params, environment, statement) => {
    const settings = of({ ...params, eventsSource: 'https://api.example.com' });
    expect(settings.errors).toEqual([]);
    expect(settings.events).toEqual({ environment, statement });
    expect(settings.environment.EVENTS_SOURCE).toBe('https://api.example.com');
    // the sink is the drain's alone: it is not among every function's statements
    expect(settings.statements).not.toContainEqual(statement);
  });

  it('no sink: no drain', () => {
    expect(of({}).events).toBeUndefined();
    expect(of({ eventsSource: 'x' }).events).toBeUndefined();
  });
});
