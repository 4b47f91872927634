/**
 * The pool options of a MySQL URL for mysql2: `mysql://user:password@host:port/database?ssl=...`, TLS as the URL
 * asks (and always with IAM authentication), values as the service reads them (decimals, bigints and dates as
 * strings, tinyint(1) as a boolean), and the pool's size, idle and connect timeouts. Pure.
 */
import type mysql from 'mysql2/promise';
import { ConfigurationError } from '../../../errors';
import type { ConnectOptions } from '../../engine';
import { type PasswordSource, passwordText } from '../../password-source';

const typeCast: mysql.TypeCast = (field, next) => {
  if (field.type === 'TINY' && field.length === 1) {
    const text = field.string();
    return text === null ? null : text !== '0';
  }
  return next();
};

/**
 * `?ssl=true`: TLS verified against the CAs Node trusts; `?ssl=Amazon RDS`: verified against the RDS and RDS Proxy
 * CAs (mysql2's profile); `?ssl=require`: encrypted, not verified.
 */
function tlsOf(ssl: string | null): mysql.PoolOptions['ssl'] {
  if (ssl === 'Amazon RDS') return 'Amazon RDS';
  if (ssl === 'require') return { rejectUnauthorized: false };
  return ssl && ssl !== 'false' ? {} : undefined;
}

/**
 * An IAM token is a bearer credential for 15 minutes, sent in clear (mysql_clear_password): TLS is required, by
 * default verified against the RDS and RDS Proxy CAs. A URL that turns TLS off is refused.
 */
function iamTlsOf(ssl: string | null): mysql.PoolOptions['ssl'] {
  if (ssl === 'false') {
    throw new ConfigurationError(
      'DATABASE_IAM_AUTH=true sends the IAM token as the password, so it needs TLS; the database URL has ssl=false: leave it out (TLS verified against the RDS CAs), or use ssl=true or ssl=require',
    );
  }
  return tlsOf(ssl ?? 'Amazon RDS');
}

/**
 * With IAM, RDS asks for the password in clear (the mysql_clear_password plugin) on each login: the plugin answers
 * with a token signed for that connection. mysql2 calls it only when the server asks, and reports its failure as
 * the connection's error.
 */
function iamPlugins(source: PasswordSource): mysql.PoolOptions['authPlugins'] {
  return { mysql_clear_password: () => async () => Buffer.from(`${await passwordText(source)}\0`) };
}

/** `mysql://user:password@host:port/database?ssl=true`; the password is URL-decoded. */
export function mysqlOptions(url: string, options: ConnectOptions, source?: PasswordSource): mysql.PoolOptions {
  const u = new URL(url);
  const ssl = u.searchParams.get('ssl');
  const tls = source?.kind === 'iam' ? iamTlsOf(ssl) : tlsOf(ssl);
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 3306,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)) || undefined,
    connectionLimit: options.poolSize,
    // mysql2 closes connections unused for idleTimeout only when maxIdle is below the limit, and then also closes
    // free connections beyond maxIdle at once: one below the limit only trims a pool whose every connection is
    // free (a pool of one keeps its connection)
    maxIdle: Math.max(1, options.poolSize - 1),
    idleTimeout: options.idleTimeoutS * 1000,
    connectTimeout: options.connectTimeoutMs,
    // TCP keep-alive after 60 s idle, so a pooled connection whose peer is gone is noticed
    enableKeepAlive: true,
    keepAliveInitialDelay: 60_000,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    decimalNumbers: false,
    typeCast,
    charset: 'utf8mb4',
    // mysql2's promise calls capture the caller's stack on every call, for an error's stack: the service classifies
    // the driver's errors into its own and never shows their stacks, so that cost (~10-30 µs a call) buys nothing
    trace: false,
    ...(tls ? { ssl: tls } : {}),
    ...(source?.kind === 'iam' ? { authPlugins: iamPlugins(source) } : {}),
  };
}
