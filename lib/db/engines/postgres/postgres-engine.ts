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
  // for `npm run generate` only: loaded on first use, and left out of a bundle packaged for another engine
  describeSchema: (db, schema) =>
    process.env.RRS_BUNDLE_ENGINE && process.env.RRS_BUNDLE_ENGINE !== 'postgres'
      ? Promise.reject(new Error('This bundle was packaged without PostgreSQL'))
      : import('./postgres-schema').then((module) => module.describePostgresSchema(db, schema)),
  tableReference: postgresTableReference,
};

/**
 * The service finds a declared table with to_regclass, which reads it as SQL: a name other than a plain lower-case
 * one keeps its case and characters only in double quotes.
 */
function postgresTableReference(table: string, schema?: string): string {
  const part = (name: string) => (/^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`);
  return schema === undefined ? part(table) : `${part(schema)}.${part(table)}`;
}
