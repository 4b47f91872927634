/**
 * A local PostgreSQL wire-protocol server over one PGlite instance, for `npm start` and tests; never for
 * production. PGlite has a single session, and pglite-socket's own server multiplexes connections onto it
 * message by message: the Parse/Bind/Execute/Sync messages of concurrent clients interleave, so one client
 * binds another's unnamed statement ("bind message supplies 1 parameters, but prepared statement "" requires
 * 0"). This server reuses pglite-socket's connection handler with a queue that gives the session to one
 * connection from its first message to its Sync (or simple Query), and for the whole of an explicit transaction.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from '@electric-sql/pglite-socket';

interface Job {
  readonly handlerId: number;
  readonly message: Uint8Array;
  readonly onData: (data: Uint8Array) => void;
  readonly resolve: (bytes: number) => void;
  readonly reject: (error: Error) => void;
}

/** Message types after which the session may pass to another connection (unless a transaction is open). */
const BATCH_ENDS = new Set(['S', 'Q', 'X']);
const SYNC_MESSAGE = new Uint8Array([0x53, 0, 0, 0, 4]);
/** The owner while a vanished connection's leftovers are cleaned up: no handler has this id. */
const RESETTING = -1;

/** The message type byte; a startup message (no type byte, starts with its length) counts as a batch end. */
const endsBatch = (message: Uint8Array) => message[0] === 0 || BATCH_ENDS.has(String.fromCharCode(message[0] ?? 0));

/** Serialises the messages of all connections onto the one PGlite session, a whole batch at a time. */
export class SessionQueue {
  private readonly waiting: Job[] = [];
  private readonly gone = new Set<number>();
  private owner: number | null = null;
  private running: number | null = null;
  private draining = false;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ handlerId, message, onData, resolve, reject });
      void this.drain();
    });
  }

  getQueueLength(): number {
    return this.waiting.length;
  }

  /** Called when a connection goes away: its waiting messages are dropped. */
  clearQueueForHandler(handlerId: number): void {
    this.gone.add(handlerId);
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const job = this.waiting[i];
      if (job?.handlerId !== handlerId) continue;
      this.waiting.splice(i, 1);
      job.reject(new Error('Handler disconnected'));
    }
  }

  /** Called after clearQueueForHandler: a connection that held the session mid-batch or mid-transaction. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.running === handlerId) return; // drain() cleans up once its message is done
    if (this.owner === handlerId) await this.resetSession();
    this.gone.delete(handlerId);
    void this.drain();
  }

  private next(): Job | undefined {
    const index = this.owner === null ? 0 : this.waiting.findIndex((job) => job.handlerId === this.owner);
    return index < 0 ? undefined : this.waiting.splice(index, 1)[0];
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let job = this.next(); job; job = this.next()) await this.run(job);
    } finally {
      this.draining = false;
    }
  }

  private async run(job: Job): Promise<void> {
    let bytes = 0;
    this.running = job.handlerId;
    try {
      await this.db.runExclusive(() =>
        this.db.execProtocolRawStream(job.message, {
          onRawData: (data) => {
            bytes += data.length;
            job.onData(data);
          },
        }),
      );
      this.owner = endsBatch(job.message) && !this.db.isInTransaction() ? null : job.handlerId;
      job.resolve(bytes);
    } catch (error) {
      this.owner = null;
      job.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.running = null;
    }
    if (this.gone.delete(job.handlerId) && this.owner === job.handlerId) await this.resetSession();
  }

  /**
   * Ends whatever a vanished connection left open: a half-sent batch (Sync) and a transaction (ROLLBACK). No
   * other connection's message runs meanwhile, or it would run inside that transaction.
   */
  private async resetSession(): Promise<void> {
    this.owner = RESETTING;
    try {
      await this.db.runExclusive(() => this.db.execProtocolRaw(SYNC_MESSAGE));
      if (this.db.isInTransaction()) await this.db.exec('rollback');
    } finally {
      this.owner = null;
    }
  }
}

export interface PgliteServer {
  readonly host: string;
  readonly port: number;
  /** A postgres:// URL for this server; PGlite ignores the database name, so any name connects. */
  url(database: string): string;
  /** The client connections open now (the soak benchmark watches them). */
  connections(): number;
  stop(): Promise<void>;
}

export interface PgliteServerOptions {
  readonly host?: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  readonly maxConnections?: number;
}

/**
 * A FATAL ErrorResponse (53300 too_many_connections, 57P03 cannot_connect_now), so clients report a real PostgreSQL
 * error.
 */
function fatalResponse(code: string, message: string): Buffer {
  const fields = ['SFATAL', 'VFATAL', `C${code}`, `M${message}`];
  const body = Buffer.concat([...fields.map((field) => Buffer.from(`${field}\0`)), Buffer.from([0])]);
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

function acceptConnection(socket: Socket, queue: SessionQueue, handlers: Set<PGLiteSocketHandler>, max: number) {
  if (handlers.size >= max) {
    // Some clients keep their side open after a FATAL error; do not wait for them.
    socket.end(fatalResponse('53300', 'sorry, too many clients already'), () => socket.destroy());
    return;
  }
  const queryQueue = queue as unknown as PGLiteSocketHandlerOptions['queryQueue'];
  const handler = new PGLiteSocketHandler({ queryQueue, closeOnDetach: true });
  handlers.add(handler);
  const forget = () => handlers.delete(handler);
  handler.addEventListener('close', forget);
  handler.addEventListener('error', forget);
  handler.attach(socket).catch(() => {
    forget();
    socket.destroy();
  });
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * Serves `db` over TCP; `stop()` closes every connection and the listener (not the PGlite instance). `db` may still
 * be opening: the server listens at once, and a connection that comes before the database is open waits for it (its
 * first messages wait in the socket); if it never opens, each connection is answered with that error and closed.
 */
export async function startPgliteServer(
  db: PGlite | Promise<PGlite>,
  options: PgliteServerOptions = {},
): Promise<PgliteServer> {
  const host = options.host ?? '127.0.0.1';
  const queue = Promise.resolve(db).then((opened) => new SessionQueue(opened));
  // a database that fails to open is its opener's to report; here it only closes the connections that waited
  queue.catch(() => {});
  const handlers = new Set<PGLiteSocketHandler>();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    queue.then(
      (opened) => {
        if (!socket.destroyed) acceptConnection(socket, opened, handlers, options.maxConnections ?? 100);
      },
      (error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        socket.end(fatalResponse('57P03', `the database could not be opened: ${why}`), () => socket.destroy());
      },
    );
  });
  const port = await listen(server, host, options.port ?? 0);
  return {
    host,
    port,
    url: (database) => `postgres://postgres@${host}:${port}/${database}`,
    connections: () => sockets.size,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...handlers].map((handler) => handler.detach(true)));
      handlers.clear();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
