/**
 * How long a changed S3 definition takes to reach a warm container (D25): at most DEFINITIONS_TTL_S seconds after
 * the container last checked, plus the one request that revalidates. With a 1 s TTL: every request that ends within
 * 1 s of the first one still gets the old definition; the first request that starts 1 s after it gets the new one.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, testDefinitions, useService } from '../support/service';
import { filesUnder, noS3Env, s3Env, startS3, type TestS3 } from './s3-server';

const [pglite] = targets();
const bucket = 'rrs-ttl';
const original = readFileSync(path.join(testDefinitions, 'Pair.xml'), 'utf8');
const changed = original.replace('select code, num, label from pair', 'select label, code, num from pair');

interface Sample {
  readonly start: number;
  readonly end: number;
  readonly fields: string;
}

async function sample(): Promise<Sample> {
  const start = Date.now();
  const reply = await invoke({ method: 'GET', path: '/res/Pair/ABC/1', query: '_output=json' });
  const row = reply.status === 200 ? JSON.parse(reply.body).pairList[0] : { status: reply.status };
  return { start, end: Date.now(), fields: Object.keys(row).join(',') };
}

describe('propagation of an S3 definition change to a warm container', () => {
  const fx = useFixture(pglite as NonNullable<typeof pglite>);
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startS3();
    await s3.createBucket(bucket);
    for (const [key, body] of filesUnder(testDefinitions)) await s3.put(bucket, `defs/${key}`, body);
  });
  afterAll(async () => {
    await useService(noS3Env);
    await s3?.stop();
  });

  it('with DEFINITIONS_TTL_S=1 a change is not visible before the TTL and is visible after it', async () => {
    await useService({ DATABASE_URL: fx.db.url, ...s3Env(s3, `s3://${bucket}/defs`, 1) });
    const first = await sample();
    expect(first.fields).toBe('code,num,label');
    await s3.put(bucket, 'defs/Pair.xml', changed);
    const samples: Sample[] = [];
    const ttlOver = first.end + 1000;
    while (!samples.some((s) => s.start >= ttlOver) && Date.now() < ttlOver + 2000) {
      samples.push(await sample());
      await sleep(50);
    }
    const beforeTtl = samples.filter((s) => s.end < first.start + 1000);
    const afterTtl = samples.filter((s) => s.start >= ttlOver);
    expect(beforeTtl.length).toBeGreaterThan(0);
    expect(beforeTtl.map((s) => s.fields)).toEqual(beforeTtl.map(() => 'code,num,label'));
    expect(afterTtl[0]?.fields).toBe('label,code,num');
    const firstNew = samples.findIndex((s) => s.fields === 'label,code,num');
    expect(samples.slice(firstNew).every((s) => s.fields === 'label,code,num')).toBe(true);
  });
});
