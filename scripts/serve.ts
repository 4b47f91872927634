/**
 * `npm run serve`: the server mode, for teams that run containers. The same handlers as on Lambda, served by a
 * long-running node:http server (lib/server) on PORT (default 3000) and HOST (default 0.0.0.0), configured by the
 * same variables (DATABASE_URL, DATABASE_URL_<NAME>, DEFINITIONS_DIR, AUTH_*, MAX_BODY_BYTES, DB_POOL_SIZE...) and
 * its own limits (lib/server/server-settings.ts: HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, MAX_CONNECTIONS,
 * MAX_BODY_BYTES_IN_FLIGHT). One process serves many requests at once, so its pools hold DB_POOL_SIZE connections
 * per database (5 by default outside Lambda). It talks to the database directly, so it prepares PostgreSQL
 * statements (DB_PREPARE, default true here; set it to false behind RDS Proxy, where they pin connections). With
 * sign-in on, a request's token is checked before its body is read; with it off, it says so as it starts (a warning:
 * it listens on every interface by default). With a change events sink configured it drains the outbox of every
 * database with events, every EVENTS_DRAIN_INTERVAL_MS and after each write that announced some. SIGTERM or SIGINT stops it gracefully: no new
 * connections, the requests in flight finish (at most SHUTDOWN_GRACE_MS, default 25 s), the drain finishes its
 * round, the database pools close,
 * and it exits 0. Starts no database.
 */
import { authenticate } from '../lib/auth/authenticate';
import { config } from '../lib/config';
import { closeDatabases } from '../lib/db/select-database';
import { writeLogLinesPerTurn } from '../lib/observe/observers';
import { createServiceServer } from '../lib/server/create-server';
import { eventsNotice, startEventsDrain } from '../lib/server/events-drain';
import { functions } from '../lib/server/functions';
import { serverSettings } from '../lib/server/server-settings';
import { signInNotice } from '../lib/server/sign-in-notice';

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

async function main(): Promise<void> {
  // before the configuration is read: the server mode's own default (lib/config leaves it unset on Lambda)
  process.env.DB_PREPARE ||= 'true';
  // one process answers many requests at once: their log lines go out together, a turn of the event loop at a time
  writeLogLinesPerTurn();
  // a setting the handlers could not use (half-configured sign-in, a bad number) stops the server before it listens
  const settings = config();
  const own = serverSettings(process.env, settings.maxBodyBytes);
  const { port, host, shutdownGraceMs: grace } = own;
  const service = createServiceServer({
    maxBodyBytes: settings.maxBodyBytes,
    limits: own,
    functions,
    checkToken: async (authorization) => {
      await authenticate({ authorization }, config());
    },
  });
  // read before it listens: the lines it prints once listening are all there when a supervisor sees it listen
  const events = await eventsNotice(settings);
  // a sink that cannot be made (its secret unreadable) stops the server before it listens, like any bad setting
  const drains = await startEventsDrain(settings);
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
  console.log(
    `Limits: ${own.maxConnections} connections, ${mib(own.bodyBytesInFlight)} of request bodies at once, ` +
      `a request's headers within ${own.headersTimeoutMs / 1000} s and all of it within ${own.requestTimeoutMs / 1000} s`,
  );
  const signIn = signInNotice(settings);
  (signIn.warning ? console.warn : console.log)(signIn.lines.join(' '));
  for (const line of events) console.log(line);
  let stopping = false;
  const stop = (signal: string) => {
    // a second signal (Ctrl-C's, or one relayed by npm/tsx to the whole group) changes nothing: the grace bounds it
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping (${service.inFlight()} requests in flight)`);
    service
      .stop(grace)
      .then(() => drains?.stop())
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
