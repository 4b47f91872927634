/**
 * scripts/deploy/bundle-exclude.js leaves jose out of every Lambda bundle: only verifying a token requires it
 * (lib/auth/jose.ts), and on Lambda API Gateway's JWT authorizer has verified every token before the handler, which
 * only reads it. Proved on the read handler bundled as serverless.yml bundles it, run with a require() that records
 * each module asked for (and, where said, finds no jose, as in the Lambda package): without AUTH_ISSUER and on
 * Lambda with the gateway's verdict it never asks for jose; outside Lambda (serverless-offline, which finds it in
 * node_modules) it does, to verify a token; on Lambda without a verdict, a 500 says how to deploy.
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
  it.each<Record<string, string>>([
    { auth: 'none' },
    { authIssuer: 'https://issuer.example.com/', authAudience: 'api' },
    {},
  ])('params %j: left out', async (params) => {
    expect(await exclude(resolving(params))).toContain('jose');
  });
});

describe('the read bundle without jose', () => {
  const saved = { ...process.env };
  const variables = [
    'DEFINITIONS_DIR',
    'DATABASE_URL',
    'DB_POOL_SIZE',
    'AUTH_ISSUER',
    'AUTH_AUDIENCE',
    'AWS_LAMBDA_FUNCTION_NAME',
  ];
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

  /** An HTTP API v2 event; `claims`: API Gateway's JWT authorizer accepted the token and passes its claims on. */
  const get = (headers: Record<string, string>, claims?: Record<string, string>) => ({
    version: '2.0',
    routeKey: 'GET /res/Item/1',
    rawPath: '/res/Item/1',
    rawQueryString: '',
    headers: { accept: 'application/problem+json', ...headers },
    isBase64Encoded: false,
    requestContext: {
      http: { method: 'GET', path: '/res/Item/1' },
      ...(claims ? { authorizer: { jwt: { claims, scopes: null } } } : {}),
    },
  });
  const signIn = (lambda: boolean) =>
    Object.assign(process.env, {
      AUTH_ISSUER: 'https://issuer.example.com/',
      AUTH_AUDIENCE: 'api',
      ...(lambda ? { AWS_LAMBDA_FUNCTION_NAME: 'rrs-test-read' } : {}),
    });
  /** A token as the gateway passes it on: only its payload is read (the gateway checked the signature). */
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const payload = {
    iss: 'https://issuer.example.com/',
    aud: 'api',
    exp: Math.floor(Date.now() / 1000) + 300,
    sub: 'u1',
    roles: ['reader'],
  };
  const token = `${part({ alg: 'RS256' })}.${part(payload)}.c2lnbmF0dXJl`;

  it('without sign-in: serves the request (here a 500: no database listens) and never asks for jose', async () => {
    delete process.env.AUTH_ISSUER;
    delete process.env.AUTH_AUDIENCE;
    const loaded = loadBundle(code, ['jose']);
    const reply = await loaded.handler(get({}));
    expect([reply.statusCode, JSON.parse(reply.body).code]).toEqual([500, 'database_unreachable']);
    expect(loaded.required.filter((id) => id === 'jose')).toEqual([]);
  });

  it("on Lambda with the gateway's verdict: reads the token and never asks for jose", async () => {
    signIn(true);
    const loaded = loadBundle(code, ['jose']);
    const reply = await loaded.handler(get({ authorization: `Bearer ${token}` }, { sub: 'u1' }));
    // signed in (no privileges file: every resource denied), and jose never asked for
    expect([reply.statusCode, JSON.parse(reply.body).code]).toEqual([403, 'forbidden']);
    expect(loaded.required.filter((id) => id === 'jose')).toEqual([]);
  });

  it('outside Lambda (serverless-offline, which finds jose in node_modules): asks for jose to verify the token', async () => {
    signIn(false);
    const loaded = loadBundle(code);
    const reply = await loaded.handler(get({ authorization: 'Bearer not-a-token' }));
    expect(reply.statusCode).toBe(401);
    expect(loaded.required).toContain('jose');
  });

  it("on Lambda without the gateway's verdict (sign-in set by hand): a 500 that says how to deploy", async () => {
    signIn(true);
    const loaded = loadBundle(code, ['jose']);
    const reply = await loaded.handler(get({ authorization: 'Bearer not-a-token' }));
    expect(reply.statusCode).toBe(500);
    expect(JSON.parse(reply.body)).toMatchObject({
      code: 'configuration_invalid',
      detail: expect.stringContaining('package and deploy with authIssuer and authAudience'),
    });
  });
});
