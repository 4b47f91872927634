/**
 * The README tells the truth: every command it shows at a `$ ` prompt runs here, in README order, as a user
 * would type it, and prints what the README shows (`...` standing for a cut or a changing value). `localhost:3000`
 * is one freshly started `npm start` (the embedded demo) for the whole README. A command ending in
 * `# in another terminal` starts that server (its own port) for the rest of its block. Blocks that use the local
 * PostgreSQL or MariaDB server run when TEST_PG_URL / TEST_MYSQL_URL is set, and blocks that use xmllint when it is
 * installed; outside CI the others are reported as left out. Blocks marked `<!-- not run: reason -->` must say why.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  inCi,
  missingServers,
  noteLeftOut,
  noteMissingTool,
  serverUrl,
  type TestServer,
  testServers,
} from '../support/left-out';
import { freePort, type LocalProcess, root, serviceEnv, startProcess } from '../support/local-process';
import {
  type Example,
  type ExampleBlock,
  normalizeOutput,
  outputMatches,
  parseExamples,
} from '../support/readme-examples';

const blocks = parseExamples(readFileSync(path.join(root, 'README.md'), 'utf8'));
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const ready = 'Stop with Ctrl-C';

/** The servers a block talks to, by the URLs the README writes for them. */
const readmeServers: Record<TestServer['name'], string> = {
  postgres: 'postgres://postgres@127.0.0.1:5432',
  mariadb: 'mysql://root@127.0.0.1:3306',
};

function serversOf(block: ExampleBlock): TestServer[] {
  const text = block.examples.map((e) => e.command).join('\n');
  return testServers.filter((s) => text.includes(readmeServers[s.name]));
}

/** The README's server URL → the one the test variables name (the same on a machine set up as the README says). */
function serverRewrites(): [string, string][] {
  return testServers.flatMap((s): [string, string][] => {
    const server = /^\w+:\/\/[^/?#]+/.exec(serverUrl(s) ?? '')?.[0];
    return server ? [[readmeServers[s.name], server]] : [];
  });
}

let curlHome = '';
let main: LocalProcess;
let mainPort = 0;

beforeAll(async () => {
  curlHome = mkdtempSync(path.join(tmpdir(), 'rrs-readme-'));
  writeFileSync(path.join(curlHome, '.curlrc'), 'no-progress-meter\n');
  mainPort = await freePort();
  main = await startProcess(tsx, ['scripts/start.ts'], serviceEnv({ PORT: String(mainPort) }), ready);
}, 130_000);

afterAll(async () => {
  await main?.stop();
  if (curlHome) rmSync(curlHome, { recursive: true, force: true });
});

/** Commands some examples need beyond Node, curl and bash, with how to install each. */
const tools: Record<string, string> = { xmllint: 'install xmllint (Debian and Ubuntu: apt-get install libxml2-utils)' };

function installed(tool: string): boolean {
  return spawnSync('bash', ['-c', `command -v ${tool}`]).status === 0;
}

function toolsOf(block: ExampleBlock): string[] {
  const text = block.examples.map((e) => e.command).join('\n');
  return Object.keys(tools).filter((tool) => new RegExp(`\\b${tool}\\b`).test(text));
}

/** A block whose server URL is not set, or (outside CI, which has everything) whose tool is missing. */
const missingTools = Object.keys(tools).filter((tool) => !installed(tool));
const leftOut = blocks.filter(
  (b) =>
    !b.notRun &&
    (serversOf(b).some((s) => missingServers().includes(s)) ||
      (!inCi() && toolsOf(b).some((t) => missingTools.includes(t)))),
);
noteLeftOut(missingServers().filter((s) => leftOut.some((b) => serversOf(b).includes(s))));
for (const tool of missingTools) {
  if (!inCi() && leftOut.some((b) => toolsOf(b).includes(tool))) noteMissingTool(tool, tools[tool] as string);
}

interface Session {
  /** README port → the port of the server that answers it in this test. */
  readonly ports: Map<number, number>;
  readonly servers: LocalProcess[];
  /** The exit code of the block's previous command: `$?` in the next one, as in one terminal. */
  status: number;
}

/** Runs one command in bash in the project folder, as a user would, and returns all it printed. */
function run(command: string, session: Session): Promise<string> {
  let text = command;
  for (const [readme, actual] of session.ports) text = text.replaceAll(`localhost:${readme}`, `localhost:${actual}`);
  for (const [readme, actual] of serverRewrites()) text = text.replaceAll(readme, actual);
  const script = `exec 2>&1\n(exit ${session.status})\n${text}`;
  // curl as in a terminal: no progress meter when its output is captured (CURL_HOME/.curlrc, written below)
  const env = serviceEnv({
    CURL_HOME: curlHome,
    PATH: `${path.join(root, 'node_modules', '.bin')}:${process.env.PATH}`,
  });
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { cwd: root, env, timeout: 60_000 }, (error, stdout) => {
      session.status = typeof error?.code === 'number' ? error.code : error ? 1 : 0;
      let out = stdout
        .split('\n')
        .filter((line) => !/^npm warn Unknown (user|env) config/.test(line)) // this machine's npmrc, not ours
        .join('\n');
      for (const [readme, actual] of session.ports) out = out.replaceAll(`localhost:${actual}`, `localhost:${readme}`);
      for (const [readme, actual] of serverRewrites()) out = out.replaceAll(actual, readme);
      resolve(out);
    });
  });
}

/** `VAR=value ... npm start   # in another terminal`: starts that server on a free port for the rest of the block. */
async function startAnother(example: Example, session: Session): Promise<void> {
  const words = example.command.replace(/#.*$/, '').trim().split(/\s+/);
  const assignments = words.slice(0, words.indexOf('npm')).map((w) => w.split(/=(.*)/s) as [string, string]);
  const env = Object.fromEntries(assignments);
  for (const [readme, actual] of serverRewrites()) {
    for (const [name, value] of Object.entries(env)) env[name] = value.replaceAll(readme, actual);
  }
  const port = await freePort();
  session.ports.set(Number(env.PORT ?? 3000), port);
  session.servers.push(
    await startProcess(tsx, ['scripts/start.ts'], serviceEnv({ ...env, PORT: String(port) }), ready),
  );
}

const another = /\bnpm start\b.*#\s*in another terminal\s*$/;

describe('README examples', () => {
  it('says why each example block it does not run is not run', () => {
    for (const block of blocks.filter((b) => b.notRun)) expect(block.notRun).toMatch(/\w{3,}/);
  });

  it.each(
    blocks.filter((b) => !b.notRun && !leftOut.includes(b)).map((b) => [b.line, b.examples[0]?.command, b] as const),
  )(
    'README line %i: %s',
    async (_line, _first, block) => {
      const session: Session = { ports: new Map([[3000, mainPort]]), servers: [], status: 0 };
      const absent = toolsOf(block).filter((tool) => missingTools.includes(tool));
      if (absent.length > 0) throw new Error(`CI runs every example, but ${absent.join(', ')} is not installed`);
      try {
        for (const example of block.examples) {
          if (another.test(example.command)) {
            await startAnother(example, session);
            continue;
          }
          const actual = await run(example.command, session);
          if (!outputMatches(example.expected, actual)) {
            // the whole difference, with the README line, is what a reader of the failure needs
            expect({ line: example.line, command: example.command, output: normalizeOutput(actual) }).toEqual({
              line: example.line,
              command: example.command,
              output: example.expected,
            });
          }
        }
      } finally {
        for (const server of session.servers) await server.stop();
      }
    },
    180_000,
  );
});
