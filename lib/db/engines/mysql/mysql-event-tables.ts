/**
 * The change events' tables on MySQL and MariaDB (docs/events.md shows them): the outbox, which a write with events
 * adds its events to in its own transaction, and the drains' lease, which lets one drain at a time publish a
 * database's events, so that they go out in order. Times are milliseconds since the epoch, as the service's clock
 * gives them. An event may be long (a row before and after): LONGTEXT. Every statement can run again.
 */
export const mysqlEventTables: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS rrs_events (
  seq bigint NOT NULL AUTO_INCREMENT PRIMARY KEY,
  id varchar(64) NOT NULL UNIQUE,
  ordering_key varchar(2000) NOT NULL,
  event longtext NOT NULL,
  created_at bigint NOT NULL,
  state varchar(16) NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at bigint NOT NULL,
  last_error varchar(1000),
  KEY rrs_events_state (state, seq)
) CHARACTER SET utf8mb4`,
  `CREATE TABLE IF NOT EXISTS rrs_event_drains (
  name varchar(64) NOT NULL PRIMARY KEY,
  holder varchar(64),
  until_ms bigint NOT NULL DEFAULT 0
) CHARACTER SET utf8mb4`,
  `INSERT IGNORE INTO rrs_event_drains (name) VALUES ('drain')`,
];
