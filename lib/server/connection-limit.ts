/**
 * The server mode's connection limit: connections are counted as they open and close; a request on one beyond
 * `maxConnections` is answered 503 (create-server.ts), and beyond twice as many Node closes new ones at once.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Counts open connections: those beyond `maxConnections` are marked (their requests answered 503). */
export function limitConnections(server: Server, maxConnections: number): WeakSet<Socket> {
  const overflow = new WeakSet<Socket>();
  let connections = 0;
  // beyond twice the limit, new connections are closed unanswered
  server.maxConnections = 2 * maxConnections;
  server.on('connection', (socket: Socket) => {
    if (connections >= maxConnections) {
      overflow.add(socket);
      return;
    }
    connections++;
    socket.once('close', () => connections--);
  });
  return overflow;
}
