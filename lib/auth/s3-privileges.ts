/**
 * Reads the privileges file from S3 (PRIVILEGES=s3://bucket/key): a conditional GET on the object's ETag, so an
 * unchanged file costs a 304. Loaded by privileges-store.ts only when the file is in S3, which keeps the AWS SDK
 * out of every other start-up. S3 IO only.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { createS3Client } from '../s3-client';
import { PrivilegesError } from './parse-privileges';
import type { PrivilegesReader, PrivilegesText } from './privileges-reader';

interface S3Failure {
  readonly name?: string;
  readonly message?: string;
  readonly $metadata?: { readonly httpStatusCode?: number };
}

export function s3PrivilegesReader(location: string, region: string, endpoint?: string): PrivilegesReader {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(location);
  if (!match) throw new PrivilegesError(`PRIVILEGES must be a path or s3://bucket/key, got "${location}"`);
  const [, bucket, key] = match;
  const client = createS3Client(region, endpoint);
  const fetch = async (known?: string): Promise<PrivilegesText | 'unchanged'> => {
    try {
      const command = new GetObjectCommand({ Bucket: bucket, Key: key, IfNoneMatch: known });
      const object = await client.send(command);
      return { text: (await object.Body?.transformToString('utf8')) ?? '', version: object.ETag ?? '' };
    } catch (error) {
      const failure = (error ?? {}) as S3Failure;
      const status = failure.$metadata?.httpStatusCode;
      if (known && (status === 304 || failure.name === 'NotModified')) return 'unchanged';
      const detail = `${failure.name ?? 'Error'}${status ? ` (HTTP ${status})` : ''}: ${failure.message ?? String(error)}`;
      throw new PrivilegesError(`Privileges file ${location} cannot be read from S3: ${detail}`, error);
    }
  };
  return { read: () => fetch() as Promise<PrivilegesText>, revalidate: fetch };
}
