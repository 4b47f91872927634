/**
 * Without sign-in (--param="auth=none") scripts/deploy/bundle-exclude.js leaves jose out of the bundles: only
 * sign-in requires it (lib/auth/jose.ts), so such a deployment never misses it. Proved on the read handler bundled
 * as serverless.yml bundles it with jose left out, run with a require() that records each module asked for: without
 * AUTH_ISSUER it serves requests and never asks for jose; with sign-in on it does, to verify a token.
 */
import { closedPort } from '../s3/s3-server';
import { bundleHandler, loadBundle } from '../support/handler-bundle';
import { testDefinitions } from '../support/service';

// the resolver is plain CommonJS, as serverless loads it
const exclude = require('../../scripts/deploy/bundle-exclude.js');
const resolving = (params: Record<string, string>) => ({
  resolveVariable: async (variable: string) => params[/^param:(\w+)/.exec(variable)?.[1] ?? ''] ?? '',
});

describe('bundle-exclude.js: jose', () => {
  it.each<[Record<string, string>, boolean]>([
    [{ auth: 'none' }, true],
    [{ auth: ' none ' }, true],
    [{ authIssuer: 'https://issuer.example.com/', authAudience: 'api' }, false],
    [{}, false],
  ])('params %j: left out %s', async (params, left) => {
    expect((await exclude(resolving(params))).includes('jose')).toBe(left);
  });
});

describe('the read bundle without jose', () => {
  const saved = { ...process.env };
  const variables = ['DEFINITIONS_DIR', 'DATABASE_URL', 'DB_POOL_SIZE', 'AUTH_ISSUER', 'AUTH_AUDIENCE'];
  let code: string;
  beforeAll(async () => {
    code = (
      await bundleHandler('handlers/read.ts', {
        external: ['@aws-sdk/*', '@aws-lambda-powertools/tracer', 'jose'],
        define: { 'process.env.RRS_BUNDLE_ENGINE': JSON.stringify('postgres') },
      })
    ).code;
  });
  beforeEach(async () => {
    // a pool of one sets no idle timer, so the bundle's own clients (never closed) leave no handle open
    Object.assign(process.env, {
      DEFINITIONS_DIR: testDefinitions,
      DB_POOL_SIZE: '1',
      DATABASE_URL: `postgres://app:pw@127.0.0.1:${await closedPort()}/db`,
    });
  });
  afterEach(() => {
    for (const key of variables) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  const get = (headers: Record<string, string>) => ({
    version: '2.0',
    routeKey: 'GET /res/Item/1',
    rawPath: '/res/Item/1',
    rawQueryString: '',
    headers: { accept: 'application/problem+json', ...headers },
    isBase64Encoded: false,
    requestContext: { http: { method: 'GET', path: '/res/Item/1' } },
  });

  it('without sign-in: serves the request (here a 500: no database listens) and never asks for jose', async () => {
    delete process.env.AUTH_ISSUER;
    delete process.env.AUTH_AUDIENCE;
    const loaded = loadBundle(code);
    const reply = await loaded.handler(get({}));
    expect([reply.statusCode, JSON.parse(reply.body).code]).toEqual([500, 'database_unreachable']);
    expect(loaded.required.filter((id) => id === 'jose')).toEqual([]);
  });

  it('with sign-in: asks for jose to verify the token', async () => {
    Object.assign(process.env, { AUTH_ISSUER: 'https://issuer.example.com/', AUTH_AUDIENCE: 'api' });
    const loaded = loadBundle(code);
    const reply = await loaded.handler(get({ authorization: 'Bearer not-a-token' }));
    expect(reply.statusCode).toBe(401);
    expect(loaded.required).toContain('jose');
  });

  it('with sign-in turned on by hand in a package without jose: a 500 that says how to package it', async () => {
    Object.assign(process.env, { AUTH_ISSUER: 'https://issuer.example.com/', AUTH_AUDIENCE: 'api' });
    const loaded = loadBundle(code, ['jose']);
    const reply = await loaded.handler(get({ authorization: 'Bearer not-a-token' }));
    expect(reply.statusCode).toBe(500);
    expect(JSON.parse(reply.body)).toMatchObject({
      code: 'configuration_invalid',
      detail: expect.stringContaining('packaged without it (--param="auth=none")'),
    });
  });
});
