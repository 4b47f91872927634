/**
 * A new S3 client, as the S3 definitions source and the S3 privileges file use one: each keeps its own while the
 * container is warm. Credentials are the AWS SDK's own (the Lambda role). Timeouts keep a stuck S3 well under API
 * Gateway's 29-30 s. Only modules that are themselves loaded when S3 is configured may import this one: it loads
 * the AWS SDK.
 */
import { S3Client } from '@aws-sdk/client-s3';

export function createS3Client(region: string, endpoint?: string): S3Client {
  return new S3Client({
    region,
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 3000, requestTimeout: 10000 },
  });
}
