/**
 * The AWS SDK stays out of the start-up path (DESIGN: small bundles, SDK only where it is configured). Handlers are
 * bundled as serverless.yml bundles them (esbuild, node, cjs, minified, @aws-sdk/* external); then:
 * - statically, from esbuild's metafile: only the modules of `lazyModules` import @aws-sdk/*, and the only way
 *   into each is a require() call from the module named there (s3-source.ts from definitionSource(), and
 *   s3-privileges.ts from the privileges store, both through the shared s3-client.ts; the
 *   database login's fetch-secret.ts from secret-source.ts and iam-token.ts from iam-source.ts; the change events'
 *   nudge-drain.ts from announce.ts, and its AWS sinks from event-sink.ts);
 * - behaviourally: the read handler's bundle is run with a require() that records what it loads. Loading it, and
 *   serving from a definitions folder, never requires @aws-sdk/client-s3; serving with DEFINITIONS_S3 does. A
 *   database reached with a plain DATABASE_URL requires no SDK; DATABASE_SECRET_ARN requires only
 *   @aws-sdk/client-secrets-manager, DATABASE_IAM_AUTH=true only @aws-sdk/rds-signer.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { type MysqlIamEndpoint, startMysqlIamEndpoint } from '../support/credentials-mysql-iam';
import { type FakeSecretsManager, fakeAwsEnv, startFakeSecretsManager } from '../support/fake-secrets-manager';
import { bundleHandler, loadBundle, reaching } from '../support/handler-bundle';
import { testDefinitions } from '../support/service';
import { closedPort, noS3Env, s3Env, startS3, type TestS3 } from './s3-server';

const root = path.resolve(__dirname, '..', '..');
const handlerFiles = readdirSync(path.join(root, 'handlers')).filter((file) => file.endsWith('.ts'));
const sdk = /^@aws-sdk\//;

/** Each module that imports @aws-sdk/*, and every way into it (`importer kind`, as esbuild's metafile says). */
const lazyModules: Readonly<Record<string, readonly string[]>> = {
  'lib/definitions/s3-source.ts': ['lib/definitions/resolve-resource.ts require-call'],
  'lib/auth/s3-privileges.ts': ['lib/auth/privileges-store.ts require-call'],
  'lib/s3-client.ts': ['lib/auth/s3-privileges.ts import-statement', 'lib/definitions/s3-source.ts import-statement'],
  'lib/db/fetch-secret.ts': ['lib/db/secret-source.ts require-call', 'lib/events/event-sink.ts require-call'],
  'lib/db/iam-token.ts': ['lib/db/iam-source.ts require-call'],
  'lib/events/nudge-drain.ts': ['lib/events/announce.ts require-call'],
  'lib/events/eventbridge-sink.ts': ['lib/events/event-sink.ts require-call'],
  'lib/events/sqs-sink.ts': ['lib/events/event-sink.ts require-call'],
  'lib/events/sns-sink.ts': ['lib/events/event-sink.ts require-call'],
};

/** A handler as serverless.yml bundles it, the AWS SDK left external so that each require() of it is seen. */
const bundle = (entry: string) => bundleHandler(entry, { external: ['@aws-sdk/*'] });

const get = (rawPath: string) => ({
  version: '2.0',
  routeKey: `GET ${rawPath}`,
  rawPath,
  rawQueryString: '',
  headers: {},
  isBase64Encoded: false,
  requestContext: { http: { method: 'GET', path: rawPath } },
});

describe('the AWS SDK is loaded only when definitions come from S3', () => {
  const saved = { ...process.env };
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startS3();
    await s3.createBucket('lazy');
  });
  afterEach(() => {
    for (const key of [...Object.keys(noS3Env), 'DEFINITIONS_DIR']) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });
  afterAll(() => s3?.stop());

  it.each(handlerFiles)(
    'handlers/%s: only the lazy modules import @aws-sdk, and only the listed ways reach each',
    async (file) => {
      const { metafile } = await bundle(`handlers/${file}`);
      const importers = Object.entries(metafile.inputs)
        .filter(([, input]) => input.imports.some((i) => sdk.test(i.path)))
        .map(([name]) => name);
      expect(importers.filter((name) => !Object.hasOwn(lazyModules, name))).toEqual([]);
      for (const lazy of importers) {
        // some of the listed ways, and no other: a handler that never reaches a way's module has not that way
        const ways = reaching(metafile, lazy);
        expect(ways.length).toBeGreaterThan(0);
        expect(ways.filter((way) => !lazyModules[lazy]?.includes(way))).toEqual([]);
      }
    },
  );

  it('the read bundle starts and serves a folder without requiring @aws-sdk/client-s3', async () => {
    const { code } = await bundle('handlers/read.ts');
    expect(code).toContain('require("@aws-sdk/client-s3")');
    const loaded = loadBundle(code);
    expect(loaded.required.filter((id) => sdk.test(id))).toEqual([]);
    process.env.DEFINITIONS_DIR = testDefinitions;
    const reply = await loaded.handler(get('/res/Nope'));
    expect(reply).toMatchObject({ statusCode: 404, body: expect.stringContaining(`${testDefinitions}/Nope.xml`) });
    expect(loaded.required.filter((id) => sdk.test(id))).toEqual([]);
  });

  it('the read bundle requires @aws-sdk/client-s3 on the first request served from DEFINITIONS_S3', async () => {
    const loaded = loadBundle((await bundle('handlers/read.ts')).code);
    Object.assign(process.env, s3Env(s3, 's3://lazy/defs', 60));
    expect(loaded.required.filter((id) => sdk.test(id))).toEqual([]);
    const reply = await loaded.handler(get('/res/Nope'));
    expect(reply).toMatchObject({
      statusCode: 404,
      body: 'SQL Resource Nope not found - expected s3://lazy/defs/Nope.xml',
    });
    expect([...new Set(loaded.required.filter((id) => sdk.test(id)))]).toEqual(['@aws-sdk/client-s3']);
  });
});

describe('the database login loads its AWS SDK package only when it is configured', () => {
  const saved = { ...process.env };
  const variables = [
    ...Object.keys(noS3Env),
    ...Object.keys(fakeAwsEnv('')),
    'DEFINITIONS_DIR',
    'DATABASE_URL',
    'DATABASE_IAM_AUTH',
    'DATABASE_SECRET_ARN',
    'DB_POOL_SIZE',
  ];
  let code: string;
  let secrets: FakeSecretsManager;
  let endpoint: MysqlIamEndpoint;
  beforeAll(async () => {
    code = (await bundle('handlers/read.ts')).code;
    secrets = await startFakeSecretsManager();
    endpoint = await startMysqlIamEndpoint({ tls: true });
  });
  beforeEach(() => {
    // a pool of one sets no idle timer, so the bundle's own clients (never closed) leave no handle open
    Object.assign(process.env, fakeAwsEnv(secrets.endpoint), { DEFINITIONS_DIR: testDefinitions, DB_POOL_SIZE: '1' });
  });
  afterEach(() => {
    for (const key of variables) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });
  afterAll(async () => {
    await secrets?.stop();
    await endpoint?.stop();
  });

  /** The read bundle serves one request that reaches the database; the SDK packages it required. */
  async function sdkRequiredBy(env: Record<string, string>): Promise<{ status: number; required: string[] }> {
    const loaded = loadBundle(code);
    Object.assign(process.env, env);
    const reply = await loaded.handler(get('/res/Item/1'));
    return { status: reply.statusCode, required: loaded.required.filter((id) => sdk.test(id)) };
  }

  it('a plain DATABASE_URL: none', async () => {
    const port = await closedPort();
    expect(await sdkRequiredBy({ DATABASE_URL: `postgres://app:pw@127.0.0.1:${port}/db` })).toEqual({
      status: 500,
      required: [],
    });
  });

  it('DATABASE_SECRET_ARN: @aws-sdk/client-secrets-manager only', async () => {
    const port = await closedPort();
    const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:rrs/lazy';
    secrets.set(arn, {
      secretString: JSON.stringify({ username: 'app', password: 'pw', host: '127.0.0.1', port, engine: 'postgres' }),
    });
    expect(await sdkRequiredBy({ DATABASE_SECRET_ARN: arn })).toEqual({
      status: 500,
      required: ['@aws-sdk/client-secrets-manager'],
    });
    expect(secrets.calls(arn)).toBe(1);
  });

  it('DATABASE_IAM_AUTH=true: @aws-sdk/rds-signer only, when a login asks for the token', async () => {
    const url = `mysql://app@127.0.0.1:${endpoint.port}/db?ssl=require`;
    expect(await sdkRequiredBy({ DATABASE_URL: url, DATABASE_IAM_AUTH: 'true' })).toEqual({
      status: 500,
      required: ['@aws-sdk/rds-signer'],
    });
    expect(endpoint.logins).toHaveLength(1);
  });
});
