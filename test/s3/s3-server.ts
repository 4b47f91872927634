/**
 * A real S3-compatible server for the S3 definitions tests: s3rver, in process, on 127.0.0.1 at a free port, storing
 * in a temporary folder that is removed on stop. Also a client to put and delete objects as a deploy would, and the
 * service environment that points the S3 source at it. Only loopback traffic; nothing here is mocked.
 */
import crypto from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's built-in account. */
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3 {
  readonly endpoint: string;
  createBucket(bucket: string): Promise<void>;
  put(bucket: string, key: string, body: string): Promise<void>;
  remove(bucket: string, key: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startS3(): Promise<TestS3> {
  const restoreDes = shimSingleDes();
  const directory = mkdtempSync(path.join(tmpdir(), 'rrs-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials,
    // s3rver predates the SDK's default CRC32 checksums (sent as aws-chunked trailers)
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    createBucket: async (bucket) => void (await client.send(new CreateBucketCommand({ Bucket: bucket }))),
    put: async (bucket, key, body) =>
      void (await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }))),
    remove: async (bucket, key) => void (await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))),
    stop: async () => {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
      restoreDes();
    },
  };
}

/**
 * s3rver 3.7.1 encrypts ListObjectsV2 continuation tokens with single DES, which OpenSSL 3 (Node >= 17) no longer
 * offers, so every truncated listing fails with InternalError. Triple DES with three equal keys is single DES, so
 * this maps one onto the other while the server runs; every other algorithm passes through untouched.
 */
function shimSingleDes(): () => void {
  const { createCipheriv, createDecipheriv } = crypto;
  const des = (algorithm: string, key: crypto.CipherKey): [string, crypto.CipherKey] =>
    algorithm === 'des' && Buffer.isBuffer(key) ? ['des-ede3-cbc', Buffer.concat([key, key, key])] : [algorithm, key];
  const cipher = (algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null) =>
    createCipheriv(...des(algorithm, key), iv);
  const decipher = (algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null) =>
    createDecipheriv(...des(algorithm, key), iv);
  Object.assign(crypto, { createCipheriv: cipher, createDecipheriv: decipher });
  return () => Object.assign(crypto, { createCipheriv, createDecipheriv });
}

/** The environment useService() needs to serve definitions from `s3://bucket/prefix` on this server. */
export function s3Env(s3: Pick<TestS3, 'endpoint'>, uri: string, ttlSeconds: number): Record<string, string> {
  return {
    DEFINITIONS_S3: uri,
    S3_ENDPOINT: s3.endpoint,
    DEFINITIONS_TTL_S: String(ttlSeconds),
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_REGION: 'us-east-1',
  };
}

/** Puts the environment back as the other test files expect it. */
export const noS3Env: Record<string, undefined> = {
  DEFINITIONS_S3: undefined,
  S3_ENDPOINT: undefined,
  DEFINITIONS_TTL_S: undefined,
  AWS_ACCESS_KEY_ID: undefined,
  AWS_SECRET_ACCESS_KEY: undefined,
  AWS_REGION: undefined,
};

/** Every file under `dir`, as [relative key with slashes, content]. */
export function filesUnder(dir: string): [string, string][] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return [path.relative(dir, file).split(path.sep).join('/'), readFileSync(file, 'utf8')];
    });
}

/** A loopback port nobody listens on: an S3 endpoint that refuses connections. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
