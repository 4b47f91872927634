/**
 * RDS IAM authentication tokens (@aws-sdk/rds-signer): a token is a SigV4-presigned request, signed locally with
 * the role's credentials (no network on Lambda), valid 15 minutes, that the database (or RDS Proxy) takes as the
 * password of one login. It loads the AWS SDK's signer, so only iam-source.ts requires it, and only when
 * DATABASE_IAM_AUTH=true. Failures name the user and server, never a token.
 */
import { Signer } from '@aws-sdk/rds-signer';
import { DatabaseError } from '../errors';
import { engineOfUrl } from './engines/registry';
import { serverOf } from './mask-url';

/** Signs a fresh token for the URL's user, host and port each time it is called. */
export function iamTokenSigner(url: string, region: string): () => Promise<string> {
  const u = new URL(url);
  const username = decodeURIComponent(u.username);
  const signer = new Signer({
    hostname: u.hostname,
    port: Number(u.port) || engineOfUrl(url).defaultPort,
    username,
    region,
  });
  return async () => {
    try {
      return await signer.getAuthToken();
    } catch (error) {
      const { name, message } = error as { name?: unknown; message?: unknown };
      const what = [name, message].filter((part) => typeof part === 'string' && part).join(': ') || String(error);
      // unreachable, not unconfigured: without a token the database cannot be reached, and resolve-resource reads
      // database_unconfigured from a catalog probe as a database that does not exist
      throw new DatabaseError(
        'database_unreachable',
        `Signing an IAM authentication token for user ${username} at ${serverOf(url)} (DATABASE_IAM_AUTH=true, region ${region}) failed: ${what}`,
        error,
      );
    }
  };
}
