/**
 * The names of the service's own tables in a database with change events: the outbox and the drains' lease (each
 * engine's SQL shape creates them: eventTables). They are never a resource's tables: `npm run generate` leaves them
 * out.
 */
export const outboxTable = 'rrs_events';
export const drainsTable = 'rrs_event_drains';
export const serviceTables: readonly string[] = [outboxTable, drainsTable];
