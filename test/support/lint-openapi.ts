/**
 * Lints an OpenAPI document with Redocly CLI (the recommended rules, as the repository's redocly.yaml sets them)
 * and returns every problem it reports, errors and warnings alike. The CLI runs in its own node process on a
 * temporary file, offline: telemetry and the update check are off, and the process is started with a hook that
 * refuses every network connection and DNS lookup and says so on stderr, which fails the lint: lint must fetch
 * nothing. Redocly CLI has no stable Node API of its own (its bundle exports none), hence the process.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const cli = path.join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const config = path.join(root, 'redocly.yaml');

export interface LintProblem {
  readonly rule: string;
  readonly severity: string;
  /** A JSON pointer into the document, e.g. `#/paths/~1res~1Book/get`. */
  readonly pointer: string;
  readonly message: string;
}

/** The marker the network hook writes before it refuses a connection. */
const networkMarker = 'lint-openapi: network use refused';

/** Loaded with --import before the CLI: every TCP connection and DNS lookup throws, after saying so on stderr. */
const offlineHook = `
import net from 'node:net';
import dns from 'node:dns';
const refuse = (what) => () => {
  process.stderr.write(${JSON.stringify(networkMarker)} + ': ' + what + '\\n');
  throw new Error('network use refused: ' + what);
};
net.Socket.prototype.connect = refuse('connect');
dns.lookup = refuse('dns.lookup');
dns.promises.lookup = refuse('dns.promises.lookup');
`;

interface RedoclyProblem {
  readonly ruleId: string;
  readonly severity: string;
  readonly message: string;
  readonly location: readonly { readonly pointer?: string }[];
}

function run(file: string): Promise<{ stdout: string; stderr: string }> {
  const args = [
    '--import',
    `data:text/javascript,${encodeURIComponent(offlineHook)}`,
    cli,
    'lint',
    file,
    '--config',
    config,
    '--format',
    'json',
  ];
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NODE_OPTIONS: '' };
  return new Promise((resolve, reject) => {
    // exit code 1 when the lint finds errors: the JSON report on stdout says which
    execFile(process.execPath, args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && error.code !== 1) reject(new Error(`redocly lint failed: ${error.message}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

/** Every problem Redocly CLI finds in `document`; none when it lints clean. */
export async function lintOpenApi(document: unknown): Promise<LintProblem[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rrs-openapi-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const { stdout, stderr } = await run(file);
    if (stderr.includes(networkMarker)) throw new Error(`redocly lint tried to use the network:\n${stderr}`);
    const report = JSON.parse(stdout) as { problems: readonly RedoclyProblem[] };
    return report.problems.map((p) => ({
      rule: p.ruleId,
      severity: p.severity,
      pointer: p.location[0]?.pointer ?? '',
      message: p.message,
    }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One line per problem, for a failing assertion's message. */
export const problemLines = (problems: readonly LintProblem[]): string[] =>
  problems.map((p) => `${p.severity} ${p.rule} ${p.pointer}: ${p.message}`);
