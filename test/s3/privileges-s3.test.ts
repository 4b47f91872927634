/**
 * A privileges file in S3 (PRIVILEGES=s3://bucket/key) against a real S3-compatible server on loopback, through
 * the real handlers: read once, kept for DEFINITIONS_TTL_S, then revalidated on its ETag so a change reaches a
 * warm container; a missing object is a 500 naming it, never "allow all".
 */
import { forgetPrivileges } from '../../lib/auth/privileges-store';
import { startAuth, type TestAuth } from '../support/auth';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, testDefinitions, useService } from '../support/service';
import { noS3Env, s3Env, startS3, type TestS3 } from './s3-server';

const [pglite] = targets();
const bucket = 'rrs-privileges';
const location = `s3://${bucket}/prod/privileges.properties`;

describe('privileges from S3', () => {
  const fx = useFixture(pglite as NonNullable<typeof pglite>);
  let s3: TestS3;
  let auth: TestAuth;
  const serve = async (ttl: number, privileges = location) => {
    forgetPrivileges();
    await useService({
      DATABASE_URL: fx.db.url,
      DEFINITIONS_DIR: testDefinitions,
      ...s3Env(s3, 's3://unused/definitions', ttl),
      DEFINITIONS_S3: undefined,
      ...auth.env,
      PRIVILEGES: privileges,
    });
  };
  const read = async (roles: string[]) => {
    const token = await auth.token({ roles });
    return invoke({ method: 'GET', path: '/res/Item/1', headers: { authorization: `Bearer ${token}` } });
  };

  beforeAll(async () => {
    auth = await startAuth();
    s3 = await startS3();
    await s3.createBucket(bucket);
  });
  beforeEach(() => s3.put(bucket, 'prod/privileges.properties', '*.select=reader\n'));
  afterAll(async () => {
    forgetPrivileges();
    await useService({
      ...noS3Env,
      ...Object.fromEntries(Object.keys(auth.env).map((k) => [k, undefined])),
      PRIVILEGES: undefined,
    });
    await s3?.stop();
    await auth?.close();
  });

  it('grants what the object says', async () => {
    await serve(3600);
    expect((await read(['reader'])).status).toBe(200);
    expect((await read(['writer'])).status).toBe(403);
  });

  it('keeps the object for DEFINITIONS_TTL_S, then sees a change', async () => {
    await serve(3600);
    expect((await read(['auditor'])).status).toBe(403);
    await s3.put(bucket, 'prod/privileges.properties', '*.select=reader,auditor\n');
    expect((await read(['auditor'])).status).toBe(403);
    await serve(0);
    expect((await read(['auditor'])).status).toBe(200);
    await s3.put(bucket, 'prod/privileges.properties', '*.select=reader\n');
    expect((await read(['auditor'])).status).toBe(403);
    expect((await read(['reader'])).status).toBe(200);
  });

  it('a missing object or a malformed one is a 500 naming it', async () => {
    await serve(0, `s3://${bucket}/prod/absent.properties`);
    const missing = await read(['reader']);
    expect(missing.status).toBe(500);
    expect(missing.body).toMatch(
      /^Privileges file s3:\/\/rrs-privileges\/prod\/absent\.properties cannot be read from S3: NoSuchKey \(HTTP 404\)/,
    );
    await serve(0);
    await s3.put(bucket, 'prod/privileges.properties', '*.select=reader\nnonsense\n');
    const malformed = await read(['reader']);
    expect([malformed.status, malformed.body]).toEqual([
      500,
      `Privileges file ${location}, line 2: expected {resource}.{privilege}={role},{role}...`,
    ]);
  });
});
