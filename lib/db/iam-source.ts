/**
 * Passwords that are RDS IAM authentication tokens (DATABASE_IAM_AUTH=true): a token signed for each new
 * connection, for the URL's user, host and port (iam-token.ts, which loads the AWS SDK's signer: required here, on
 * the first password only). A token that cannot be signed is returned as its failure.
 */
import type { Password, PasswordSource } from './password-source';

export function iamSource(url: string, region: string): PasswordSource {
  let sign: (() => Promise<string>) | undefined;
  return {
    kind: 'iam',
    async password(): Promise<Password> {
      try {
        sign ??= (require('./iam-token') as typeof import('./iam-token')).iamTokenSigner(url, region);
        return { ok: true, text: await sign() };
      } catch (error) {
        // iam-token words its failures as DatabaseErrors; the signer's module missing is said as it is
        return { ok: false, failure: error instanceof Error ? error : new Error(String(error)) };
      }
    },
    version: async () => 0,
    // a token is signed for each new connection: a refused one is not fixed by signing another
    renew: async () => false,
  };
}
