/**
 * Jest global setup: CI (CI=true, as .ci/run sets it) runs every test on every database, so a missing server
 * URL fails the run before any test starts. Elsewhere the run goes on without that server, and this makes the
 * folder where test files note what they left out (left-out.ts); the global teardown sums it up. It also makes
 * the run's folder of PGlite snapshots (pglite.ts).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inCi, missingServers, NOTES_DIR_VARIABLE } from './left-out';
import { makeSnapshotsDir } from './pglite';

export default function setup(): void {
  const missing = missingServers();
  if (inCi() && missing.length > 0) {
    const settings = missing.map((server) => `${server.variable}=${server.example}`).join(' ');
    throw new Error(
      `CI runs every test on every database, but ${missing.map((s) => s.variable).join(' and ')} is not set (e.g. ${settings})`,
    );
  }
  process.env[NOTES_DIR_VARIABLE] = mkdtempSync(path.join(os.tmpdir(), 'rrs-left-out-'));
  makeSnapshotsDir();
}
