/**
 * Sign-in and privileges through the real handlers, with tokens signed in the test by an RSA and an EC key whose
 * JWKS is served on 127.0.0.1: every reason a token is refused (401), every operation denied (403, nothing run)
 * and allowed, `*` rules and dotted resource names, roles from each claim shape, what the listing, the OpenAPI
 * document and /conf show a caller, the privileges file read again after DEFINITIONS_TTL_S, and the API Gateway
 * path where the gateway has verified the token.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { handler as readHandler } from '../../handlers/read';
import { forgetPrivileges } from '../../lib/auth/privileges-store';
import { startAuth, type TestAuth, testAudience, testIssuer } from '../support/auth';
import { type Target, targets } from '../support/databases';
import { type Fixture, useFixture } from '../support/fixture';
import { type Call, invoke, type Reply, testDefinitions, useService } from '../support/service';

const privilegesText = [
  '# who may do what in the test definitions',
  '*.select=reader,writer',
  '*.insert=writer',
  'Item.update=writer',
  'Pair.*=pairmaker',
  'shop.Widget.select=widgeteer',
  'shop.Widget.delete=widgeteer',
  '*.*=admin',
].join('\n');

const authEnvNames = [
  'AUTH_ISSUER',
  'AUTH_AUDIENCE',
  'AUTH_JWKS_URL',
  'AUTH_ROLES_CLAIM',
  'AUTH_ADMIN_ROLE',
  'PRIVILEGES',
  'DEFINITIONS_TTL_S',
  'AWS_LAMBDA_FUNCTION_NAME',
];
const noAuthEnv = Object.fromEntries(authEnvNames.map((name) => [name, undefined]));

let auth: TestAuth;
let dir: string;
let privilegesFile: string;

beforeAll(async () => {
  auth = await startAuth();
  dir = mkdtempSync(path.join(tmpdir(), 'rrs-sign-in-'));
  privilegesFile = path.join(dir, 'privileges.properties');
});
afterAll(async () => {
  await useService(noAuthEnv);
  forgetPrivileges();
  await auth?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The service of `fx` with sign-in on, the privileges above (or `env`'s) and these extra variables. */
async function signIn(fx: Fixture, env: Record<string, string | undefined> = {}): Promise<void> {
  writeFileSync(privilegesFile, privilegesText);
  forgetPrivileges();
  await useService({
    ...noAuthEnv,
    DATABASE_URL: fx.db.url,
    DEFINITIONS_DIR: testDefinitions,
    ...auth.env,
    PRIVILEGES: privilegesFile,
    ...env,
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
async function as(roles: string[] | Record<string, unknown>, call: Call): Promise<Reply> {
  const claims = Array.isArray(roles) ? { sub: 'tester', roles } : roles;
  return invoke({ ...call, headers: { ...call.headers, ...bearer(await auth.token(claims)) } });
}

const [pglite] = targets() as [Target, ...Target[]];

describe('refused tokens: 401 naming the check, never the token', () => {
  const fx = useFixture(pglite);
  beforeAll(() => signIn(fx));

  const hs256 = () =>
    new SignJWT({ roles: ['admin'] })
      .setProtectedHeader({ alg: 'HS256', kid: 'rsa' })
      .setIssuer(testIssuer)
      .setAudience(testAudience)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a shared secret anyone could guess'));
  const unsigned = () => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    return `${part({ alg: 'none', typ: 'JWT' })}.${part({ iss: testIssuer, aud: testAudience, exp: now + 300, roles: ['admin'] })}.`;
  };
  const cases: { why: string; header: () => Promise<string | undefined>; error: string; message: string }[] = [
    {
      why: 'no Authorization header',
      header: async () => undefined,
      error: 'Bearer realm="relational-resource-service"',
      message: 'Sign-in required: send the header Authorization: Bearer <token>',
    },
    {
      why: 'another scheme',
      header: async () => 'Basic dXNlcjpwYXNz',
      error: 'error="invalid_request"',
      message: 'The Authorization header must be "Bearer " followed by the token, with nothing else',
    },
    {
      why: 'a token that is not a JWT',
      header: async () => 'Bearer not-a-token',
      error: 'error="invalid_token"',
      message: 'The token is malformed: it is not a signed JSON Web Token',
    },
    {
      why: 'an expired token',
      header: async () => `Bearer ${await auth.token({ roles: ['admin'] }, { expiresIn: -120 })}`,
      error: 'error="invalid_token"',
      message: 'The token has expired',
    },
    {
      why: 'a token not valid yet',
      header: async () => `Bearer ${await auth.token({ roles: ['admin'] }, { notBefore: 600 })}`,
      error: 'error="invalid_token"',
      message: 'The token is not valid yet (nbf)',
    },
    {
      why: 'a token without expiry',
      header: async () => `Bearer ${await auth.token({ roles: ['admin'] }, { noExpiry: true })}`,
      error: 'error="invalid_token"',
      message: 'The token has no expiry (exp)',
    },
    {
      why: 'another issuer',
      header: async () => `Bearer ${await auth.token({ roles: ['admin'] }, { issuer: 'https://evil.test/' })}`,
      error: 'error="invalid_token"',
      message: `The token was not issued by ${testIssuer}`,
    },
    {
      why: 'another audience',
      header: async () => `Bearer ${await auth.token({ roles: ['admin'] }, { audience: 'someone-else' })}`,
      error: 'error="invalid_token"',
      message: `The token's audience does not include ${testAudience}`,
    },
    {
      why: 'a signature by another key under the issuer key id',
      header: async () => {
        await auth.addKey('rogue', { publish: false });
        return `Bearer ${await auth.token({ roles: ['admin'] }, { key: 'rogue', kid: 'ec' })}`;
      },
      error: 'error="invalid_token"',
      message: "The token's signature does not verify with the issuer's key",
    },
    {
      why: 'a key id the issuer does not publish',
      header: async () => `Bearer ${await auth.token({ roles: ['admin'] }, { kid: 'nobody' })}`,
      error: 'error="invalid_token"',
      message: "No signing key of the issuer matches the token's key id",
    },
    {
      why: 'HS256 signed with a guessable secret',
      header: async () => `Bearer ${await hs256()}`,
      error: 'error="invalid_token"',
      message: expect.stringMatching(/^The token's algorithm is not allowed; allowed: RS256, .*ES256/) as never,
    },
    {
      why: 'alg none',
      header: async () => `Bearer ${unsigned()}`,
      error: 'error="invalid_token"',
      message: expect.stringMatching(/^The token's algorithm is not allowed; allowed: RS256, /) as never,
    },
  ];

  it.each(cases)('$why', async ({ header, error, message }) => {
    const value = await header();
    for (const accept of ['application/json', 'application/problem+json']) {
      const reply = await invoke({
        method: 'GET',
        path: '/res/Item/1',
        headers: { accept, ...(value === undefined ? {} : { authorization: value }) },
      });
      expect(reply.status).toBe(401);
      expect(reply.headers['www-authenticate']).toMatch(/^Bearer realm="relational-resource-service"/);
      expect(reply.headers['www-authenticate']).toContain(error);
      const detail = accept === 'application/json' ? reply.body : JSON.parse(reply.body).detail;
      expect(detail).toEqual(message);
      if (accept !== 'application/json') expect(JSON.parse(reply.body).code).toBe('unauthenticated');
      const token = value?.split(' ')[1];
      if (token && token.length > 8) expect(reply.body).not.toContain(token);
      expect(reply.headers['www-authenticate']).not.toContain(String(token));
    }
  });

  it('is checked on every route: listing, OpenAPI, /conf, XSD and unknown paths', async () => {
    for (const p of ['/res', '/openapi.json', '/conf/definition/Item', '/conf/reload/Item', '/xsd/Item', '/nowhere'])
      expect([p, (await invoke({ method: 'GET', path: p })).status]).toEqual([p, 401]);
    expect((await invoke({ method: 'DELETE', path: '/res/Item/1' })).status).toBe(401);
    expect(await fx.count('item')).toBe(4);
  });

  it('accepts tokens of both keys, and a key the issuer published after the keys were fetched', async () => {
    const read = (token: string) => invoke({ method: 'GET', path: '/res/Item/1', headers: bearer(token) });
    expect((await read(await auth.token({ roles: ['reader'] }, { key: 'rsa' }))).status).toBe(200);
    expect((await read(await auth.token({ roles: ['reader'] }, { key: 'ec' }))).status).toBe(200);
    await auth.addKey('rotated');
    const fetched = auth.fetches();
    // jose fetches the keys again for an unknown key id at most every 30 s: move the clock past that.
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 31_000);
    try {
      expect((await read(await auth.token({ roles: ['reader'] }, { key: 'rotated' }))).status).toBe(200);
    } finally {
      clock.mockRestore();
    }
    expect(auth.fetches()).toBe(fetched + 1);
    expect((await read(await auth.token({ roles: ['reader'] }, { key: 'rotated' }))).status).toBe(200);
    expect(auth.fetches()).toBe(fetched + 1);
  });
});

describe.each(targets())('privileges per operation on $name', (target) => {
  const fx = useFixture(target);
  beforeAll(() => signIn(fx));

  const body = JSON.stringify({ items: [{ name: 'fig', price: 2 }] });
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  const calls: Record<string, Call> = {
    select: { method: 'GET', path: '/res/Item/1', headers: { accept: 'application/json' } },
    insert: { method: 'POST', path: '/res/Item', headers: json, body },
    update: {
      method: 'PUT',
      path: '/res/Item/2',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: 'price=9',
    },
    delete: { method: 'DELETE', path: '/res/Item/4', headers: json },
  };

  it.each([
    { roles: ['reader'], allowed: ['select'] },
    { roles: ['writer'], allowed: ['select', 'insert', 'update'] },
    { roles: ['admin'], allowed: ['select', 'insert', 'update', 'delete'] },
    { roles: ['stranger'], allowed: [] },
    { roles: [], allowed: [] },
  ])('$roles may $allowed of Item, and nothing else runs', async ({ roles, allowed }) => {
    for (const [privilege, call] of Object.entries(calls)) {
      const reply = await as(roles, call);
      if (allowed.includes(privilege)) {
        expect([privilege, reply.status, reply.status === 200 ? '' : reply.body]).toEqual([privilege, 200, '']);
      } else {
        const who = roles.length ? `Roles ${roles.join(', ')}` : 'A caller without roles';
        expect([privilege, reply.status, reply.body]).toEqual([privilege, 403, `${who} may not ${privilege} Item`]);
      }
    }
    const names = (await fx.db.exec('SELECT name FROM item ORDER BY item_id')).map((r) => r.name);
    expect(names.includes('fig')).toBe(allowed.includes('insert'));
    expect(names.includes('dürüm')).toBe(!allowed.includes('delete'));
    expect(await fx.count('item', 'price = 9')).toBe(allowed.includes('update') ? 1 : 0);
  });

  it("keeps a signed-in caller's rows out of shared caches", async () => {
    const reply = await as(['reader'], calls.select as Call);
    expect(reply.headers['cache-control']).toBe('private, no-cache, no-transform');
  });

  it('checks the operation after X-HTTP-Method-Override, before the body is read', async () => {
    const reply = await as(['writer'], {
      method: 'POST',
      path: '/res/Item/4',
      headers: { ...json, 'x-http-method-override': 'DELETE' },
      body: '{ not json',
    });
    expect([reply.status, reply.body]).toEqual([403, 'Roles writer may not delete Item']);
    expect(await fx.count('item')).toBe(4);
  });

  it('grants `Resource.*` rules and dotted resource names', async () => {
    const pair = await as(['pairmaker'], { method: 'DELETE', path: '/res/Pair', query: 'code=XYZ' });
    expect(pair.status).toBe(200);
    expect((await as(['pairmaker'], { method: 'GET', path: '/res/Item/1' })).status).toBe(403);
    const widget = await as(['widgeteer'], { method: 'GET', path: '/res/shop.Widget/1' });
    expect(widget.status).toBe(200);
    const denied = await as(['widgeteer'], { method: 'POST', path: '/res/shop.Widget', headers: json, body: '{}' });
    expect([denied.status, denied.body]).toEqual([403, 'Roles widgeteer may not insert shop.Widget']);
    expect((await as(['widgeteer'], { method: 'DELETE', path: '/res/shop.Widget/1' })).status).toBe(200);
    expect(await fx.count('widget')).toBe(0);
  });
});

describe('roles from each claim shape', () => {
  const fx = useFixture(pglite);
  afterAll(() => signIn(fx));

  it.each([
    { claim: 'roles', claims: { roles: ['reader'] } },
    { claim: 'roles', claims: { roles: 'reader' } },
    { claim: 'cognito:groups', claims: { 'cognito:groups': ['reader', 'staff'] } },
    { claim: 'scope', claims: { scope: 'openid reader' } },
    { claim: 'realm_access.roles', claims: { realm_access: { roles: ['reader'] } } },
    { claim: 'https://example.com/roles', claims: { 'https://example.com/roles': ['reader'] } },
  ])('AUTH_ROLES_CLAIM=$claim reads $claims', async ({ claim, claims }) => {
    await signIn(fx, { AUTH_ROLES_CLAIM: claim });
    expect((await as(claims, { method: 'GET', path: '/res/Item/1' })).status).toBe(200);
    const denied = await as(claims, { method: 'DELETE', path: '/res/Item/1' });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatch(/^Roles (reader|reader, staff|openid, reader) may not delete Item$/);
    expect((await as({ roles: ['admin'] }, { method: 'GET', path: '/res/Item/1' })).status).toBe(
      claim === 'roles' ? 200 : 403,
    );
  });
});

describe('what a caller sees: listing, OpenAPI and /conf', () => {
  const fx = useFixture(pglite);
  beforeAll(() => signIn(fx));

  const listed = async (roles: string[]) => {
    const reply = await as(roles, { method: 'GET', path: '/res', headers: { accept: 'application/json' } });
    expect(reply.headers['cache-control']).toBe('private, no-cache');
    const resources = JSON.parse(reply.body).resources as { name: string; privileges: string }[];
    return Object.fromEntries(resources.map((r) => [r.name, r.privileges]));
  };

  it('lists only the resources the caller may use, with what it may do', async () => {
    expect(await listed(['widgeteer'])).toEqual({ 'shop.Widget': 'select delete' });
    expect(await listed(['pairmaker', 'widgeteer'])).toEqual({
      Pair: 'select insert update delete',
      'shop.Widget': 'select delete',
    });
    expect(await listed(['stranger'])).toEqual({});
    const writer = await listed(['writer']);
    expect(writer.Item).toBe('select insert update');
    expect(writer.Pair).toBe('select insert');
    const xml = await as(['widgeteer'], { method: 'GET', path: '/res', headers: { accept: 'application/xml' } });
    expect(xml.body).toContain('privileges="select delete"');
    expect(xml.body).not.toContain('Item');
  });

  it('documents only the paths and methods the caller may use in /openapi.json', async () => {
    const reply = await as(['widgeteer'], { method: 'GET', path: '/openapi.json' });
    const paths = JSON.parse(reply.body).paths as Record<string, Record<string, unknown>>;
    const resourcePaths = Object.keys(paths).filter((p) => p.startsWith('/res/'));
    expect(resourcePaths.length).toBeGreaterThan(0);
    for (const p of resourcePaths) {
      expect(p).toMatch(/^\/res\/shop\.Widget(\/|$)/);
      expect(Object.keys(paths[p] ?? {}).filter((m) => ['get', 'post', 'put', 'delete'].includes(m))).not.toContain(
        'post',
      );
    }
    const methods = new Set(resourcePaths.flatMap((p) => Object.keys(paths[p] ?? {})));
    expect(methods.has('get')).toBe(true);
    expect(methods.has('delete')).toBe(true);
    expect(methods.has('put')).toBe(false);
    const admin = JSON.parse((await as(['admin'], { method: 'GET', path: '/openapi.json' })).body);
    expect(Object.keys(admin.paths).some((p) => p.startsWith('/res/Item'))).toBe(true);
  });

  it('needs select for /conf/definition, metadata and documentation, and the admin role to reload', async () => {
    for (const what of ['definition', 'metadata', 'documentation']) {
      expect((await as(['reader'], { method: 'GET', path: `/conf/${what}/Item` })).status).toBe(200);
      const denied = await as(['widgeteer'], { method: 'GET', path: `/conf/${what}/Item` });
      expect([what, denied.status, denied.body]).toEqual([what, 403, 'Roles widgeteer may not select Item']);
    }
    const reload = await as(['writer'], { method: 'GET', path: '/conf/reload/Item' });
    expect([reload.status, reload.body]).toEqual([403, 'Roles writer may not reload Item: it needs the role admin']);
    expect((await as(['admin'], { method: 'GET', path: '/conf/reload/Item' })).status).toBe(200);
    await signIn(fx, { AUTH_ADMIN_ROLE: 'operator' });
    expect((await as(['admin'], { method: 'GET', path: '/conf/reload/Item' })).status).toBe(403);
    expect((await as(['operator'], { method: 'GET', path: '/conf/reload/Item' })).status).toBe(200);
    await signIn(fx);
  });
});

describe('the privileges file', () => {
  const fx = useFixture(pglite);
  afterAll(() => signIn(fx));
  const read = (roles: string[]) => as(roles, { method: 'GET', path: '/res/Item/1' });

  it('is read again after DEFINITIONS_TTL_S when it changes, or at /conf/reload', async () => {
    await signIn(fx, { DEFINITIONS_TTL_S: '0' });
    expect((await read(['auditor'])).status).toBe(403);
    writeFileSync(privilegesFile, `${privilegesText}\nItem.select=auditor\n# changed`);
    expect((await read(['auditor'])).status).toBe(200);
    await signIn(fx, { DEFINITIONS_TTL_S: '3600' });
    expect((await read(['auditor'])).status).toBe(403);
    writeFileSync(privilegesFile, `${privilegesText}\nItem.select=auditor\n# changed`);
    expect((await read(['auditor'])).status).toBe(403);
    // /conf/reload reads it again at once, on the container that serves the reload (here: the one process)
    expect((await as(['admin'], { method: 'GET', path: '/conf/reload/Item' })).status).toBe(200);
    expect((await read(['auditor'])).status).toBe(200);
  });

  it('that is malformed makes every request a 500 naming the file and line, never allow-all', async () => {
    await signIn(fx, { DEFINITIONS_TTL_S: '0' });
    writeFileSync(privilegesFile, '*.*=admin\nItem.select reader\n');
    const reply = await as(['admin'], {
      method: 'GET',
      path: '/res/Item/1',
      headers: { accept: 'application/problem+json' },
    });
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toMatchObject({
      code: 'privileges_invalid',
      // sign-in is on: the body names the file, not the folders it is in
      detail: 'Privileges file privileges.properties, line 2: expected {resource}.{privilege}={role},{role}...',
    });
    expect((await as(['admin'], { method: 'GET', path: '/res' })).status).toBe(500);
  });

  it('that is missing is a 500 naming it', async () => {
    await signIn(fx, { PRIVILEGES: path.join(dir, 'absent.properties') });
    const reply = await read(['admin']);
    expect([reply.status, reply.body]).toEqual([500, 'Privileges file absent.properties cannot be read (ENOENT)']);
  });

  it('not configured denies everything and says why', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    await signIn(fx, { PRIVILEGES: undefined });
    const reply = await read(['admin']);
    expect([reply.status, reply.body]).toEqual([
      403,
      'Roles admin may not select Item (no privileges file is configured, so nothing is granted: set PRIVILEGES)',
    ]);
    expect(warn).toHaveBeenCalledWith('Sign-in is on but PRIVILEGES names no privileges file: every request is denied');
    warn.mockRestore();
  });
});

describe('on AWS Lambda behind the JWT authorizer', () => {
  const fx = useFixture(pglite);
  beforeAll(() => signIn(fx, { AWS_LAMBDA_FUNCTION_NAME: 'rrs-test-read' }));
  afterAll(() => signIn(fx));

  /** An HTTP API v2 event as API Gateway passes it on after its authorizer accepted the token. */
  const gatewayEvent = (token: string, claims: Record<string, string> | undefined) => ({
    version: '2.0',
    routeKey: 'GET /res/{name}/{keys+}',
    rawPath: '/res/Item/1',
    rawQueryString: '',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    isBase64Encoded: false,
    requestContext: {
      http: { method: 'GET', path: '/res/Item/1' },
      ...(claims ? { authorizer: { jwt: { claims } } } : {}),
    },
  });

  it('reads the roles of the token the gateway verified, arrays intact', async () => {
    // Signed by a key the service cannot see: only the gateway checked it.
    await auth.addKey('gateway-only', { publish: false });
    const token = await auth.token({ roles: ['reader', 'writer'] }, { key: 'gateway-only' });
    const reply = await readHandler(gatewayEvent(token, { roles: '[reader writer]' }) as never);
    expect(reply.statusCode).toBe(200);
  });

  it('verifies the token itself when the event carries no authorizer claims', async () => {
    const token = await auth.token({ roles: ['reader'] }, { key: 'gateway-only' });
    const reply = await readHandler(gatewayEvent(token, undefined) as never);
    expect([reply.statusCode, reply.body]).toEqual([401, "No signing key of the issuer matches the token's key id"]);
    const good = await auth.token({ roles: ['reader'] });
    expect((await readHandler(gatewayEvent(good, undefined) as never)).statusCode).toBe(200);
  });
});
