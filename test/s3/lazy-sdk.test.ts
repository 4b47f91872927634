/**
 * The AWS SDK stays out of the start-up path (DESIGN: small bundles, SDK only in the S3 source). Handlers are
 * bundled as serverless.yml bundles them (esbuild, node, cjs, minified, @aws-sdk/* external); then:
 * - statically, from esbuild's metafile: only s3-source.ts imports @aws-sdk/*, and the only way into s3-source.ts
 *   is the require() call inside definitionSource();
 * - behaviourally: the read handler's bundle is run with a require() that records what it loads. Loading it, and
 *   serving from a definitions folder, never requires @aws-sdk/client-s3; serving with DEFINITIONS_S3 does.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { testDefinitions } from '../support/service';
import { noS3Env, s3Env, startS3, type TestS3 } from './s3-server';

const root = path.resolve(__dirname, '..', '..');
const handlerFiles = readdirSync(path.join(root, 'handlers')).filter((file) => file.endsWith('.ts'));
const sdk = /^@aws-sdk\//;

async function bundle(entry: string): Promise<{ code: string; metafile: Metafile }> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    external: ['@aws-sdk/*'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0]?.text ?? '', metafile: result.metafile };
}

interface LoadedBundle {
  readonly handler: (event: unknown) => Promise<{ statusCode: number; body: string }>;
  /** Every module name the bundle has required so far. */
  readonly required: string[];
}

/** Runs the bundle's top-level code as Node would run the file, with a require() that records each call. */
function load(code: string): LoadedBundle {
  const file = path.join(root, 'handlers', 'read.js');
  const realRequire = createRequire(file);
  const required: string[] = [];
  const record = (id: string) => {
    required.push(id);
    return realRequire(id);
  };
  const module = { exports: {} as Record<string, unknown> };
  new Function('exports', 'require', 'module', '__filename', '__dirname', code)(
    module.exports,
    record,
    module,
    file,
    path.dirname(file),
  );
  return { handler: module.exports.handler as LoadedBundle['handler'], required };
}

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
    'handlers/%s: only s3-source.ts imports @aws-sdk, and only a require() call reaches it',
    async (file) => {
      const { metafile } = await bundle(`handlers/${file}`);
      const importers = Object.entries(metafile.inputs).filter(([, input]) =>
        input.imports.some((i) => sdk.test(i.path)),
      );
      expect(importers.map(([name]) => name).filter((name) => name !== 'lib/definitions/s3-source.ts')).toEqual([]);
      const reaching = Object.entries(metafile.inputs).flatMap(([name, input]) =>
        input.imports.filter((i) => i.path === 'lib/definitions/s3-source.ts').map((i) => `${name} ${i.kind}`),
      );
      expect(reaching).toEqual(importers.length ? ['lib/definitions/resolve-resource.ts require-call'] : []);
    },
  );

  it('the read bundle starts and serves a folder without requiring @aws-sdk/client-s3', async () => {
    const { code } = await bundle('handlers/read.ts');
    expect(code).toContain('require("@aws-sdk/client-s3")');
    const loaded = load(code);
    expect(loaded.required.filter((id) => sdk.test(id))).toEqual([]);
    process.env.DEFINITIONS_DIR = testDefinitions;
    const reply = await loaded.handler(get('/res/Nope'));
    expect(reply).toMatchObject({ statusCode: 404, body: expect.stringContaining(`${testDefinitions}/Nope.xml`) });
    expect(loaded.required.filter((id) => sdk.test(id))).toEqual([]);
  });

  it('the read bundle requires @aws-sdk/client-s3 on the first request served from DEFINITIONS_S3', async () => {
    const loaded = load((await bundle('handlers/read.ts')).code);
    Object.assign(process.env, s3Env(s3, 's3://lazy/defs', 60));
    expect(loaded.required.filter((id) => sdk.test(id))).toEqual([]);
    const reply = await loaded.handler(get('/res/Nope'));
    expect(reply).toMatchObject({
      statusCode: 404,
      body: 'SQL Resource Nope not found - expected s3://lazy/defs/Nope.xml',
    });
    expect(loaded.required.filter((id) => sdk.test(id))).toEqual(['@aws-sdk/client-s3']);
  });
});
