/**
 * The database engines the service serves: one record each (lib/db/engine.ts says what a record holds), and the
 * ways to find one. Adding an engine is its folder and its line in `engines` below. Importing this loads no
 * driver: each record imports its own when its first database is opened, and a bundle packaged with
 * --param="engine=NAME" has RRS_BUNDLE_ENGINE defined as NAME by esbuild (scripts/deploy/bundle-define.js), which
 * makes every other record's import of its driver dead code, so that driver is not in the bundle at all. Unbundled
 * (tests, `npm start`) the variable is unset and every driver can load.
 */
import { DatabaseError } from '../../errors';
import type { EngineName } from '../../resource';
import type { SqlShape } from '../../sql-shape';
import type { Engine } from '../engine';
import { mysqlEngine } from './mysql/mysql-engine';
import { postgresEngine } from './postgres/postgres-engine';

const engines = { postgres: postgresEngine, mysql: mysqlEngine };

// The engines' names are the keys above: EngineName (lib/resource.ts) is declared by them, so that adding an
// engine touches no shared file.
declare module '../../resource' {
  interface EngineNames extends Record<keyof typeof engines, true> {}
}

/** Every engine, in the order messages list them. */
export const engineList: readonly Engine[] = Object.values(engines).sort((a, b) => a.listOrder - b.listOrder);

export function engineNamed(name: EngineName): Engine {
  return engines[name];
}

/** The SQL shape of an engine: what lib/execute compiles its statements with. */
export function sqlShapeOf(name: EngineName): SqlShape {
  return engines[name].sql;
}

/** The engine of a database URL, by its scheme; a configuration error for a scheme no engine has. */
export function engineOfUrl(url: string): Engine {
  const colon = url.indexOf(':');
  const scheme = colon < 0 ? '' : url.slice(0, colon).toLowerCase();
  const engine = engineList.find((e) => e.schemes.includes(scheme));
  if (engine) return engine;
  throw new DatabaseError(
    'database_unconfigured',
    `Database URL scheme "${scheme}:" is not supported; use ${engineList.map((e) => `${e.schemes[0]}://`).join(' or ')}`,
  );
}

/** The engine an RDS secret's `engine` field names, if any. */
export function engineOfSecret(secretEngine: string): Engine | undefined {
  return engineList.find((e) => e.secretEngines.includes(secretEngine));
}
