/**
 * The sql_mode settings under which the service refuses a MySQL connection: mysql2 writes values into the SQL text
 * (client-side binding, so RDS Proxy never pins a session), escaping a quote with a backslash, and
 * NO_BACKSLASH_ESCAPES makes that backslash a plain character, so a value could end its string and go on as SQL;
 * ANSI_QUOTES (also part of ANSI) makes a double-quoted text a name, which changes what definitions' queries mean.
 * Checked once per new connection, before its first statement (mysql-connection-check). Pure.
 */
import { ConfigurationError } from '../../../errors';

const refused: Readonly<Record<string, string>> = {
  NO_BACKSLASH_ESCAPES: 'a backslash in a value would be a plain character, so a value could be read as SQL',
  ANSI_QUOTES: 'a double-quoted text would be a name, not a text',
};

/** The modes of `sqlMode` (the server's comma-separated list) that the service refuses. */
function refusedModes(sqlMode: string): string[] {
  return sqlMode.split(',').filter((mode) => mode in refused);
}

/** What to tell the operator: which modes, why, and the setting that leaves them out. */
function sqlModeError(sqlMode: string): ConfigurationError {
  const modes = refusedModes(sqlMode);
  const kept = sqlMode
    .split(',')
    .filter((mode) => mode !== '' && !(mode in refused) && mode !== 'ANSI')
    .join(',');
  const why = modes.map((mode) => `${mode}: ${refused[mode]}`).join('; ');
  return new ConfigurationError(
    `The MySQL server runs with sql_mode ${modes.join(' and ')} (${why}): the service refuses to send it any statement. Leave ${modes.length > 1 ? 'them' : 'it'} out of the server's sql_mode, e.g. SET GLOBAL sql_mode = '${kept}' and in the server's configuration`,
  );
}

/** Refuses a session whose sql_mode (`sqlMode`, the server's comma-separated list) reads SQL text differently. */
export function refuseUnsafeSqlMode(sqlMode: string): void {
  if (refusedModes(sqlMode).length > 0) throw sqlModeError(sqlMode);
}
