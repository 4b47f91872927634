/**
 * How long a changed S3 definition takes to reach a warm container: at most DEFINITIONS_TTL_S seconds after the
 * container last checked, plus the one revalidation that the first request after the TTL starts. No request waits for
 * it: that request, and any while it runs, get the cached definition. With a 1 s TTL: every request that ends within
 * 1 s of the first one gets the old definition; a request after the TTL sees the new one within a second, and every
 * request after that one too.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, testDefinitions, useService } from '../support/service';
import { startTcpProxy } from '../support/tcp-proxy';
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

  it('with DEFINITIONS_TTL_S=1 a change is not visible before the TTL, and is soon after it, no request waiting', async () => {
    await useService({ DATABASE_URL: fx.db.url, ...s3Env(s3, `s3://${bucket}/defs`, 1) });
    const first = await sample();
    expect(first.fields).toBe('code,num,label');
    await s3.put(bucket, 'defs/Pair.xml', changed);
    const samples: Sample[] = [];
    const ttlOver = first.end + 1000;
    while (!samples.some((s) => s.fields === 'label,code,num') && Date.now() < ttlOver + 2000) {
      samples.push(await sample());
      await sleep(50);
    }
    samples.push(await sample());
    const beforeTtl = samples.filter((s) => s.end < first.start + 1000);
    expect(beforeTtl.length).toBeGreaterThan(0);
    expect(beforeTtl.map((s) => s.fields)).toEqual(beforeTtl.map(() => 'code,num,label'));
    const firstNew = samples.findIndex((s) => s.fields === 'label,code,num');
    expect(firstNew).toBeGreaterThan(0);
    expect((samples[firstNew] as Sample).start).toBeLessThan(ttlOver + 1000);
    expect(samples.slice(firstNew).every((s) => s.fields === 'label,code,num')).toBe(true);
  });

  it('answers from the cache while the revalidation after the TTL is held up', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) });
    try {
      const viaProxy = { endpoint: `http://127.0.0.1:${proxy.port}` };
      await useService({ DATABASE_URL: fx.db.url, ...s3Env(viaProxy, `s3://${bucket}/defs`, 1) });
      const loaded = await sample();
      proxy.freeze();
      await sleep(1100);
      // S3 answers nothing now: the revalidation this request starts waits, the request does not
      const answered = await Promise.race([sample(), sleep(3000).then(() => 'still waiting')]);
      expect(answered).toMatchObject({ fields: loaded.fields });
      expect(await sample()).toMatchObject({ fields: loaded.fields });
    } finally {
      await proxy.heal();
      // the held revalidation ends when the proxy resets its connection (the client retries, or the container
      // logs that it serves its cached definition): let it end inside the test
      await sleep(1000);
      await proxy.close();
    }
  });
});
