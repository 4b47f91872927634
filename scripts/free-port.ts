/**
 * A TCP port on 127.0.0.1 that nobody listens on right now, for a server the script is about to start.
 *
 * The port is drawn below the kernel's ephemeral range (Linux: 32768-60999), never from it: a port the kernel hands
 * out for listen(0) is also one it hands out to outgoing connections, so between this probe and the server's own
 * bind a database client could take it (EADDRINUSE). Ports below the range are only ever taken by listeners.
 */
import { createServer } from 'node:net';

const LOWEST = 20000;
const HIGHEST = 32767;
const TRIES = 50;

function listensFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let i = 0; i < TRIES; i += 1) {
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST + 1));
    if (await listensFree(port)) return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${HIGHEST} after ${TRIES} tries`);
}
