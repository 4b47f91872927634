/**
 * `npm run serve`: the server mode, for teams that run containers. The same handlers as on Lambda, served by a
 * long-running node:http server (lib/server) on PORT (default 3000) and HOST (default 0.0.0.0), configured by the
 * same variables (DATABASE_URL, DATABASE_URL_<NAME>, DEFINITIONS_DIR, AUTH_*, MAX_BODY_BYTES, DB_POOL_SIZE...).
 * One process serves many requests at once, so its pools hold DB_POOL_SIZE connections per database (5 by
 * default outside Lambda). It talks to the database directly, so it prepares PostgreSQL statements (DB_PREPARE,
 * default true here; set it to false behind RDS Proxy, where they pin connections). SIGTERM or SIGINT stops it
 * gracefully: no new connections, the requests in flight finish (at most SHUTDOWN_GRACE_MS, default 25 s), the
 * database pools close, and it exits 0. Starts no database.
 */
import { config } from '../lib/config';
import { closeDatabases } from '../lib/db/select-database';
import { createServiceServer } from '../lib/server/create-server';
import { functions } from '../lib/server/functions';

function readPort(raw: string | undefined): number {
  const port = Number(raw || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${raw}"`);
  return port;
}

function readGrace(raw: string | undefined): number {
  const grace = Number(raw || 25_000);
  if (!Number.isInteger(grace) || grace < 0) throw new Error(`SHUTDOWN_GRACE_MS must be milliseconds, got "${raw}"`);
  return grace;
}

async function main(): Promise<void> {
  const port = readPort(process.env.PORT);
  const host = process.env.HOST || '0.0.0.0';
  const grace = readGrace(process.env.SHUTDOWN_GRACE_MS);
  // before the configuration is read: the server mode's own default (lib/config leaves it unset on Lambda)
  process.env.DB_PREPARE ||= 'true';
  // a setting the handlers could not use (half-configured sign-in, a bad number) stops the server before it listens
  const settings = config();
  const service = createServiceServer({ maxBodyBytes: settings.maxBodyBytes, functions });
  await new Promise<void>((resolve, reject) => {
    service.server.once('error', reject);
    service.server.listen(port, host, resolve);
  });
  const address = service.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  console.log(
    `Relational Resource Service listening on http://${host}:${bound}/res/ (pid ${process.pid}) ` +
      `(${settings.poolSize} database connections per database at most; definitions from ${settings.definitionsS3 ?? settings.definitionsDir})`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    // a second signal (Ctrl-C's, or one relayed by npm/tsx to the whole group) changes nothing: the grace bounds it
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping (${service.inFlight()} requests in flight)`);
    service
      .stop(grace)
      .then(() => closeDatabases())
      .then(
        () => {
          console.log('Stopped.');
          process.exit(0);
        },
        (error: unknown) => {
          console.error(`Stopping failed: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(`npm run serve failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
