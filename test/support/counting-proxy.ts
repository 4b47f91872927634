/**
 * A loopback proxy to a test database that counts the chunks the client sends: one per round trip, since a client
 * waits for the answer before it sends again. Test support only.
 */
import net from 'node:net';

export interface CountingProxy {
  /** The database's URL with the proxy's port. */
  readonly url: string;
  /** Chunks the clients have sent so far. */
  sent(): number;
  close(): void;
}

export async function countingProxy(databaseUrl: string): Promise<CountingProxy> {
  const target = new URL(databaseUrl);
  let chunks = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    client.on('data', () => chunks++);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.port = String((server.address() as net.AddressInfo).port);
  return { url: url.toString(), sent: () => chunks, close: () => server.close() };
}
