/**
 * PostgreSQL's engine record (and PGlite over the wire, and RDS Proxy for PostgreSQL). Loads no driver: postgres.js
 * comes with connect-postgres.ts, imported when the first PostgreSQL database is opened.
 */
import type { Engine } from '../../engine';
import { defaultPort, label, listOrder, schemes, secretEngines } from './engine.json';
import { postgresErrors } from './postgres-errors';
import { postgresFingerprint } from './postgres-fingerprint';
import { postgresLexer } from './postgres-lexer';
import { describePostgresSchema, postgresTableReference } from './postgres-schema';
import { PostgresSql } from './postgres-sql';

export const postgresEngine: Engine = {
  name: 'postgres',
  label,
  listOrder,
  schemes,
  defaultPort,
  secretEngines,
  // RRS_BUNDLE_ENGINE names the one engine of a single-engine bundle (registry.ts): esbuild folds the test where it
  // stands (so each record writes it out), and the import of another engine's driver is left out of the bundle.
  driver: () =>
    process.env.RRS_BUNDLE_ENGINE && process.env.RRS_BUNDLE_ENGINE !== 'postgres'
      ? undefined
      : import('./connect-postgres').then((driver) => driver.connectPostgres),
  errors: postgresErrors,
  sql: new PostgresSql(),
  lexer: postgresLexer,
  fingerprint: postgresFingerprint,
  databaseIsSchema: false,
  describeSchema: describePostgresSchema,
  tableReference: postgresTableReference,
};
