/**
 * Database URLs and drivers' messages made fit for messages, logs and banners: the password never shows, and
 * maskAddresses hides where a server is. Pure; the URL is never connected to here.
 */

import { decodeLenient } from '../text';

/** Query parameters that may carry a secret (`?password=...`, `?sslkey=...`). */
const SECRET_PARAM = /pass|secret|token|key/i;

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** The URL with its password (and any secret-looking query parameter) replaced by `***`. */
export function maskUrl(url: string): string {
  const parsed = parse(url);
  if (!parsed) return '(a URL that does not parse)';
  if (parsed.password) parsed.password = '***';
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, '***');
  }
  return parsed.toString();
}

/** Only where the server is, `host:port`: what a message may say of a URL (no user, password or database). */
export function serverOf(url: string): string {
  return parse(url)?.host || '(a URL that does not parse)';
}

/** The database part of the URL, decoded (empty when it has none). */
export function databaseOf(url: string): string {
  return decodeLenient(parse(url)?.pathname.replace(/^\//, '') ?? '');
}

/**
 * Where a server is, as drivers print it: IPv4 and IPv6 addresses with a port (`ECONNREFUSED 10.0.0.5:5432`,
 * `'ro'@'::1'`), and DNS names (`ENOTFOUND db.cluster-ro-x.eu-west-1.rds.amazonaws.com`), which with
 * DATABASE_SECRET_ARN come from the secret, not from a URL the service knows. For a driver's own text only: a
 * dotted name of the service's (`bookstore.Author`) looks like a DNS name too.
 */
const addresses = [
  /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g,
  /\[?(?:[0-9a-f]{0,4}:){2,}[0-9a-f]{0,4}\]?(?::\d+)?/gi,
  /\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?::\d+)?\b/gi,
];

/** A driver's message with every address and host name in it replaced by `***`. */
export function maskAddresses(text: string): string {
  let masked = text;
  for (const pattern of addresses) masked = masked.replace(pattern, '***');
  return masked;
}
