/**
 * An S3 outage while containers are warm: revalidation cannot reach S3, so a warm container keeps serving the
 * definition it has (and checks again after the TTL); a container that never read the definition answers the
 * definitions_unreachable 500.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, testDefinitions, useService } from '../support/service';
import { noS3Env, s3Env, startS3 } from './s3-server';

const [pglite] = targets();

describe('S3 outage', () => {
  const fx = useFixture(pglite as NonNullable<typeof pglite>);
  afterAll(() => useService(noS3Env));

  it('warm definitions keep serving; cold ones are a 500 naming the object', async () => {
    const s3 = await startS3();
    await s3.createBucket('outage');
    await s3.put('outage', 'defs/Pair.xml', readFileSync(path.join(testDefinitions, 'Pair.xml'), 'utf8'));
    await useService({ DATABASE_URL: fx.db.url, ...s3Env(s3, 's3://outage/defs', 0) });
    expect((await invoke({ method: 'GET', path: '/res/Pair/ABC/1' })).status).toBe(200);
    await s3.stop();
    const warm = await invoke({ method: 'GET', path: '/res/Pair/ABC/1', query: '_output=json' });
    expect(warm.status).toBe(200);
    expect(JSON.parse(warm.body)).toEqual({ pairList: [{ code: 'ABC', num: 1, label: 'first' }] });
    const cold = await invoke({ method: 'GET', path: '/res/Item/1', headers: { accept: 'application/problem+json' } });
    expect(cold.status).toBe(500);
    expect(JSON.parse(cold.body)).toMatchObject({
      code: 'definitions_unreachable',
      detail: expect.stringMatching(/^Reading s3:\/\/outage\/defs\/Item\.xml from S3 failed/),
    });
  });
});
