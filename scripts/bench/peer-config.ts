/**
 * The configuration bench:peer starts Platformatic DB with, written to a folder of its own in the temporary folder:
 * the database, a pool of `poolSize` connections (the service's DB_POOL_SIZE), its REST API only (no GraphQL, no
 * events, no generated types, no migrations), no authorization, on 127.0.0.1:`port`, its logger at `logLevel`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface PeerSettings {
  readonly url: string;
  readonly port: number;
  readonly poolSize: number;
  /** pino's level: at `info` Fastify logs two lines per request (incoming, completed); at `warn` none. */
  readonly logLevel: 'info' | 'warn';
  readonly version: string;
}

/** Writes platformatic.json and returns its path. */
export function writePeerConfig(settings: PeerSettings): string {
  const config = {
    $schema: `https://schemas.platformatic.dev/@platformatic/db/${settings.version}.json`,
    server: { hostname: '127.0.0.1', port: settings.port, logger: { level: settings.logLevel } },
    db: {
      connectionString: settings.url,
      poolSize: settings.poolSize,
      openapi: true,
      graphql: false,
      events: false,
    },
    types: { autogenerate: false },
  };
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'rrs-bench-peer-')), 'platformatic.json');
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}
