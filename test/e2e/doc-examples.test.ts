/**
 * The documentation tells the truth: every command that README.md and the docs/*.md pages show at a `$ ` prompt
 * runs here, page by page and in page order, as a user would type it, and prints what the page shows (`...`
 * standing for a cut or a changing value). On each page, `localhost:3000` is a freshly started `npm start` (the
 * embedded demo) of its own, started when the page's first command needs it (and the next page's meanwhile): every
 * page starts from the demo data, so the ids it shows do not depend on what other pages wrote. A command ending in `# in another terminal` starts
 * that server (its own port) for the rest of its block. Blocks that use the local PostgreSQL or MariaDB server run
 * when TEST_PG_URL / TEST_MYSQL_URL is set, and blocks that use xmllint when it is installed; outside CI the others
 * are reported as left out. Blocks marked `<!-- not run: reason -->` must say why.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type Example,
  type ExampleBlock,
  normalizeOutput,
  outputMatches,
  parseExamples,
} from '../support/doc-examples';
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

const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const ready = 'Stop with Ctrl-C';

interface Page {
  /** Relative to the project folder: `README.md`, `docs/operations.md`, ... */
  readonly file: string;
  readonly blocks: readonly ExampleBlock[];
  /** The page's own `npm start` on localhost:3000, once a command needed it or the page before started it. */
  server?: Promise<{ readonly process: LocalProcess; readonly port: number }>;
}

const docs = path.join(root, 'docs');
const pages: Page[] = [
  'README.md',
  ...(existsSync(docs) ? readdirSync(docs).filter((name) => name.endsWith('.md')) : []).sort().map((n) => `docs/${n}`),
].map((file) => ({ file, blocks: parseExamples(readFileSync(path.join(root, file), 'utf8'), file) }));

const another = /\bnpm start\b.*#\s*in another terminal\s*$/;

/** The servers a block talks to, by the URLs the pages write for them. */
const docServers: Record<TestServer['name'], string> = {
  postgres: 'postgres://postgres@127.0.0.1:5432',
  mariadb: 'mysql://root@127.0.0.1:3306',
};

function serversOf(block: ExampleBlock): TestServer[] {
  const text = block.examples.map((e) => e.command).join('\n');
  return testServers.filter((s) => text.includes(docServers[s.name]));
}

/** The pages' server URL → the one the test variables name (the same on a machine set up as the README says). */
function serverRewrites(): [string, string][] {
  return testServers.flatMap((s): [string, string][] => {
    const server = /^\w+:\/\/[^/?#]+/.exec(serverUrl(s) ?? '')?.[0];
    return server ? [[docServers[s.name], server]] : [];
  });
}

let curlHome = '';

beforeAll(() => {
  curlHome = mkdtempSync(path.join(tmpdir(), 'rrs-docs-'));
  writeFileSync(path.join(curlHome, '.curlrc'), 'no-progress-meter\n');
});

afterAll(async () => {
  // a page whose tests were all filtered out (jest -t) runs no afterAll of its own
  for (const page of pages) await stopServer(page);
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
const allBlocks = pages.flatMap((p) => p.blocks);
const leftOut = allBlocks.filter(
  (b) =>
    !b.notRun &&
    (serversOf(b).some((s) => missingServers().includes(s)) ||
      (!inCi() && toolsOf(b).some((t) => missingTools.includes(t)))),
);
noteLeftOut(missingServers().filter((s) => leftOut.some((b) => serversOf(b).includes(s))));
for (const tool of missingTools) {
  if (!inCi() && leftOut.some((b) => toolsOf(b).includes(tool))) noteMissingTool(tool, tools[tool] as string);
}

/** A page runs its own `npm start` when one of its commands uses localhost:3000 before a block starts another. */
function needsServer(page: Page): boolean {
  return runnable(page).some((block) => {
    for (const example of block.examples) {
      if (another.test(example.command)) return false;
      if (/\blocalhost:3000\b/.test(example.command)) return true;
    }
    return false;
  });
}

function runnable(page: Page): ExampleBlock[] {
  return page.blocks.filter((b) => !b.notRun && !leftOut.includes(b));
}

function serve(page: Page): NonNullable<Page['server']> {
  page.server ??= (async () => {
    const port = await freePort();
    const server = await startProcess(tsx, ['scripts/start.ts'], serviceEnv({ PORT: String(port) }), ready);
    return { process: server, port };
  })();
  return page.server;
}

/**
 * The port of the page's own `npm start`, started on first use. Starting one takes seconds, so the next page's
 * server starts while this page runs; a failure to start is reported by that page's tests.
 */
async function mainPort(page: Page): Promise<number> {
  const { port } = await serve(page);
  const next = pages.slice(pages.indexOf(page) + 1).find(needsServer);
  if (next) serve(next).catch(() => {});
  return port;
}

async function stopServer(page: Page): Promise<void> {
  const server = await page.server?.catch(() => undefined);
  await server?.process.stop();
}

interface Session {
  readonly page: Page;
  /** Page port → the port of the server that answers it in this test. */
  readonly ports: Map<number, number>;
  readonly servers: LocalProcess[];
  /** The exit code of the block's previous command: `$?` in the next one, as in one terminal. */
  status: number;
}

/** Runs one command in bash in the project folder, as a user would, and returns all it printed. */
async function run(command: string, session: Session): Promise<string> {
  if (/\blocalhost:3000\b/.test(command) && !session.ports.has(3000)) {
    session.ports.set(3000, await mainPort(session.page));
  }
  let text = command;
  for (const [shown, actual] of session.ports) text = text.replaceAll(`localhost:${shown}`, `localhost:${actual}`);
  for (const [shown, actual] of serverRewrites()) text = text.replaceAll(shown, actual);
  const script = `exec 2>&1\n(exit ${session.status})\n${text}`;
  // curl as in a terminal: no progress meter when its output is captured (CURL_HOME/.curlrc, written above)
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
      for (const [shown, actual] of session.ports) out = out.replaceAll(`localhost:${actual}`, `localhost:${shown}`);
      for (const [shown, actual] of serverRewrites()) out = out.replaceAll(actual, shown);
      resolve(out);
    });
  });
}

/** `VAR=value ... npm start   # in another terminal`: starts that server on a free port for the rest of the block. */
async function startAnother(example: Example, session: Session): Promise<void> {
  const words = example.command.replace(/#.*$/, '').trim().split(/\s+/);
  const assignments = words.slice(0, words.indexOf('npm')).map((w) => w.split(/=(.*)/s) as [string, string]);
  const env = Object.fromEntries(assignments);
  for (const [shown, actual] of serverRewrites()) {
    for (const [name, value] of Object.entries(env)) env[name] = value.replaceAll(shown, actual);
  }
  const port = await freePort();
  session.ports.set(Number(env.PORT ?? 3000), port);
  session.servers.push(
    await startProcess(tsx, ['scripts/start.ts'], serviceEnv({ ...env, PORT: String(port) }), ready),
  );
}

it('says why each example block it does not run is not run', () => {
  for (const block of allBlocks.filter((b) => b.notRun)) expect(block.notRun).toMatch(/\w{3,}/);
});

for (const page of pages) {
  const blocks = runnable(page);
  if (blocks.length === 0) continue;

  describe(page.file, () => {
    afterAll(() => stopServer(page));

    it.each(blocks.map((b) => [b.line, b.examples[0]?.command, b] as const))(
      `${page.file} line %i: %s`,
      async (_line, _first, block) => {
        const session: Session = { page, ports: new Map(), servers: [], status: 0 };
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
              // the whole difference, with the page and line, is what a reader of the failure needs
              expect({
                page: page.file,
                line: example.line,
                command: example.command,
                output: normalizeOutput(actual),
              }).toEqual({ page: page.file, line: example.line, command: example.command, output: example.expected });
            }
          }
        } finally {
          for (const server of session.servers) await server.stop();
        }
      },
      180_000,
    );
  });
}
