/**
 * PostgreSQL's engine record (and PGlite over the wire, and RDS Proxy for PostgreSQL). Loads no driver: postgres.js
 * comes with connect-postgres.ts, imported when the first PostgreSQL database is opened.
 */
import type { Engine } from '../../engine';
import { defaultPort, label, listOrder, schemes, secretEngines } from './engine.json';
import { postgresErrors } from './postgres-errors';
import { postgresFingerprint } from './postgres-fingerprint';
import { postgresLexer } from './postgres-lexer';
import { PostgresSql } from './postgres-sql';

export const postgresEngine: Engine = {
  name: 'postgres',
  label,
  listOrder,
  schemes,
  defaultPort,
  secretEngines,
  // A bundle packaged for one engine has RRS_BUNDLE_ENGINE defined as its name (registry.ts): esbuild folds this
  // test, and the import of another engine's driver is dead code, left out of the bundle.
  driver: () =>
    process.env.RRS_BUNDLE_ENGINE && process.env.RRS_BUNDLE_ENGINE !== 'postgres'
      ? undefined
      : import('./connect-postgres').then((driver) => driver.connectPostgres),
  errors: postgresErrors,
  sql: new PostgresSql(),
  lexer: postgresLexer,
  fingerprint: postgresFingerprint,
  databaseIsSchema: false,
};
