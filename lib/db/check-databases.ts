/**
 * The database half of the health check: one `SELECT 1` on every configured database, at once, each bounded by
 * DB_CONNECT_TIMEOUT_MS. Says how long each took, or why it failed, naming each database only by its variable:
 * the failure text never holds a host name, an address, a password or the SQL. Must not throw for a database
 * that fails: that is its answer.
 */
import type { Config } from '../config';
import { DatabaseError, toServiceError } from '../errors';
import type { Database } from './database';
import { maskAddresses } from './mask-url';
import { configuredDatabases } from './select-database';

export type DatabaseCheck =
  | { readonly name: string; readonly status: 'ok'; readonly ms: number }
  | { readonly name: string; readonly status: 'failed'; readonly error: string };

/** The error's sentence without the statement that was to run, the URL's host or password, or any address. */
export function healthFailureText(error: unknown, url?: string): string {
  const message = toServiceError(error).message;
  const cut = message.lastIndexOf(' :: ');
  let text = cut < 0 ? message : message.slice(0, cut);
  const secrets = url ? secretsOf(url) : [];
  for (const secret of secrets) text = text.split(secret).join('***');
  return maskAddresses(text);
}

function secretsOf(url: string): string[] {
  try {
    const { hostname, password } = new URL(url);
    return [hostname, decodeURIComponent(password), password].filter((s) => s.length > 0);
  } catch {
    return [];
  }
}

async function checkOne(
  variable: string,
  url: string | undefined,
  open: () => Promise<Database>,
  timeoutMs: number,
): Promise<DatabaseCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new DatabaseError('database_unreachable', `No answer within ${timeoutMs} ms (DB_CONNECT_TIMEOUT_MS)`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([open().then((db) => db.run({ text: 'SELECT 1', params: [] })), deadline]);
    return { name: variable, status: 'ok', ms: Math.round((performance.now() - started) * 10) / 10 };
  } catch (error) {
    return { name: variable, status: 'failed', error: healthFailureText(error, url) };
  } finally {
    clearTimeout(timer);
  }
}

/** Every configured database's check, in configuration order (DATABASE_URL first, readers last). */
export function checkDatabases(config: Config): Promise<DatabaseCheck[]> {
  return Promise.all(
    configuredDatabases(config).map(({ variable, url, open }) =>
      checkOne(variable, url, open, config.connectTimeoutMs),
    ),
  );
}
