/**
 * A TCP proxy of the tests' own, between the service and a real database server, that can break the network
 * the way production breaks it: refuse connections, black-hole them (accept and never answer), drop a
 * connection in the middle of a stream, and freeze open connections. Test support only; never for production.
 */
import net from 'node:net';

/** Where a drop happens: the first chunk in that direction that reaches `afterBytes`, or that matches `at`. */
export interface DropTrigger {
  readonly direction: 'toServer' | 'toClient';
  /** Bytes in that direction that still pass once the drop is armed (0: the next chunk drops). */
  readonly afterBytes?: number;
  /** A chunk whose text (latin1) matches this is dropped with its connection, e.g. /commit/i. */
  readonly at?: RegExp;
  /** How the service's side is cut: a reset (RST), or closed (FIN, when the service has nothing unread). */
  readonly how: 'reset' | 'close';
}

type Mode = 'pass' | 'refuse' | 'blackHole' | 'freeze';

/** A client connection and, when it is forwarded, its upstream connection. */
interface Pair {
  readonly client: net.Socket;
  upstream?: net.Socket;
}

export interface TcpProxy {
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  url(url: string): string;
  /** New connections are refused (nothing listens); open ones are reset, as when the server goes away. */
  refuse(): Promise<void>;
  /** New connections are accepted and never answered (a host that drops every packet); open ones are reset. */
  blackHole(): Promise<void>;
  /** Open and new connections stay open and carry nothing either way (a network that stopped moving). */
  freeze(): void;
  /** The next time `trigger` is met, every open connection is reset at once; later connections pass. */
  drop(trigger: DropTrigger): void;
  /** From now on, counts the chunks sent to the server whose text (latin1) matches `at`. */
  watch(at: RegExp): () => number;
  /** When the last drop happened (Date.now()), if one did: a test checks that its drop did happen, and when. */
  readonly droppedAt: number | undefined;
  /** Forward again; connections held by a black hole or a freeze are reset (their peers gave up on them). */
  heal(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let mode: Mode = 'pass';
  let trigger: (DropTrigger & { passed: number }) | undefined;
  let droppedAt: number | undefined;
  const watched: { readonly at: RegExp; seen: number }[] = [];

  const cut = (pair: Pair, how: DropTrigger['how'] = 'reset') => {
    pairs.delete(pair);
    if (how === 'reset' && !pair.client.destroyed) pair.client.resetAndDestroy();
    else pair.client.destroy();
    pair.upstream?.destroy();
  };
  const cutAll = (how: DropTrigger['how'] = 'reset') => {
    for (const pair of [...pairs]) cut(pair, how);
  };

  /** The armed drop that `chunk` going `direction` sets off, if it does (it is then disarmed). */
  const dropsOn = (direction: DropTrigger['direction'], chunk: Buffer): DropTrigger | undefined => {
    if (!trigger || trigger.direction !== direction) return undefined;
    const matches = trigger.at?.test(chunk.toString('latin1')) ?? false;
    const reached = trigger.afterBytes !== undefined && trigger.passed + chunk.length > trigger.afterBytes;
    trigger.passed += chunk.length;
    if (!matches && !reached) return undefined;
    const fired = trigger;
    trigger = undefined;
    droppedAt = Date.now();
    return fired;
  };

  const forward = (pair: Pair, from: net.Socket, to: net.Socket, direction: DropTrigger['direction']) => {
    from.on('data', (chunk: Buffer) => {
      if (direction === 'toServer')
        for (const watch of watched) if (watch.at.test(chunk.toString('latin1'))) watch.seen++;
      const fired = dropsOn(direction, chunk);
      if (fired) return cutAll(fired.how);
      if (!to.write(chunk)) from.pause();
    });
    to.on('drain', () => {
      if (mode === 'pass') from.resume();
    });
    from.on('end', () => to.end());
    from.on('error', () => cut(pair));
    // one side closed by itself: the other is ended once its pending data is written
    from.on('close', () => {
      pairs.delete(pair);
      to.destroySoon();
    });
  };

  const connectUpstream = (pair: Pair) => {
    const upstream = net.connect(target.port, target.host);
    pair.upstream = upstream;
    forward(pair, pair.client, upstream, 'toServer');
    forward(pair, upstream, pair.client, 'toClient');
  };

  const server = net.createServer((client) => {
    const pair: Pair = { client };
    pairs.add(pair);
    client.on('error', () => cut(pair));
    if (mode === 'pass') connectUpstream(pair);
    // a black hole or a freeze: accepted, never read, never answered
    else client.pause();
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));

  /**
   * The resets reach the service's drivers, in this process, as socket events: a timer, then an immediate (which
   * runs after the poll phase that delivers them), so the drivers see their connections closed before the
   * test's next request, even when a busy machine runs the timer late.
   */
  const driversNoticed = async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setImmediate(resolve));
  };

  await listen(0);
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    url(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async refuse() {
      mode = 'refuse';
      cutAll();
      await stopListening();
      await driversNoticed();
    },
    async blackHole() {
      mode = 'blackHole';
      cutAll();
      await driversNoticed();
    },
    freeze() {
      mode = 'freeze';
      for (const pair of pairs) {
        pair.client.pause();
        pair.upstream?.pause();
      }
    },
    watch(at) {
      const watch = { at, seen: 0 };
      watched.push(watch);
      return () => watch.seen;
    },
    drop(next) {
      trigger = { ...next, passed: 0 };
    },
    get droppedAt() {
      return droppedAt;
    },
    async heal() {
      const refused = mode === 'refuse';
      if (mode !== 'pass') cutAll();
      mode = 'pass';
      trigger = undefined;
      if (refused) await listen(port);
    },
    async close() {
      mode = 'refuse';
      cutAll();
      if (server.listening) await stopListening();
    },
  };
}
