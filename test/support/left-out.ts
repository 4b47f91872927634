/**
 * Tests that need a database server run whenever its URL is set, and are not declared at all without it (never
 * skipped in silence). This module knows those servers and notes, per test file, which of them the file left
 * out; the global teardown (left-out-summary.ts) sums the notes up at the end of the run. Light on purpose: every
 * test file loads it (note-left-out.ts), so it imports no driver.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export interface TestServer {
  readonly name: 'postgres' | 'mariadb';
  readonly label: string;
  /** The variable that holds its URL. */
  readonly variable: string;
  /** The URL that works on a machine set up as the README says. */
  readonly example: string;
}

export const testServers: readonly TestServer[] = [
  {
    name: 'postgres',
    label: 'PostgreSQL',
    variable: 'TEST_PG_URL',
    example: 'postgres://postgres@127.0.0.1:5432/postgres',
  },
  {
    name: 'mariadb',
    label: 'MariaDB/MySQL',
    variable: 'TEST_MYSQL_URL',
    example: 'mysql://root@127.0.0.1:3306/test',
  },
];

/** The server's URL, or undefined when its variable is unset or empty. */
export function serverUrl(server: TestServer): string | undefined {
  return process.env[server.variable] || undefined;
}

export function missingServers(): TestServer[] {
  return testServers.filter((server) => !serverUrl(server));
}

/** Where the notes of one jest run go: the global setup creates the folder and names it here. */
export const NOTES_DIR_VARIABLE = 'RRS_LEFT_OUT_NOTES';

export interface LeftOutNote {
  /** The test file, absolute. */
  readonly file: string;
  readonly servers: readonly TestServer['name'][];
  /** A command the tests need that is not installed, and how to install it. */
  readonly tool?: { readonly name: string; readonly install: string };
}

/** Notes that the running test file leaves out the tests it would have run on these servers. */
export function noteLeftOut(servers: readonly TestServer[]): void {
  if (servers.length > 0) writeNote({ servers: servers.map((s) => s.name) });
}

/** Notes that the running test file leaves out the tests that need the command `name`, which is not installed. */
export function noteMissingTool(name: string, install: string): void {
  writeNote({ servers: [], tool: { name, install } });
}

function writeNote(what: Omit<LeftOutNote, 'file'>): void {
  const dir = process.env[NOTES_DIR_VARIABLE];
  if (!dir) throw new Error(`${NOTES_DIR_VARIABLE} is not set: run the tests with jest.config.js (npm test)`);
  const note: LeftOutNote = { file: expect.getState().testPath ?? 'unknown', ...what };
  // one file per note: workers run test files side by side, and each file gets fresh module state
  writeFileSync(path.join(dir, `${randomUUID()}.json`), JSON.stringify(note));
}

/** CI (CI=true, as .ci/run sets it) runs every test: nothing may be left out there. */
export function inCi(): boolean {
  const ci = process.env.CI;
  return Boolean(ci) && ci !== 'false' && ci !== '0';
}

/** Lists of targets that leave servers out when each of their entries is described (see note-left-out.ts). */
const perServerLists = new WeakMap<object, readonly TestServer[]>();

export function markPerServer<T extends object>(list: T, missing: readonly TestServer[]): T {
  perServerLists.set(list, missing);
  return list;
}

export function leftOutBy(list: unknown): readonly TestServer[] {
  return (typeof list === 'object' && list !== null && perServerLists.get(list)) || [];
}
