/**
 * Definitions from S3 (D25) against a real S3-compatible server on loopback, through the real handlers: reads,
 * /conf/definition as stored, the D3 404 naming the s3:// object, changes reaching a warm container after
 * /conf/reload or DEFINITIONS_TTL_S (conditional GET on the ETag), listing, and S3 failures as a 500 naming the
 * location and the S3 error.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { config } from '../../lib/config';
import { resolveResource } from '../../lib/definitions/resolve-resource';
import { s3Source } from '../../lib/definitions/s3-source';
import { validateDefinitions } from '../../lib/definitions/validate-definitions';
import { writeCatalogSnapshot } from '../../lib/definitions/write-snapshot';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, testDefinitions, useService } from '../support/service';
import { closedPort, filesUnder, noS3Env, s3Env, startS3, type TestS3 } from './s3-server';

const [pglite] = targets();
const bucket = 'rrs-defs';
const uri = `s3://${bucket}/team/v1`;
const original = readFileSync(path.join(testDefinitions, 'Pair.xml'), 'utf8');
const withQuery = (query: string) => original.replace('select code, num, label from pair', query);
const fields = async () => {
  const reply = await invoke({ method: 'GET', path: '/res/Pair/ABC/1', query: '_output=json' });
  return reply.status === 200 ? Object.keys(JSON.parse(reply.body).pairList[0] ?? {}) : reply;
};

describe('definitions from S3', () => {
  const fx = useFixture(pglite as NonNullable<typeof pglite>);
  let s3: TestS3;
  const serve = (ttl: number, from = uri, env: Record<string, string> = {}) =>
    useService({ DATABASE_URL: fx.db.url, ...s3Env(s3, from, ttl), ...env });

  beforeAll(async () => {
    s3 = await startS3();
    await s3.createBucket(bucket);
    for (const [key, body] of filesUnder(testDefinitions)) await s3.put(bucket, `team/v1/${key}`, body);
  });
  beforeEach(() => s3.put(bucket, 'team/v1/Pair.xml', original));
  afterAll(async () => {
    await useService(noS3Env);
    await s3?.stop();
  });

  it('serves rows through a definition read from the object prefix/Name.xml', async () => {
    await serve(3600);
    const reply = await invoke({ method: 'GET', path: '/res/Pair/ABC/1', query: '_output=json' });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ pairList: [{ code: 'ABC', num: 1, label: 'first' }] });
    const nested = await invoke({ method: 'GET', path: '/res/shop.Widget/1', query: '_output=json' });
    expect(nested.status).toBe(200);
    expect(nested.body).toContain('sprocket');
  });

  it('keeps the catalog snapshot under the prefix: written there, and read from there by a cold container', async () => {
    await serve(3600);
    const loaded = (await validateDefinitions(config())).filter((r) => r.status !== 'failed').map((r) => r.name);
    const written = await writeCatalogSnapshot(config(), loaded);
    expect(written.location).toBe(`${uri}/catalog-snapshot.json`);
    try {
      const stored = await s3Source(uri, 'us-east-1', s3.endpoint).readSnapshot();
      expect(JSON.parse(stored?.text ?? '{}').resources.Pair).toBeDefined();
      await serve(3600); // a cold container
      expect(await fields()).toEqual(['code', 'num', 'label']);
      const { snapshotCheck } = await resolveResource(config(), 'Pair');
      expect(await snapshotCheck?.settled).toBe(true);
    } finally {
      await s3.remove(bucket, 'team/v1/catalog-snapshot.json');
    }
    expect(await s3Source(uri, 'us-east-1', s3.endpoint).readSnapshot()).toBeNull();
  });

  it('/conf/definition returns the object exactly as stored', async () => {
    const stored = `<?xml version="1.0"?>\n<!-- from S3 -->\n${withQuery('select code,  num from pair')}\n\n`;
    await s3.put(bucket, 'team/v1/Pair.xml', stored);
    await serve(3600);
    const reply = await invoke({ method: 'GET', path: '/conf/definition/Pair' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/xml');
    expect(reply.body).toBe(stored);
  });

  it('a missing object is the D3 404 naming s3://bucket/prefix/Name.xml', async () => {
    await serve(3600);
    const missing = await invoke({ method: 'GET', path: '/res/Nope' });
    expect(missing.status).toBe(404);
    expect(missing.body).toBe(`SQL Resource Nope not found - expected ${uri}/Nope.xml`);
    const nested = await invoke({ method: 'GET', path: '/conf/metadata/a.b.Nope' });
    expect(nested.body).toBe(`SQL Resource a.b.Nope not found - expected ${uri}/a/b/Nope.xml`);
  });

  it('an invalid name is the 404 without asking S3 (here: an endpoint that refuses connections)', async () => {
    await serve(3600, uri, { S3_ENDPOINT: `http://127.0.0.1:${await closedPort()}` });
    const reply = await invoke({ method: 'GET', path: '/conf/definition/a..b' });
    expect(reply.status).toBe(404);
    expect(reply.body).toBe(`SQL Resource a..b not found - expected ${uri}/a//b.xml`);
  });

  it('with a long TTL a changed object waits for /conf/reload', async () => {
    await serve(3600);
    expect(await fields()).toEqual(['code', 'num', 'label']);
    await s3.put(bucket, 'team/v1/Pair.xml', withQuery('select code, num from pair'));
    expect(await fields()).toEqual(['code', 'num', 'label']);
    expect((await invoke({ method: 'GET', path: '/conf/reload/Pair' })).body).toBe('Reload of Pair succeeded');
    expect(await fields()).toEqual(['code', 'num']);
  });

  it('with DEFINITIONS_TTL_S=0 the next request sees a change, a deletion (404) and a broken object (500)', async () => {
    await serve(0);
    expect(await fields()).toEqual(['code', 'num', 'label']);
    await s3.put(bucket, 'team/v1/Pair.xml', withQuery('select label, num, code from pair'));
    expect(await fields()).toEqual(['label', 'num', 'code']);
    await s3.put(bucket, 'team/v1/Pair.xml', '<sqlResource><query>select</query>');
    const broken = await invoke({ method: 'GET', path: '/res/Pair' });
    expect(broken.status).toBe(500);
    expect(broken.body).toMatch(`Definition ${uri}/Pair.xml is invalid: malformed XML`);
    await s3.put(bucket, 'team/v1/Pair.xml', original);
    expect(await fields()).toEqual(['code', 'num', 'label']);
    await s3.remove(bucket, 'team/v1/Pair.xml');
    const gone = await invoke({ method: 'GET', path: '/res/Pair' });
    expect(gone.status).toBe(404);
    expect(gone.body).toBe(`SQL Resource Pair not found - expected ${uri}/Pair.xml`);
  });

  it('a bucket that does not exist is a 500 naming the location and the S3 error', async () => {
    await serve(3600, 's3://no-such-bucket/defs');
    const reply = await invoke({ method: 'GET', path: '/res/Pair' });
    expect(reply.status).toBe(500);
    expect(reply.body).toBe(
      'Reading s3://no-such-bucket/defs/Pair.xml from S3 failed with ' +
        'NoSuchBucket (HTTP 404): The specified bucket does not exist',
    );
  });

  it('unknown credentials are a 500 naming the location and the S3 error', async () => {
    await serve(3600, uri, { AWS_ACCESS_KEY_ID: 'NOBODY' });
    const reply = await invoke({ method: 'GET', path: '/conf/definition/Pair' });
    expect(reply.status).toBe(500);
    expect(reply.body).toMatch(`Reading ${uri}/Pair.xml from S3 failed with InvalidAccessKeyId`);
  });

  it('an unreachable S3 is a 500 naming the location and the network error', async () => {
    await serve(3600, uri, { S3_ENDPOINT: `http://127.0.0.1:${await closedPort()}` });
    const reply = await invoke({ method: 'GET', path: '/res/Pair', headers: { accept: 'application/problem+json' } });
    expect(reply.status).toBe(500);
    const problem = JSON.parse(reply.body);
    expect(problem.code).toBe('definitions_unreachable');
    // the SDK's own error, or (under jest, whose Error is another realm's) its wrapper quoting it
    expect(problem.detail).toMatch(new RegExp(`^Reading ${uri}/Pair\\.xml from S3 failed with .*connect ECONNREFUSED`));
  });
});

describe('the S3 source itself', () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startS3();
    await s3.createBucket(bucket);
    for (const [key, body] of filesUnder(testDefinitions)) await s3.put(bucket, `team/v1/${key}`, body);
    // neighbours that are not definitions of this prefix
    await s3.put(bucket, 'team/v1/README.txt', 'not a definition');
    await s3.put(bucket, 'team/v1/bad name.xml', original);
    await s3.put(bucket, 'team/v10/Other.xml', original);
    await s3.put(bucket, 'Top.xml', original);
    await useService(s3Env(s3, uri, 60));
  });
  afterAll(async () => {
    await useService(noS3Env);
    await s3?.stop();
  });
  const source = (from = uri) => s3Source(from, 'us-east-1', s3.endpoint);

  it('list() returns every definition name under the prefix, sorted', async () => {
    const expected = filesUnder(testDefinitions).map(([key]) => key.slice(0, -'.xml'.length).split('/').join('.'));
    expect(await source().list()).toEqual(expected.sort());
    expect(await source(`${uri}/shop/`).list()).toEqual(['Widget']);
  });

  it('without a prefix the whole bucket is the root', async () => {
    const root = source(`s3://${bucket}/`);
    expect(root.root).toBe(`s3://${bucket}`);
    expect((await root.read('Top')).location).toBe(`s3://${bucket}/Top.xml`);
    expect((await root.read('team.v1.Pair')).xml).toBe(original);
    expect(await root.list()).toContain('team.v10.Other');
  });

  it('revalidate() answers unchanged (304), the new definition, or null when the object is gone', async () => {
    const pair = source();
    const known = await pair.read('Pair');
    expect(known).toMatchObject({ name: 'Pair', location: `${uri}/Pair.xml`, xml: original });
    expect(await pair.revalidate(known)).toBe('unchanged');
    await s3.put(bucket, 'team/v1/Pair.xml', withQuery('select num from pair'));
    const changed = await pair.revalidate(known);
    expect(changed).toMatchObject({ name: 'Pair', xml: withQuery('select num from pair') });
    expect(changed !== 'unchanged' && changed?.version).not.toBe(known.version);
    await s3.remove(bucket, 'team/v1/Pair.xml');
    expect(await pair.revalidate(known)).toBeNull();
    await s3.put(bucket, 'team/v1/Pair.xml', original);
  });

  it('list() pages through more than 1000 objects', async () => {
    const names = Array.from({ length: 1003 }, (_, i) => `N${String(i).padStart(4, '0')}`);
    for (let i = 0; i < names.length; i += 100) {
      await Promise.all(names.slice(i, i + 100).map((name) => s3.put(bucket, `many/${name}.xml`, original)));
    }
    expect(await source(`s3://${bucket}/many`).list()).toEqual(names);
  });

  it('list() on a bucket that does not exist is a 500 naming the prefix', async () => {
    await expect(source('s3://no-such-bucket/defs').list()).rejects.toMatchObject({
      status: 500,
      code: 'definitions_unreachable',
      message: expect.stringContaining('Reading s3://no-such-bucket/defs/ from S3 failed'),
    });
  });

  it('DEFINITIONS_S3 that is not s3://bucket[/prefix] is a 500 naming it', () => {
    expect(() => s3Source('https://bucket/defs', 'us-east-1')).toThrow(
      'Definition https://bucket/defs is invalid: DEFINITIONS_S3 must be s3://bucket or s3://bucket/prefix',
    );
  });
});
