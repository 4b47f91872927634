/**
 * MySQL's engine record (MySQL, MariaDB, Aurora MySQL, and RDS Proxy for them). Loads no driver: mysql2 comes with
 * connect-mysql.ts, imported when the first MySQL database is opened.
 */
import type { Engine } from '../../engine';
import { defaultPort, label, listOrder, schemes, secretEngines } from './engine.json';
import { mysqlErrors } from './mysql-errors';
import { mysqlFingerprint } from './mysql-fingerprint';
import { mysqlLexer } from './mysql-lexer';
import { MysqlSql } from './mysql-sql';

export const mysqlEngine: Engine = {
  name: 'mysql',
  label,
  listOrder,
  schemes,
  defaultPort,
  secretEngines,
  // RRS_BUNDLE_ENGINE names the one engine of a single-engine bundle (registry.ts): esbuild folds the test where it
  // stands (so each record writes it out), and the import of another engine's driver is left out of the bundle.
  driver: () =>
    process.env.RRS_BUNDLE_ENGINE && process.env.RRS_BUNDLE_ENGINE !== 'mysql'
      ? undefined
      : import('./connect-mysql').then((driver) => driver.connectMysql),
  errors: mysqlErrors,
  sql: new MysqlSql(),
  lexer: mysqlLexer,
  fingerprint: mysqlFingerprint,
  databaseIsSchema: true,
  // for `npm run generate` only: loaded on first use, and left out of a bundle packaged for another engine
  describeSchema: (db, schema) =>
    process.env.RRS_BUNDLE_ENGINE && process.env.RRS_BUNDLE_ENGINE !== 'mysql'
      ? Promise.reject(new Error('This bundle was packaged without MySQL'))
      : import('./mysql-schema').then((module) => module.describeMysqlSchema(db, schema)),
  tableReference: mysqlTableReference,
};

/** describe-mysql finds a declared table by its name as it is (a qualified one split at its last dot). */
function mysqlTableReference(table: string, schema?: string): string {
  return schema === undefined ? table : `${schema}.${table}`;
}
