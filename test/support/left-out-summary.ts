/**
 * Jest global teardown: one plain summary of the tests this run left out because a server URL was not set (with
 * the variable that runs them) or a command they need is not installed (with how to install it). Says nothing
 * when everything ran. It also removes the run's PGlite snapshots (pglite.ts).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { type LeftOutNote, NOTES_DIR_VARIABLE, type TestServer, testServers } from './left-out';
import { removeSnapshotsDir } from './pglite';

function readNotes(dir: string): LeftOutNote[] {
  return readdirSync(dir).map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as LeftOutNote);
}

const both = (words: readonly string[]) => words.join(' and ');

/** The servers that left out exactly the same files share one paragraph. */
function paragraphs(notes: readonly LeftOutNote[], rootDir: string): string[] {
  const groups = new Map<string, { servers: TestServer[]; files: string[] }>();
  for (const server of testServers) {
    const files = [...new Set(notes.filter((n) => n.servers.includes(server.name)).map((n) => n.file))]
      .map((file) => path.relative(rootDir, file))
      .sort();
    if (files.length === 0) continue;
    const group = groups.get(files.join('\n')) ?? { servers: [], files };
    group.servers.push(server);
    groups.set(files.join('\n'), group);
  }
  return [...groups.values()].flatMap(({ servers, files }) => {
    const variables = servers.map((s) => s.variable);
    const count = files.length === 1 ? 'one test file' : `${files.length} test files`;
    return [
      `Left out: the tests on a ${both(servers.map((s) => s.label))} server in ${count}, because ${both(variables)} ${variables.length === 1 ? 'is' : 'are'} not set:`,
      ...files.map((file) => `  ${file}`),
      `  To run them: ${servers.map((s) => `${s.variable}=${s.example}`).join(' ')} npm test`,
    ];
  });
}

/** One paragraph per missing command, with the files that needed it and how to install it. */
function toolParagraphs(notes: readonly LeftOutNote[], rootDir: string): string[] {
  const byTool = new Map<string, { install: string; files: Set<string> }>();
  for (const { tool, file } of notes) {
    if (!tool) continue;
    const entry = byTool.get(tool.name) ?? { install: tool.install, files: new Set<string>() };
    entry.files.add(path.relative(rootDir, file));
    byTool.set(tool.name, entry);
  }
  return [...byTool].flatMap(([name, { install, files }]) => [
    `Left out: the tests that run ${name}, because it is not installed:`,
    ...[...files].sort().map((file) => `  ${file}`),
    `  To run them: ${install}, then npm test`,
  ]);
}

export default function summarize(globalConfig: { readonly rootDir: string }): void {
  removeSnapshotsDir();
  const dir = process.env[NOTES_DIR_VARIABLE];
  if (!dir) return;
  const notes = readNotes(dir);
  rmSync(dir, { recursive: true, force: true });
  const lines = [...paragraphs(notes, globalConfig.rootDir), ...toolParagraphs(notes, globalConfig.rootDir)];
  if (lines.length > 0) console.log(['', ...lines, ''].join('\n'));
}
