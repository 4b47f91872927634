/**
 * Definitions from S3: with DEFINITIONS_S3=s3://bucket/prefix, `a.b.Name` is the object `prefix/a/b/Name.xml`
 * and the 404 names that s3:// location. The version is the object's ETag, so revalidation is one conditional
 * GET that answers 304 while nothing changed. S3 IO only. Nothing may import this module at load time:
 * resolve-resource.ts requires it only when DEFINITIONS_S3 is set, which keeps the AWS SDK out of the start-up
 * path of folder-based deployments.
 */
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { DefinitionError, DefinitionsUnreachableError } from '../errors';
import { createS3Client } from '../s3-client';
import { snapshotFileName } from './catalog-snapshot';
import type { DefinitionSource, StoredDefinition } from './definition-source';
import { locateDefinition, nameOfLocation, resourceNotFound } from './locate-definition';

interface S3Root {
  readonly bucket: string;
  /** The key prefix without slashes at either end; empty for the whole bucket. */
  readonly prefix: string;
  /** `s3://bucket/prefix`, or `s3://bucket` without a prefix. */
  readonly root: string;
}

interface S3Failure {
  readonly name?: string;
  readonly message?: string;
  readonly code?: string;
  readonly $metadata?: { readonly httpStatusCode?: number };
}

/** One closure, one function: the source's methods share its client, bucket and prefix. */
export function s3Source(uri: string, region: string, endpoint?: string): DefinitionSource {
  const { bucket, prefix, root } = parseS3Uri(uri);
  const client = createS3Client(region, endpoint);
  const keyOf = (location: string) => location.slice(`s3://${bucket}/`.length);
  const get = async (name: string, location: string, ifNoneMatch?: string): Promise<StoredDefinition> => {
    const command = new GetObjectCommand({ Bucket: bucket, Key: keyOf(location), IfNoneMatch: ifNoneMatch });
    const object = await client.send(command);
    const xml = (await object.Body?.transformToString('utf8')) ?? '';
    return { name, location, xml, version: object.ETag ?? '' };
  };
  return {
    root,
    async read(name) {
      const { file, expected } = locateDefinition(name, root);
      if (!file) throw resourceNotFound(name, expected);
      try {
        return await get(name, file);
      } catch (error) {
        if (isMissing(error)) throw resourceNotFound(name, expected);
        throw s3Failure(file, error);
      }
    },
    async revalidate(known) {
      try {
        return await get(known.name, known.location, known.version || undefined);
      } catch (error) {
        if (statusOf(error) === 304 || (error as S3Failure).name === 'NotModified') return 'unchanged';
        if (isMissing(error)) return null;
        throw s3Failure(known.location, error);
      }
    },
    list: () => listNames(client, { bucket, prefix, root }),
    async readSnapshot() {
      const location = `${root}/${snapshotFileName}`;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(location) }));
        return { location, text: (await object.Body?.transformToString('utf8')) ?? '' };
      } catch (error) {
        if (isMissing(error)) return null;
        throw s3Failure(location, error);
      }
    },
    async writeSnapshot(text) {
      const location = `${root}/${snapshotFileName}`;
      const put = new PutObjectCommand({
        Bucket: bucket,
        Key: keyOf(location),
        Body: text,
        ContentType: 'application/json',
      });
      await client.send(put).catch((error: unknown) => {
        throw s3Failure(location, error);
      });
      return location;
    },
  };
}

/** `s3://bucket`, `s3://bucket/`, `s3://bucket/a/b/`: anything else is a configuration error, named as such. */
function parseS3Uri(uri: string): S3Root {
  const match = /^s3:\/\/([^/]+)\/*(.*?)\/*$/.exec(uri);
  if (!match) throw new DefinitionError(uri, 'DEFINITIONS_S3 must be s3://bucket or s3://bucket/prefix');
  const [, bucket = '', prefix = ''] = match;
  return { bucket, prefix, root: prefix ? `s3://${bucket}/${prefix}` : `s3://${bucket}` };
}

async function listNames(client: S3Client, { bucket, prefix, root }: S3Root): Promise<string[]> {
  const names: string[] = [];
  let token: string | undefined;
  do {
    const command = new ListObjectsV2Command({
      Bucket: bucket,
      Prefix: prefix ? `${prefix}/` : undefined,
      ContinuationToken: token,
    });
    const page = await client.send(command).catch((error: unknown) => {
      throw s3Failure(`${root}/`, error);
    });
    for (const object of page.Contents ?? []) {
      const name = nameOfLocation(`s3://${bucket}/${object.Key ?? ''}`, root);
      if (name !== null) names.push(name);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return names.sort();
}

function statusOf(error: unknown): number | undefined {
  return (error as S3Failure | undefined)?.$metadata?.httpStatusCode;
}

/**
 * No such object: the unknown-resource 404. A missing bucket is also a 404 from S3, but it is a deployment
 * fault: the 500.
 */
function isMissing(error: unknown): boolean {
  const name = (error as S3Failure | undefined)?.name;
  return name === 'NoSuchKey' || (statusOf(error) === 404 && name !== 'NoSuchBucket');
}

/** Access denied, a missing bucket, a network failure: a 500 naming the s3:// location and what S3 said. */
function s3Failure(location: string, error: unknown): DefinitionsUnreachableError {
  const failure = (error ?? {}) as S3Failure;
  const kind = failure.name === 'Error' || !failure.name ? (failure.code ?? 'Error') : failure.name;
  const status = statusOf(error);
  const detail = `${kind}${status ? ` (HTTP ${status})` : ''}: ${failure.message || String(error)}`;
  return new DefinitionsUnreachableError(location, detail, error);
}
