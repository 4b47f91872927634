/**
 * How a MySQL-family server reads back the rows of one multi-row INSERT. The server is asked (serverInsertsQuery),
 * since the same SQL shape serves MariaDB 10.5+ (INSERT ... RETURNING) and MySQL (none); without RETURNING, the insert id of the first row plus the row's position times
 * @@auto_increment_increment names each row only when @@innodb_autoinc_lock_mode gives one INSERT consecutive ids
 * (0 "traditional" and 1 "consecutive" do; 2 "interleaved", MySQL 8's default, does not). Pure.
 */
import type { ServerInserts } from '../../../sql-shape';
import type { Value } from '../../../values';

/** Reads variables only: nothing that would pin an RDS Proxy session. */
export const serverInsertsQuery = {
  text: 'SELECT VERSION() AS version, @@innodb_autoinc_lock_mode AS lock_mode, @@auto_increment_increment AS step',
  params: [],
} as const;

/** What the answer to serverInsertsQuery says. */
export function readServerInserts(row: Readonly<Record<string, Value>> | undefined): ServerInserts {
  if (mariadbSince(String(row?.version ?? ''), 10, 5)) return { returning: true };
  const lockMode = Number(row?.lock_mode ?? Number.NaN);
  const step = Number(row?.step ?? Number.NaN);
  const consecutive = (lockMode === 0 || lockMode === 1) && Number.isInteger(step) && step >= 1;
  return consecutive ? { returning: false, idStep: step } : { returning: false };
}

/** The server's VERSION() names MariaDB `major`.`minor` or later. */
export function mariadbSince(version: string, major: number, minor: number): boolean {
  const [is = 0, isMinor = 0] = (/^(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
  return /mariadb/i.test(version) && (is > major || (is === major && isMinor >= minor));
}
