/**
 * Database URLs made fit for messages, logs and banners: the password never shows. Pure; the URL is
 * never connected to here.
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
