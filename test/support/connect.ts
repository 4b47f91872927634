/**
 * A client of the database at a URL, through its engine's driver as the service opens one, without the service's
 * cache or a password source: for tests that run statements through a driver themselves.
 */
import type { Database } from '../../lib/db/database';
import type { ConnectOptions } from '../../lib/db/engine';
import { engineOfUrl } from '../../lib/db/engines/registry';

export async function connectTo(url: string, options: ConnectOptions): Promise<Database> {
  const connect = await engineOfUrl(url).driver();
  if (!connect) throw new Error(`no driver for ${url}: RRS_BUNDLE_ENGINE is set`);
  return connect(url, options);
}
