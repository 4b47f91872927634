/**
 * Database URLs as the configuration gives them: parsed with a sentence that names the variable when they do not
 * parse, and with their database part replaced (`DATABASE_URL` serves database X of a definition as X on the same
 * server). Pure.
 */
import { DatabaseError } from '../errors';

export function parseDatabaseUrl(url: string, variable: string): URL {
  try {
    return new URL(url);
  } catch (error) {
    throw new DatabaseError(
      'database_unconfigured',
      `${variable} is not a valid URL (expected postgres://... or mysql://...)`,
      error,
    );
  }
}

/** `url` (from `variable`) with its database part replaced by `database`. */
export function withDatabaseName(url: string, variable: string, database: string): string {
  const parsed = parseDatabaseUrl(url, variable);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}
