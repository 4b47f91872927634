/**
 * The postgres.js options of a PostgreSQL client: its pool, its timeouts, values read as text, and the password of
 * each new connection from its source, with TLS that an IAM login requires. Pure.
 */
import type postgres from 'postgres';
import { ConfigurationError } from '../../../errors';
import type { ConnectOptions } from '../../engine';
import { type PasswordSource, passwordText } from '../../password-source';

/** Every text-like type stays text both ways; the serializers decide how to write it. */
const textOids = [20, 21, 23, 26, 114, 3802, 700, 701, 1082, 1083, 1114, 1184, 1266, 1700, 1186];
const types = { text: { to: 25, from: textOids, serialize: (x: unknown) => String(x), parse: (x: string) => x } };

/**
 * TLS for an IAM login, whose token is a bearer credential for 15 minutes: verified (the server's certificate
 * chains to a CA Node trusts and names the host) unless the URL asks for `sslmode=require` (encrypted, not
 * verified). RDS Proxy's certificates come from Amazon's public CAs, which Node trusts; an RDS instance's need its
 * CA bundle in NODE_EXTRA_CA_CERTS, or `sslmode=require`. A URL that allows a connection without TLS is refused.
 */
function postgresIamTls(url: string): 'require' | 'verify-full' {
  const params = new URL(url).searchParams;
  const mode = params.get('sslmode') ?? params.get('ssl');
  if (mode === null || mode === 'verify-full' || mode === 'verify-ca' || mode === 'true') return 'verify-full';
  if (mode === 'require') return 'require';
  throw new ConfigurationError(
    `DATABASE_IAM_AUTH=true sends the IAM token as the password, so it needs TLS; the database URL has sslmode=${mode}: use sslmode=verify-full (the default) or sslmode=require`,
  );
}

/** The password of each new connection, from the source; with IAM, TLS is required. */
function login(url: string, source?: PasswordSource): Partial<postgres.Options<Record<string, never>>> {
  if (!source) return {};
  return { password: () => passwordText(source), ...(source.kind === 'iam' ? { ssl: postgresIamTls(url) } : {}) };
}

/** Named prepared statements (DB_PREPARE) are kept by postgres.js per text; every text-like type is read as text. */
export function postgresOptions(
  url: string,
  options: ConnectOptions,
  source?: PasswordSource,
): postgres.Options<typeof types> {
  return {
    ...login(url, source),
    max: options.poolSize,
    prepare: options.prepare === true,
    fetch_types: false,
    connect_timeout: options.connectTimeoutMs / 1000,
    idle_timeout: options.idleTimeoutS,
    // TCP keep-alive after 60 s idle, so a pooled connection whose peer is gone is noticed
    keep_alive: 60,
    // Reconnect at once: the default backoff waits up to 20 s after repeated failures, so answers during an
    // outage, and the first request after it, would wait far beyond the connect timeout.
    backoff: false,
    onnotice: () => {},
    connection: { application_name: 'relational-resource-service' },
    types,
  };
}
