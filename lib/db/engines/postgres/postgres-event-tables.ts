/**
 * The change events' tables on PostgreSQL (docs/events.md shows them): the outbox, which a write with events adds
 * its events to in its own transaction, and the drains' lease, which lets one drain at a time publish a database's
 * events, so that they go out in order. Times are milliseconds since the epoch, as the service's clock gives them.
 * Every statement can run again (`npm run events:setup` is safe to repeat).
 */
export const postgresEventTables: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS rrs_events (
  seq bigserial PRIMARY KEY,
  id varchar(64) NOT NULL UNIQUE,
  ordering_key varchar(2000) NOT NULL,
  event text NOT NULL,
  created_at bigint NOT NULL,
  state varchar(16) NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at bigint NOT NULL,
  last_error varchar(1000)
)`,
  'CREATE INDEX IF NOT EXISTS rrs_events_state ON rrs_events (state, seq)',
  `CREATE TABLE IF NOT EXISTS rrs_event_drains (
  name varchar(64) PRIMARY KEY,
  holder varchar(64),
  until_ms bigint NOT NULL DEFAULT 0
)`,
  `INSERT INTO rrs_event_drains (name) VALUES ('drain') ON CONFLICT DO NOTHING`,
];
