/**
 * `serverless package` for real, as a deployer runs it, each run in a temporary copy of the project (its own
 * `.serverless/`; the project's own is CI's): the params that turn sign-in and database access on land in the
 * CloudFormation template (a JWT authorizer on every route but the health checks, the variables, IAM statements
 * scoped to the proxy users or one secret), so do the operating params (runtime, reserved concurrency, stage
 * throttling, CORS, X-Ray, alarms) and the limits every package gets without them (the stage's default throttle,
 * the health function's reserved concurrency), no password reaches any file the package writes (zips included), and a
 * deploy without sign-in, with a password, without a database or without a VPC stops before it builds anything.
 * The runs go a few at a time.
 */
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { root, serviceEnv } from '../support/local-process';
import { readZip } from './read-zip';

/** What serverless needs of the project to package it; node_modules is linked, not copied. */
const copied = ['serverless.yml', 'package.json', 'tsconfig.json', 'handlers', 'lib', 'definitions', 'scripts/deploy'];
const plugins = ['scripts/offline'];

const sentinel = 'Sentinel-Pa55-7f3a9c';
const issuer = 'https://issuer.example.com/rrs';
const audience = 'rrs-api';
const proxy = 'prx-0123456789abcdef0';
const proxyUrl = 'postgres://rrs_app@rrs.proxy-abc123.eu-west-1.rds.amazonaws.com:5432/bookstore';
const secretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/db-AbCdEf';
/** A privileges file outside definitions/ (which is packaged anyway), so only the privileges param packages it. */
const privilegesFile = 'config/privileges.properties';
const privilegesText = '# planted by test/deploy/package.test.ts\n*.select=reader\n';
const signIn = { authIssuer: issuer, authAudience: audience };
/** A VPC and a cap on concurrency, as production deploys. */
const operated = {
  securityGroupIds: 'sg-0123456789abcdef0',
  subnetIds: 'subnet-0123456789abcdef0,subnet-0fedcba9876543210',
  maxConcurrency: '20',
};
const topicArn = 'arn:aws:sns:eu-west-1:123456789012:rrs-alarms';
const hookUrl = 'https://hooks.example.com/rrs';
const hookSecretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/webhook-AbCdEf';
const readerUrl = 'postgres://rrs_reader@rrs-ro.endpoint.proxy-abc123.eu-west-1.rds.amazonaws.com:5432/bookstore';
const salesUrl = 'mysql://rrs_sales@rrs.proxy-abc123.eu-west-1.rds.amazonaws.com:3306/sales';
const databaseFunctions = ['read', 'insert', 'update', 'delete', 'conf', 'catalog'];
const openRoutes = [
  'GET /.well-known/oauth-protected-resource',
  'GET /.well-known/oauth-protected-resource/mcp',
  'GET /explorer',
  'GET /explorer/{file}',
  'GET /health',
  'GET /health/db',
  'GET /health/events',
  'HEAD /.well-known/oauth-protected-resource',
  'HEAD /.well-known/oauth-protected-resource/mcp',
  'HEAD /explorer',
  'HEAD /explorer/{file}',
  'HEAD /health',
  'HEAD /health/db',
  'HEAD /health/events',
];

/** The deploying shell of a careless deploy: passwords a package must not pick up from it. */
const leakyShell = {
  DATABASE_URL_BOOKSTORE: `postgres://rrs:${sentinel}@shell-db:5432/bookstore`,
  PGPASSWORD: sentinel,
  MYSQL_PWD: sentinel,
  DB_PASSWORD: sentinel,
  AWS_SECRET_ACCESS_KEY: sentinel,
};
const shellDatabaseUrl = `postgres://rrs:${sentinel}@shell-db:5432/bookstore`;

interface Run {
  readonly dir: string;
  readonly code: number;
  readonly output: string;
}

/** No AWS credentials from anywhere: a deploy that got past the checks would stop at AWS, never reach it. */
const noAws = {
  AWS_ACCESS_KEY_ID: '',
  AWS_SESSION_TOKEN: '',
  AWS_PROFILE: 'rrs-package-test-none',
  AWS_CONFIG_FILE: '/dev/null',
  AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
  AWS_EC2_METADATA_DISABLED: 'true',
};

/** `serverless package --stage test --param=...` in a fresh copy of the project. */
function packageIn(params: Record<string, string>, shell: Record<string, string>): Promise<Run> {
  return serverlessIn(['package'], params, shell);
}

/** `serverless <command> --stage test --param=...` in a fresh copy of the project. */
async function serverlessIn(
  command: string[],
  params: Record<string, string>,
  shell: Record<string, string>,
): Promise<Run> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rrs-package-'));
  for (const entry of [...copied, ...plugins])
    cpSync(path.join(root, entry), path.join(dir, entry), { recursive: true });
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  mkdirSync(path.join(dir, 'config'));
  writeFileSync(path.join(dir, privilegesFile), privilegesText);
  const args = [
    ...command,
    '--stage',
    'test',
    ...Object.entries(params).map(([name, value]) => `--param=${name}=${value}`),
  ];
  const serverless = path.join(root, 'node_modules', '.bin', 'serverless');
  return new Promise((resolve) => {
    execFile(
      serverless,
      args,
      { cwd: dir, env: serviceEnv({ ...noAws, ...shell }), timeout: 110_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ dir, code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

const runs = {
  iam: () =>
    packageIn(
      {
        ...signIn,
        ...operated,
        privileges: privilegesFile,
        databaseUrl: proxyUrl,
        databaseIamAuth: 'true',
        databaseProxyResourceId: proxy,
      },
      { ...leakyShell, DATABASE_URL: shellDatabaseUrl },
    ),
  secret: () =>
    packageIn(
      { ...signIn, privileges: 'definitions/privileges.properties', databaseSecretArn: secretArn, vpc: 'none' },
      leakyShell,
    ),
  open: () => packageIn({ auth: 'none', databaseUrl: 'postgres://rrs@db.internal:5432/bookstore', vpc: 'none' }, {}),
  operated: () =>
    packageIn(
      {
        ...signIn,
        ...operated,
        privileges: privilegesFile,
        databaseUrl: proxyUrl,
        databaseUrls: `SALES=${salesUrl}`,
        databaseReadUrl: readerUrl,
        databaseIamAuth: 'true',
        databaseProxyResourceId: proxy,
        throttleRate: '200',
        throttleBurst: '400',
        healthConcurrency: '4',
        corsOrigins: 'https://app.example.com,https://admin.example.com',
        tracing: 'true',
        alarmTopicArn: topicArn,
        dbPoolSize: '1',
        dbStatementTimeoutMs: '15000',
        logLevel: 'info',
      },
      {},
    ),
  postgresOnly: () =>
    packageIn(
      { auth: 'none', databaseUrl: 'postgres://rrs@db.internal:5432/bookstore', vpc: 'none', engine: 'postgres' },
      {},
    ),
  mysqlOnly: () =>
    packageIn(
      { auth: 'none', databaseUrl: 'mysql://rrs@db.internal:3306/bookstore', vpc: 'none', engine: 'mysql' },
      {},
    ),
  engineMismatch: () =>
    packageIn(
      { auth: 'none', databaseUrl: 'mysql://rrs@db.internal:3306/bookstore', vpc: 'none', engine: 'postgres' },
      {},
    ),
  noVpc: () =>
    packageIn(
      {
        ...signIn,
        databaseUrl: proxyUrl,
        databaseIamAuth: 'true',
        databaseProxyResourceId: proxy,
        maxConcurrency: '5',
      },
      {},
    ),
  placeholders: () =>
    packageIn(
      {
        ...signIn,
        databaseUrl: proxyUrl,
        databaseIamAuth: 'true',
        databaseProxyResourceId: proxy,
        securityGroupIds: '<sg-id>,<sg-id>',
        subnetIds: '<subnet-id>,<subnet-id>',
      },
      {},
    ),
  noSignIn: () => packageIn({ databaseUrl: proxyUrl, databaseIamAuth: 'true', databaseProxyResourceId: proxy }, {}),
  noDatabase: () => packageIn({ auth: 'none' }, {}),
  passwordWithIam: () =>
    packageIn(
      {
        ...signIn,
        databaseUrl: `postgres://rrs:${sentinel}@db:5432/bookstore`,
        databaseIamAuth: 'true',
        databaseProxyResourceId: proxy,
      },
      {},
    ),
  shellPasswordWithSecret: () =>
    packageIn({ ...signIn, databaseSecretArn: secretArn }, { DATABASE_URL: shellDatabaseUrl }),
  events: () =>
    packageIn(
      {
        ...signIn,
        privileges: 'definitions/privileges.properties',
        databaseSecretArn: secretArn,
        vpc: 'none',
        eventsWebhookUrl: hookUrl,
        eventsWebhookSecretArn: hookSecretArn,
        eventsSource: 'https://api.example.com',
      },
      {},
    ),
  deployNoSignIn: () => serverlessIn(['deploy'], { databaseSecretArn: secretArn }, {}),
  deployFunctionNoDatabase: () => serverlessIn(['deploy', 'function', '-f', 'read'], { auth: 'none' }, {}),
};
type Name = keyof typeof runs;
const done = {} as Record<Name, Run>;

/**
 * How many runs go at once. All sixteen at once on a 2-core machine starve each other, and the test file that jest
 * runs beside this one, until runs pass their timeout; a few at a time keep both cores busy all the same.
 */
const atOnce = 4;

beforeAll(async () => {
  const waiting = Object.keys(runs) as Name[];
  const next = async (): Promise<void> => {
    for (let name = waiting.shift(); name; name = waiting.shift()) done[name] = await runs[name]();
  };
  await Promise.all(Array.from({ length: atOnce }, next));
}, 300_000);

afterAll(() => {
  for (const run of Object.values(done)) rmSync(run.dir, { recursive: true, force: true });
});

interface Resource {
  readonly Type: string;
  // biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties, checked by the assertions
  readonly Properties: Record<string, any>;
}
interface Statement {
  readonly Action: string[];
}

function templateOf(run: Run): Record<string, Resource> {
  const file = path.join(run.dir, '.serverless', 'cloudformation-template-update-stack.json');
  return JSON.parse(readFileSync(file, 'utf8')).Resources;
}

const ofType = (template: Record<string, Resource>, type: string) =>
  Object.entries(template).filter(([, resource]) => resource.Type === type);

/** The httpApi events of serverless.yml as packaged: each must have become a route. */
function eventCount(run: Run): number {
  const state = JSON.parse(readFileSync(path.join(run.dir, '.serverless', 'serverless-state.json'), 'utf8'));
  const functions = Object.values(state.service.functions) as { events: { httpApi?: unknown }[] }[];
  return functions.flatMap((f) => f.events.filter((e) => e.httpApi)).length;
}

/** The role's statements besides the ones serverless adds for the logs. */
function statementsOf(template: Record<string, Resource>): Statement[] {
  const role = template.IamRoleLambdaExecution as Resource;
  const statements: Statement[] = role.Properties.Policies[0].PolicyDocument.Statement;
  return statements.filter((s) => !s.Action.every((action) => action.startsWith('logs:')));
}

function environmentsOf(template: Record<string, Resource>): Record<string, string>[] {
  return ofType(template, 'AWS::Lambda::Function').map(([, fn]) => fn.Properties.Environment.Variables);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

/** Where `text` appears under the run's .serverless/: file names, and zip!entry for what is inside the zips. */
function whereFound(run: Run, text: string): string[] {
  const base = path.join(run.dir, '.serverless');
  return filesUnder(base).flatMap((file) => {
    const name = path.relative(base, file);
    if (!file.endsWith('.zip')) return readFileSync(file).includes(text) ? [name] : [];
    return [...readZip(file)].flatMap(([entry, data]) => (data.includes(text) ? [`${name}!${entry}`] : []));
  });
}

const zipsOf = (run: Run) => readdirSync(path.join(run.dir, '.serverless')).filter((f) => f.endsWith('.zip'));

const expectedRoutes = [
  'GET /res',
  'GET /openapi.json',
  'GET /conf/{what}/{resName}',
  'GET /res/{resName}',
  'GET /res/{resName}/{resId+}',
  'POST /res/{resName}',
  'PUT /res/{resName}/{resId+}',
  'POST /mcp',
  'GET /.well-known/oauth-protected-resource',
  'DELETE /res/{resName}',
  'GET /explorer',
  'GET /explorer/{file}',
  'GET /health',
  'GET /health/db',
  'GET /health/events',
  'HEAD /res/{resName}',
  'HEAD /openapi.json',
  'HEAD /explorer',
  'HEAD /health',
  'HEAD /health/events',
  '$default',
];

describe.each<[string, Name]>([
  ['IAM authentication through RDS Proxy', 'iam'],
  ['a Secrets Manager secret', 'secret'],
  ['IAM authentication, with every operating param', 'operated'],
])('sign-in on, the database login from %s', (_way, name) => {
  it('packages', () => {
    expect(done[name]).toMatchObject({ code: 0 });
  });

  it('puts the JWT authorizer, with the issuer and audience, on every route but the health checks and the explorer', () => {
    const template = templateOf(done[name]);
    const authorizers = ofType(template, 'AWS::ApiGatewayV2::Authorizer');
    expect(authorizers.map(([, a]) => a.Properties)).toEqual([
      expect.objectContaining({
        AuthorizerType: 'JWT',
        IdentitySource: ['$request.header.Authorization'],
        JwtConfiguration: { Issuer: issuer, Audience: [audience] },
      }),
    ]);
    const [authorizerId] = authorizers[0] ?? [];
    const routes = ofType(template, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties);
    expect(routes).toHaveLength(eventCount(done[name]));
    expect(routes.map((r) => r.RouteKey)).toEqual(expect.arrayContaining(expectedRoutes));
    const open = routes.filter((r) => r.AuthorizationType !== 'JWT' || r.AuthorizerId?.Ref !== authorizerId);
    expect(open.map((r) => r.RouteKey).sort()).toEqual(openRoutes);
    expect(open.map((r) => r.AuthorizationType)).toEqual(openRoutes.map(() => undefined));
  });

  it('writes no password from the params or the deploying shell into .serverless/, zips included', () => {
    const run = done[name];
    expect(zipsOf(run)).toHaveLength(11);
    expect(whereFound(run, sentinel)).toEqual([]);
    expect(run.output).not.toContain(sentinel);
    // the search does look inside the zips: the definitions are there
    expect(whereFound(run, 'sqlResource').filter((place) => place.includes('.zip!definitions/'))).not.toEqual([]);
  });
});

describe('sign-in on, IAM authentication through RDS Proxy', () => {
  it('gives every function the sign-in and database variables, the URL without password', () => {
    const environments = environmentsOf(templateOf(done.iam));
    expect(environments).toHaveLength(11);
    for (const environment of environments) {
      expect(environment).toMatchObject({
        AUTH_ISSUER: issuer,
        AUTH_AUDIENCE: audience,
        PRIVILEGES: privilegesFile,
        DATABASE_URL: proxyUrl,
        DATABASE_IAM_AUTH: 'true',
      });
      expect(environment).not.toHaveProperty('DATABASE_SECRET_ARN');
    }
  });

  it('grants rds-db:connect as the proxy user, and nothing else', () => {
    expect(statementsOf(templateOf(done.iam))).toEqual([
      {
        Effect: 'Allow',
        Action: ['rds-db:connect'],
        Resource: [
          { 'Fn::Sub': `arn:\${AWS::Partition}:rds-db:\${AWS::Region}:\${AWS::AccountId}:dbuser:${proxy}/rrs_app` },
        ],
      },
    ]);
  });

  it('packages the privileges file with every function, where PRIVILEGES names it', () => {
    const run = done.iam;
    const packaged = zipsOf(run).map((zip) => readZip(path.join(run.dir, '.serverless', zip)).get(privilegesFile));
    expect(packaged.map((data) => data?.toString())).toEqual(zipsOf(run).map(() => privilegesText));
  });

  it('bundles every module the Lambda runtime lacks: a bundle requires only Node and the SDK clients Lambda ships', () => {
    const run = done.iam;
    const builtins = new Set(builtinModules);
    const shipped = new Set([
      '@aws-sdk/client-s3',
      '@aws-sdk/client-secrets-manager',
      '@aws-sdk/client-lambda',
      '@aws-sdk/client-eventbridge',
      '@aws-sdk/client-sqs',
      '@aws-sdk/client-sns',
      // mysql2's optional syntax highlighter, required inside a try
      'cardinal',
      // not a call: the SDK's signer names it in an error message ("register the package by calling [require(...)]")
      '@aws-sdk/signature-v4-crt',
      // left out unless tracing=true (this run has no tracing): required only when tracing is on
      '@aws-lambda-powertools/tracer',
      // left out: required only to verify a token itself, which on Lambda API Gateway's JWT authorizer does
      'jose',
      // not calls: ajv (the mcp function's argument check) names its runtime modules in the code it would write out
      // for a standalone validator; it compiles validators in memory and never requires them
      'ajv/dist/runtime/validation_error',
      'ajv/dist/runtime/uri',
      'ajv/dist/runtime/ucs2length',
      'ajv/dist/runtime/equal',
      'ajv-formats/dist/formats',
    ]);
    const outside = zipsOf(run).flatMap((zip) => {
      const handler = `handlers/${zip.replace(/\.zip$/, '.js')}`;
      const code =
        readZip(path.join(run.dir, '.serverless', zip))
          .get(handler)
          ?.toString() ?? '';
      expect(code.length).toBeGreaterThan(1000);
      return [...code.matchAll(/require\("([^"]+)"\)/g)]
        .map((m) => m[1] as string)
        .filter((id) => !builtins.has(id.replace(/^node:/, '')) && !shipped.has(id))
        .map((id) => `${handler}: ${id}`);
    });
    expect(outside).toEqual([]);
  });

  it('leaves out of the bundles only the SDK clients Lambda ships: the RDS signer is bundled', async () => {
    const state = JSON.parse(readFileSync(path.join(done.iam.dir, '.serverless', 'serverless-state.json'), 'utf8'));
    const exclude: string[] = state.service.custom.esbuild.exclude;
    const modules = ['@aws-sdk/rds-signer', '@aws-sdk/client-s3', '@aws-sdk/client-secrets-manager'];
    const result = await build({
      stdin: { contents: modules.map((m) => `require(${JSON.stringify(m)});`).join('\n'), resolveDir: root },
      bundle: true,
      platform: 'node',
      target: 'node22',
      external: exclude,
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.text ?? '';
    expect(modules.filter((m) => code.includes(`require("${m}")`))).toEqual([
      '@aws-sdk/client-s3',
      '@aws-sdk/client-secrets-manager',
    ]);
    expect(code).toContain('rds-db');
  });
});

describe('sign-in on, a Secrets Manager secret and no database URL', () => {
  it('gives every function the secret ARN, and no IAM authentication', () => {
    const environments = environmentsOf(templateOf(done.secret));
    expect(environments).toHaveLength(11);
    for (const environment of environments) {
      expect(environment).toMatchObject({
        AUTH_ISSUER: issuer,
        AUTH_AUDIENCE: audience,
        PRIVILEGES: 'definitions/privileges.properties',
        DATABASE_SECRET_ARN: secretArn,
        DATABASE_URL: '',
      });
      expect(environment).not.toHaveProperty('DATABASE_IAM_AUTH');
    }
  });

  it('leaves the RDS signer out of the bundles: without IAM authentication it is never loaded', () => {
    const state = JSON.parse(readFileSync(path.join(done.secret.dir, '.serverless', 'serverless-state.json'), 'utf8'));
    expect(state.service.custom.esbuild.exclude).toEqual([
      '@aws-sdk/client-s3',
      '@aws-sdk/client-secrets-manager',
      '@aws-sdk/client-lambda',
      '@aws-sdk/client-eventbridge',
      '@aws-sdk/client-sqs',
      '@aws-sdk/client-sns',
      '@aws-sdk/rds-signer',
      '@aws-lambda-powertools/tracer',
      'jose',
    ]);
    const bundleOf = (run: Run, zip: string) => {
      const handler = `handlers/${zip.replace(/\.zip$/, '.js')}`;
      return (
        readZip(path.join(run.dir, '.serverless', zip))
          .get(handler)
          ?.toString() ?? ''
      );
    };
    for (const zip of zipsOf(done.secret).filter((z) => !['fallback.zip', 'xsd.zip', 'explorer.zip'].includes(z))) {
      const without = bundleOf(done.secret, zip);
      expect([zip, without.includes('require("@aws-sdk/rds-signer")')]).toEqual([zip, true]);
      // the signer and what it brings of the SDK: some 400 KB minified
      expect([zip, bundleOf(done.iam, zip).length - without.length > 300_000]).toEqual([zip, true]);
    }
  });

  it('grants GetSecretValue on that secret, and nothing else', () => {
    expect(statementsOf(templateOf(done.secret))).toEqual([
      { Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: secretArn },
    ]);
  });
});

/** Each function's property, by the function's name in serverless.yml. */
function byFunction(template: Record<string, Resource>, property: (fn: Resource) => unknown): Record<string, unknown> {
  return Object.fromEntries(
    ofType(template, 'AWS::Lambda::Function').map(([, fn]) => [
      String(fn.Properties.FunctionName).replace('relational-resource-service-test-', ''),
      property(fn),
    ]),
  );
}

const alarmsOf = (template: Record<string, Resource>): Resource['Properties'] =>
  Object.fromEntries(ofType(template, 'AWS::CloudWatch::Alarm').map(([id, alarm]) => [id, alarm.Properties]));

describe('the operating params: runtime, limits, CORS, tracing, alarms, variables', () => {
  const template = () => templateOf(done.operated);
  const functions = [
    'read',
    'insert',
    'update',
    'delete',
    'conf',
    'xsd',
    'catalog',
    'explorer',
    'health',
    'mcp',
    'fallback',
  ];

  it('runs every function on Node.js 22, arm64, in the VPC, and serverless v3 takes the runtime without a warning', () => {
    expect(byFunction(template(), (fn) => [fn.Properties.Runtime, fn.Properties.Architectures])).toEqual(
      Object.fromEntries(functions.map((name) => [name, ['nodejs22.x', ['arm64']]])),
    );
    expect(Object.values(byFunction(template(), (fn) => fn.Properties.VpcConfig))).toEqual(
      functions.map(() => ({
        SecurityGroupIds: ['sg-0123456789abcdef0'],
        SubnetIds: ['subnet-0123456789abcdef0', 'subnet-0fedcba9876543210'],
      })),
    );
    expect(done.operated.output).not.toContain('Invalid configuration');
  });

  it('bundles the X-Ray tracer and the RDS signer when tracing and IAM authentication ask for them', () => {
    const state = JSON.parse(
      readFileSync(path.join(done.operated.dir, '.serverless', 'serverless-state.json'), 'utf8'),
    );
    expect(state.service.custom.esbuild.exclude).toEqual([
      '@aws-sdk/client-s3',
      '@aws-sdk/client-secrets-manager',
      '@aws-sdk/client-lambda',
      '@aws-sdk/client-eventbridge',
      '@aws-sdk/client-sqs',
      '@aws-sdk/client-sns',
      'jose',
    ]);
  });

  it('reserves maxConcurrency for exactly the functions that reach the database, healthConcurrency for the open ones', () => {
    const reserved = byFunction(template(), (fn) => fn.Properties.ReservedConcurrentExecutions);
    expect(reserved).toEqual(
      Object.fromEntries(
        functions.map((name) => [
          name,
          databaseFunctions.includes(name) ? 20 : ['health', 'explorer'].includes(name) ? 4 : undefined,
        ]),
      ),
    );
  });

  it("throttles the HTTP API's stage, every route of it", () => {
    expect(template().HttpApiStage?.Properties.DefaultRouteSettings).toEqual({
      DetailedMetricsEnabled: false,
      ThrottlingRateLimit: 200,
      ThrottlingBurstLimit: 400,
    });
    // no route has settings of its own: the stage's default route settings are every route's
    expect(template().HttpApiStage?.Properties.RouteSettings).toBeUndefined();
  });

  it('answers CORS for the origins, with the headers and methods of the service', () => {
    expect(template().HttpApi?.Properties.CorsConfiguration).toEqual({
      AllowOrigins: ['https://app.example.com', 'https://admin.example.com'],
      AllowHeaders: ['Content-Type', 'Accept', 'Authorization', 'X-HTTP-Method-Override', 'Prefer'],
      AllowMethods: ['GET', 'POST', 'PUT', 'DELETE'],
      ExposeHeaders: ['X-Request-Id', 'WWW-Authenticate', 'Allow', 'Content-Range', 'Link', 'Preference-Applied'],
      MaxAge: 600,
    });
  });

  it('traces every function with X-Ray, which the role may write to', () => {
    expect(Object.values(byFunction(template(), (fn) => fn.Properties.TracingConfig))).toEqual(
      functions.map(() => ({ Mode: 'Active' })),
    );
    expect(statementsOf(template())).toContainEqual({
      Effect: 'Allow',
      Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
      Resource: ['*'],
    });
  });

  it('gives every function the variables of the params, the read URL and the named database included', () => {
    for (const environment of environmentsOf(template()))
      expect(environment).toMatchObject({
        DATABASE_URL: proxyUrl,
        DATABASE_URL_SALES: salesUrl,
        DATABASE_READ_URL: readerUrl,
        DATABASE_IAM_AUTH: 'true',
        POWERTOOLS_TRACE_ENABLED: 'true',
        DB_POOL_SIZE: '1',
        DB_STATEMENT_TIMEOUT_MS: '15000',
        LOG_LEVEL: 'INFO',
      });
  });

  it('grants rds-db:connect as the users of every URL, the read URL included', () => {
    const dbUser = (user: string) => ({
      'Fn::Sub': `arn:\${AWS::Partition}:rds-db:\${AWS::Region}:\${AWS::AccountId}:dbuser:${proxy}/${user}`,
    });
    expect(statementsOf(template()).filter((s) => s.Action.includes('rds-db:connect'))).toEqual([
      { Effect: 'Allow', Action: ['rds-db:connect'], Resource: ['rrs_app', 'rrs_reader', 'rrs_sales'].map(dbUser) },
    ]);
  });

  it("sends the alarms on the API's 5xx rate, its p99 latency and the database functions' throttles to the topic", () => {
    const alarms = alarmsOf(template());
    expect(Object.keys(alarms).sort()).toEqual(['LatencyP99Alarm', 'ServerErrorRateAlarm', 'ThrottlesAlarm']);
    for (const alarm of Object.values(alarms)) {
      expect(alarm.AlarmActions).toEqual([topicArn]);
      expect(alarm.OKActions).toEqual([topicArn]);
    }
    const api = [{ Name: 'ApiId', Value: { Ref: 'HttpApi' } }];
    const rate = alarms.ServerErrorRateAlarm;
    expect(rate.Metrics.map((m: { MetricStat?: { Metric: unknown } }) => m.MetricStat?.Metric)).toEqual([
      { Namespace: 'AWS/ApiGateway', MetricName: '5xx', Dimensions: api },
      { Namespace: 'AWS/ApiGateway', MetricName: 'Count', Dimensions: api },
      undefined,
    ]);
    expect(rate).toMatchObject({ Threshold: 5, ComparisonOperator: 'GreaterThanThreshold' });
    expect(rate.Metrics[2]).toMatchObject({ Expression: '100 * errors / requests', ReturnData: true });
    expect(alarms.LatencyP99Alarm).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: 'Latency',
      Dimensions: api,
      ExtendedStatistic: 'p99',
      Threshold: 3000,
    });
    const throttled = alarms.ThrottlesAlarm.Metrics.flatMap(
      (m: { MetricStat?: { Metric: { MetricName: string; Dimensions: { Value: { Ref: string } }[] } } }) =>
        m.MetricStat ? [`${m.MetricStat.Metric.MetricName} ${m.MetricStat.Metric.Dimensions[0]?.Value.Ref}`] : [],
    );
    const logicalId = (name: string) => `${name[0]?.toUpperCase()}${name.slice(1)}LambdaFunction`;
    expect(throttled).toEqual(databaseFunctions.map((name) => `Throttles ${logicalId(name)}`));
    for (const id of databaseFunctions.map(logicalId)) expect(template()[id]?.Type).toBe('AWS::Lambda::Function');
  });

  it('adds none of them without their params, but the default throttle', () => {
    const plain = templateOf(done.iam);
    expect(alarmsOf(plain)).toEqual({});
    expect(plain.HttpApi?.Properties.CorsConfiguration).toBeUndefined();
    expect(plain.HttpApiStage?.Properties.DefaultRouteSettings).toEqual({
      DetailedMetricsEnabled: false,
      ThrottlingRateLimit: 500,
      ThrottlingBurstLimit: 1000,
    });
    expect(Object.values(byFunction(plain, (fn) => fn.Properties.TracingConfig))).toEqual(
      functions.map(() => undefined),
    );
    for (const environment of environmentsOf(plain)) {
      expect(environment.POWERTOOLS_TRACE_ENABLED).toBe('false');
      expect(Object.keys(environment).filter((name) => /^(DB_|MAX_|LOG_LEVEL|DEFINITIONS_TTL)/.test(name))).toEqual([]);
    }
    expect(done.iam.output).not.toContain('No maxConcurrency');
    expect(done.secret.output).toContain('No maxConcurrency: the functions that reach the database may scale up');
  });
});

describe('auth=none, on purpose', () => {
  it('packages, and warns that the API is open', () => {
    expect(done.open.code).toBe(0);
    expect(done.open.output).toContain('auth=none: this API has no sign-in. Anyone who can reach it can read');
  });

  it('throttles the whole stage and caps the health checks and the explorer without any limit param', () => {
    const template = templateOf(done.open);
    expect(template.HttpApiStage?.Properties.DefaultRouteSettings).toEqual({
      DetailedMetricsEnabled: false,
      ThrottlingRateLimit: 500,
      ThrottlingBurstLimit: 1000,
    });
    const reserved = byFunction(template, (fn) => fn.Properties.ReservedConcurrentExecutions);
    expect(Object.entries(reserved).filter(([, value]) => value !== undefined)).toEqual([
      ['explorer', 2],
      ['health', 2],
    ]);
  });

  it('adds no authorizer, and no sign-in variables', () => {
    const template = templateOf(done.open);
    expect(ofType(template, 'AWS::ApiGatewayV2::Authorizer')).toEqual([]);
    const routes = ofType(template, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties);
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.filter((r) => r.AuthorizationType !== undefined)).toEqual([]);
    for (const environment of environmentsOf(template)) expect(Object.keys(environment)).not.toContain('AUTH_ISSUER');
  });
});

describe('engine: a single-engine deployment carries no code of the other driver', () => {
  const resFunctions = ['read', 'insert', 'update', 'delete'];
  /** Each zip's size, and whether any of its entries holds one of the texts. */
  const zipsWith = (run: Run, texts: readonly string[]) =>
    Object.fromEntries(
      zipsOf(run).map((zip) => [
        zip,
        [...readZip(path.join(run.dir, '.serverless', zip)).values()].some((data) =>
          texts.some((text) => data.includes(text)),
        ),
      ]),
    );
  const sizes = (run: Run) =>
    Object.fromEntries(zipsOf(run).map((zip) => [zip, statSync(path.join(run.dir, '.serverless', zip)).size]));
  // texts only each driver's code has: mysql2's and its character sets'; postgres.js's
  const mysqlCode = ['mysql2', 'iconv-lite', 'ER_ACCESS_DENIED_ERROR'];
  const postgresCode = ['sslrootcert', 'postgres.js'];

  it.each<[string, Name, readonly string[], readonly string[]]>([
    ['engine=postgres', 'postgresOnly', mysqlCode, postgresCode],
    ['engine=mysql', 'mysqlOnly', postgresCode, mysqlCode],
  ])('%s: no zip has the other driver, the database functions have their own', (_name, name, other, own) => {
    const run = done[name];
    expect(run).toMatchObject({ code: 0 });
    expect(Object.values(zipsWith(run, other)).some(Boolean)).toBe(false);
    for (const fn of resFunctions) expect([fn, zipsWith(run, own)[`${fn}.zip`]]).toEqual([fn, true]);
    // both (the default) has both drivers: the texts above do tell them apart
    for (const fn of resFunctions) expect([fn, zipsWith(done.open, other)[`${fn}.zip`]]).toEqual([fn, true]);
    const state = JSON.parse(readFileSync(path.join(run.dir, '.serverless', 'serverless-state.json'), 'utf8'));
    expect(state.service.custom.esbuild.exclude).toContain(name === 'postgresOnly' ? 'mysql2' : 'postgres');
  });

  // 150 KB until the HTTP extensions (ETags and If-Match, totals and cursors, CSV): read.zip was 155,148 bytes after
  it('engine=postgres: the /res zips are at most 160 KB, under a third of those with both drivers', () => {
    const postgres = sizes(done.postgresOnly);
    const both = sizes(done.open);
    const mysql = sizes(done.mysqlOnly);
    // the record of each run's sizes, in the test's output when it fails
    const record = resFunctions.map((fn) => [fn, postgres[`${fn}.zip`], mysql[`${fn}.zip`], both[`${fn}.zip`]]);
    for (const [fn, onlyPostgres, , withBoth] of record) {
      expect([fn, (onlyPostgres as number) <= 160 * 1024]).toEqual([fn, true]);
      expect([fn, (onlyPostgres as number) < (withBoth as number) / 3]).toEqual([fn, true]);
    }
    // mysql2 brings iconv-lite's character sets and the RDS CA bundle: smaller than both, not small
    for (const [fn, , onlyMysql, withBoth] of record)
      expect([fn, (onlyMysql as number) < (withBoth as number)]).toEqual([fn, true]);
  });
});

describe('the explorer: Swagger UI in a function of its own', () => {
  it('bundles the Swagger UI files into the explorer zip, and into no other', () => {
    // a text of swagger-ui-bundle.js and one of swagger-ui.css
    const marks = ['SwaggerUIBundle', '.swagger-ui .opblock'];
    const holding = zipsOf(done.open).filter((zip) =>
      [...readZip(path.join(done.open.dir, '.serverless', zip)).values()].some((data) =>
        marks.every((mark) => data.includes(mark)),
      ),
    );
    expect(holding).toEqual(['explorer.zip']);
  });
});

describe('refused: the package stops with the reason, before it builds anything', () => {
  it.each<[string, Name, string]>([
    ['no sign-in and no auth=none', 'noSignIn', 'Sign-in is not configured. Give the issuer and the audience'],
    ['no database', 'noDatabase', 'No database is configured, so every request would fail.'],
    [
      'a MySQL URL with engine=postgres',
      'engineMismatch',
      'databaseUrl (DATABASE_URL) is a MySQL URL (mysql://), but --param="engine=postgres" leaves the MySQL driver ' +
        'out of the bundles',
    ],
    [
      'a password in databaseUrl with IAM authentication',
      'passwordWithIam',
      'databaseUrl (DATABASE_URL) carries a password',
    ],
    [
      "a password in the deploying shell's DATABASE_URL, with a secret",
      'shellPasswordWithSecret',
      'databaseUrl (DATABASE_URL) carries a password',
    ],
    ['serverless deploy, no sign-in and no auth=none', 'deployNoSignIn', 'Sign-in is not configured.'],
    ['serverless deploy function, no database', 'deployFunctionNoDatabase', 'No database is configured'],
    [
      'no VPC and no vpc=none',
      'noVpc',
      [
        'No VPC is given, and an RDS Proxy (like most databases on AWS) is reachable only inside its VPC. Give',
        'the database\'s VPC: --param="securityGroupIds=<sg-id>,<sg-id>" --param="subnetIds=<subnet-id>,<subnet-id>"',
        'or, if the database is reachable without one, say so: --param="vpc=none".',
      ].join('\n'),
    ],
  ])('%s', (_name, name, message) => {
    const run = done[name];
    expect(run.code).not.toBe(0);
    expect(run.output).toContain(message);
    expect(run.output).not.toContain(sentinel);
    expect(['.serverless', '.esbuild'].filter((dir) => existsSync(path.join(run.dir, dir)))).toEqual([]);
  });
});

it("stops on the README's VPC placeholders, saying each once", () => {
  const run = done.placeholders;
  expect(run.code).not.toBe(0);
  const lines = run.output.split('\n').filter((line) => / is a placeholder: /.test(line));
  expect(lines).toEqual([
    'securityGroupIds: "<sg-id>" is a placeholder: put the ids of your own in its place, like sg-0123456789abcdef0',
    'subnetIds: "<subnet-id>" is a placeholder: put the ids of your own in its place, like subnet-0123456789abcdef0',
  ]);
});

describe('change events: the drain function, with the webhook params', () => {
  const drainName = 'relational-resource-service-test-eventsDrain';
  const template = () => templateOf(done.events);
  const policyOf = (role: Resource): { Action: string[]; Resource: unknown }[] =>
    role.Properties.Policies[0].PolicyDocument.Statement;

  it('packages the drain function, on a schedule of every minute, one at a time', () => {
    expect(done.events).toMatchObject({ code: 0 });
    const drain = template().EventsDrainLambdaFunction as Resource;
    expect(drain.Properties).toMatchObject({ FunctionName: drainName, Timeout: 60, ReservedConcurrentExecutions: 1 });
    const rules = ofType(template(), 'AWS::Events::Rule').map(([, rule]) => rule.Properties);
    expect(rules).toEqual([
      expect.objectContaining({
        ScheduleExpression: 'rate(1 minute)',
        Targets: [expect.objectContaining({ Arn: { 'Fn::GetAtt': ['EventsDrainLambdaFunction', 'Arn'] } })],
      }),
    ]);
  });

  it('gives the drain a role of its own, which alone may read the webhook secret; the others may invoke the drain', () => {
    const resources = template();
    const drain = resources.EventsDrainLambdaFunction as Resource;
    expect(drain.Properties.Role).toEqual({ 'Fn::GetAtt': ['EventsDrainRole', 'Arn'] });
    const others = ofType(resources, 'AWS::Lambda::Function').filter(([id]) => id !== 'EventsDrainLambdaFunction');
    for (const [, fn] of others)
      expect(fn.Properties.Role).toEqual({ 'Fn::GetAtt': ['IamRoleLambdaExecution', 'Arn'] });
    const shared = policyOf(resources.IamRoleLambdaExecution as Resource);
    const own = policyOf(resources.EventsDrainRole as Resource);
    const invoke = {
      Effect: 'Allow',
      Action: ['lambda:InvokeFunction'],
      Resource: { 'Fn::Sub': `arn:\${AWS::Partition}:lambda:\${AWS::Region}:\${AWS::AccountId}:function:${drainName}` },
    };
    const readHook = { Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: hookSecretArn };
    expect(shared).toContainEqual(invoke);
    expect(shared).not.toContainEqual(readHook);
    // the drain's: the functions' own (logs, the database secret), less invoking itself, and the webhook's secret
    expect(own).toEqual([...shared.filter((s) => !s.Action.includes('lambda:InvokeFunction')), readHook]);
    expect(JSON.stringify((resources.EventsDrainRole as Resource).Properties.RoleName)).not.toEqual(
      JSON.stringify((resources.IamRoleLambdaExecution as Resource).Properties.RoleName),
    );
  });

  it("names the drain to every function, and gives the webhook's URL and secret ARN to the drain alone", () => {
    for (const [id, fn] of ofType(template(), 'AWS::Lambda::Function')) {
      const variables = fn.Properties.Environment.Variables;
      expect(variables).toMatchObject({ EVENTS_DRAIN_FUNCTION: drainName, EVENTS_SOURCE: 'https://api.example.com' });
      const drain = id === 'EventsDrainLambdaFunction';
      expect(variables.EVENTS_WEBHOOK_URL).toBe(drain ? hookUrl : undefined);
      expect(variables.EVENTS_WEBHOOK_SECRET_ARN).toBe(drain ? hookSecretArn : undefined);
    }
  });

  it('without the params there is no drain function, no schedule and no leave to invoke one', () => {
    const resources = templateOf(done.secret);
    expect(resources).not.toHaveProperty('EventsDrainLambdaFunction');
    expect(ofType(resources, 'AWS::Events::Rule')).toEqual([]);
    expect(statementsOf(resources).flatMap((s) => s.Action)).not.toContain('lambda:InvokeFunction');
    expect(zipsOf(done.secret)).not.toContain('eventsDrain.zip');
  });
});
