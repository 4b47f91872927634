/**
 * Database URLs made fit for messages, logs and banners: the password never shows (D21). Pure; the URL is
 * never connected to here.
 */

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

/** Only the server of the URL: `postgres://user@host:5432`, without password, database or parameters. */
export function maskServer(url: string): string {
  const parsed = parse(url);
  if (!parsed) return '(a URL that does not parse)';
  const user = parsed.username ? `${parsed.username}${parsed.password ? ':***' : ''}@` : '';
  return `${parsed.protocol}//${user}${parsed.host}`;
}

/** The database part of the URL, decoded (empty when it has none). */
export function databaseOf(url: string): string {
  const raw = parse(url)?.pathname.replace(/^\//, '') ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // a stray % that is no escape: the name as written
  }
}
