/**
 * Passwords kept in a Secrets Manager secret (DATABASE_SECRET_ARN): the RDS secret JSON, fetched on first use
 * (fetch-secret.ts, which loads the AWS SDK's client: required here, on the first fetch only) and cached for the
 * life of the container, fetched again when the database refuses the password (a rotated secret). Every database
 * of the same secret shares its cache entry.
 */
import { createCache } from '../cache';
import type { PasswordSource } from './password-source';
import { parseSecretLogin, type SecretLogin } from './secret-login';

/** A secret as fetched, and how many times it has been: each fetch may bring another password. */
interface FetchedSecret {
  readonly login: SecretLogin;
  readonly version: number;
}

let fetchModule: typeof import('./fetch-secret') | undefined;

const secrets = createCache<string, FetchedSecret>({
  // kept for the life of the container: only a refused password makes it stale, and renew() fetches it again
  ttlMs: Number.POSITIVE_INFINITY,
  staleWhileRevalidate: false,
  // one secret per deployment; a few more in tests
  max: 16,
  // a secret that cannot be fetched again leaves the one at hand, whose password a pooled connection may still use
  keepWhenReloadFails: true,
  load: async (arn, stale) => {
    fetchModule ??= require('./fetch-secret') as typeof import('./fetch-secret');
    return { login: parseSecretLogin(arn, await fetchModule.fetchSecret(arn)), version: (stale?.version ?? 0) + 1 };
  },
});

/** The secret's login: fetched on first use, and shared; a failed fetch is not kept, so the next one fetches again. */
export async function secretLogin(arn: string): Promise<SecretLogin> {
  return (await secrets.get(arn)).login;
}

export function secretSource(arn: string): PasswordSource {
  return {
    kind: 'secret',
    arn,
    // fetched before any client of it exists (secretLogin), and kept when a fetch again fails
    password: async () => ({ ok: true, text: (await secrets.get(arn)).login.password }),
    version: async () => (await secrets.get(arn)).version,
    async renew(version) {
      const current = await secrets.get(arn);
      if (current.version !== version) return true;
      return (await secrets.refresh(arn)).login.password !== current.login.password;
    },
  };
}

/** Forgets the fetched secrets and the Secrets Manager clients (tests; closeDatabases). */
export function forgetSecrets(): void {
  secrets.clear();
  fetchModule?.forgetSecretsClients();
}
