/**
 * A folder of the repository with a package.json and package-lock.json of its own (scripts/node22, the peer of
 * bench:peer): tools pinned apart from the service's dependencies, installed into the folder's node_modules (never
 * committed) by `npm ci --prefix FOLDER` the first time a script needs them, and again when the lock pins another
 * version than the one installed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

const versionIn = (file: string, read: (json: Record<string, unknown>) => unknown): unknown =>
  existsSync(file) ? read(JSON.parse(readFileSync(file, 'utf8'))) : undefined;

/** The folder of package `name` installed in `folder` (relative to the repository), installing it when missing. */
export function installedPackage(folder: string, name: string): string {
  const at = path.join(root, folder);
  const installed = path.join(at, 'node_modules', name);
  const pinned = versionIn(path.join(at, 'package-lock.json'), (lock) => {
    const packages = lock.packages as Record<string, { version?: string }>;
    return packages[`node_modules/${name}`]?.version;
  });
  if (versionIn(path.join(installed, 'package.json'), (json) => json.version) !== pinned) {
    console.error(`installing ${folder} (npm ci --prefix ${folder}): ${name} ${pinned}`);
    execFileSync('npm', ['ci', '--prefix', at, '--no-audit', '--no-fund'], { stdio: ['ignore', 2, 2] });
  }
  return installed;
}
