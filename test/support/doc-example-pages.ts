/**
 * The documentation tells the truth: every command that README.md and the docs/*.md pages show at a `$ ` prompt
 * runs, page by page and in page order, as a user would type it, and prints what the page shows (`...` standing
 * for a cut or a changing value). The pages are shared out between the test files test/e2e/doc-examples*.test.ts
 * (`describeDocPages`), so that jest runs the shares side by side; a page no share names runs in the rest.
 *
 * `localhost:3000` is an `npm start` (the embedded demo) that a test file starts when a page's first command needs
 * it and keeps for its later pages; before each later page, that page's data is put back: the demo tables seeded
 * again (`seedDemo`, what `npm run demo:seed` runs) into the PGlite whose URL the banner prints. So every page
 * starts from the demo data, and the ids it shows do not depend on what other pages wrote. A command ending in
 * `# in another terminal` starts that server (its own port) for the rest of its block. Blocks that use the local
 * PostgreSQL or MariaDB server run when TEST_PG_URL / TEST_MYSQL_URL is set, and blocks that use xmllint when it
 * is installed; outside CI the others are reported as left out. Blocks marked `<!-- not run: reason -->` must say
 * why.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { seedDemo } from '../../scripts/demo/seed';
import { type ExampleBlock, normalizeOutput, outputMatches, parseExamples } from './doc-examples';
import {
  inCi,
  missingServers,
  noteLeftOut,
  noteMissingTool,
  serverUrl,
  type TestServer,
  testServers,
} from './left-out';
import { freePort, type LocalProcess, root, serviceEnv, startProcess } from './local-process';

const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const ready = 'Stop with Ctrl-C';

interface Page {
  /** Relative to the project folder: `README.md`, `docs/operations.md`, ... */
  readonly file: string;
  readonly blocks: readonly ExampleBlock[];
}

const docs = path.join(root, 'docs');
const pages: Page[] = [
  'README.md',
  ...(existsSync(docs) ? readdirSync(docs).filter((name) => name.endsWith('.md')) : []).sort().map((n) => `docs/${n}`),
].map((file) => ({ file, blocks: parseExamples(readFileSync(path.join(root, file), 'utf8'), file) }));

/**
 * The shares of the pages besides the rest, each run by a test file of its own, by name: about even in time (most
 * of a page's time is the servers its blocks start in another terminal, and its `sleep`s), so that no one file
 * holds up the run.
 */
const shares = {
  'another terminal': ['README.md', 'docs/security.md', 'docs/writes.md', 'docs/generator.md'],
  definitions: ['docs/definitions.md', 'docs/deployment.md'],
} as const satisfies Record<string, readonly string[]>;

export type DocShare = keyof typeof shares | 'the rest';

function pagesOf(share: DocShare): Page[] {
  if (share !== 'the rest') return pages.filter((page) => (shares[share] as readonly string[]).includes(page.file));
  const named: readonly string[] = Object.values(shares).flat();
  return pages.filter((page) => !named.includes(page.file));
}

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

/** Commands some examples need beyond Node, curl and bash, with how to install each. */
const tools: Record<string, string> = { xmllint: 'install xmllint (Debian and Ubuntu: apt-get install libxml2-utils)' };

function installed(tool: string): boolean {
  return spawnSync('bash', ['-c', `command -v ${tool}`]).status === 0;
}

function toolsOf(block: ExampleBlock): string[] {
  const text = block.examples.map((e) => e.command).join('\n');
  return Object.keys(tools).filter((tool) => new RegExp(`\\b${tool}\\b`).test(text));
}

const missingTools = Object.keys(tools).filter((tool) => !installed(tool));

/** A block whose server URL is not set, or (outside CI, which has everything) whose tool is missing. */
function isLeftOut(block: ExampleBlock): boolean {
  return (
    !block.notRun &&
    (serversOf(block).some((s) => missingServers().includes(s)) ||
      (!inCi() && toolsOf(block).some((t) => missingTools.includes(t))))
  );
}

/** Notes for the run's summary the servers and tools that `blocks` lack. */
function noteLeftOutOf(blocks: readonly ExampleBlock[]): void {
  const leftOut = blocks.filter(isLeftOut);
  noteLeftOut(missingServers().filter((s) => leftOut.some((b) => serversOf(b).includes(s))));
  for (const tool of missingTools) {
    if (!inCi() && leftOut.some((b) => toolsOf(b).includes(tool))) noteMissingTool(tool, tools[tool] as string);
  }
}

function runnable(page: Page): ExampleBlock[] {
  return page.blocks.filter((b) => !b.notRun && !isLeftOut(b));
}

/** The `npm start` on localhost:3000 of a test file, and the page that used it last. */
interface MainServer {
  readonly process: LocalProcess;
  readonly port: number;
  /** The PGlite that the banner names, where the demo data is put back. */
  readonly databaseUrl: string;
  page: Page;
}

const banner = /Database: the demo bookstore in PGlite \(in memory\) at (\S+)/;

async function startMain(page: Page): Promise<MainServer> {
  const port = await freePort();
  const server = await startProcess(tsx, ['scripts/start.ts'], serviceEnv({ PORT: String(port) }), ready);
  const databaseUrl = banner.exec(server.output())?.[1];
  if (!databaseUrl) {
    await server.stop();
    throw new Error(`npm start named no PGlite in its banner:\n${server.output()}`);
  }
  return { process: server, port, databaseUrl, page };
}

/** Seeds the demo tables again, as `npm run demo:seed -- <url>` does (which first creates a missing database). */
async function putBackDemo(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await seedDemo((statement) => sql.unsafe(statement), 'postgres');
  } finally {
    await sql.end();
  }
}

interface Session {
  readonly page: Page;
  /** Page port → the port of the server that answers it in this test. */
  readonly ports: Map<number, number>;
  readonly servers: LocalProcess[];
  /** The exit code of the block's previous command: `$?` in the next one, as in one terminal. */
  status: number;
}

/**
 * Describes, in page order, a test per runnable block of the pages of `share`. The test file's `npm start` on
 * localhost:3000 starts on first use; a page after the one that used it last gets the demo data put back first.
 */
export function describeDocPages(share: DocShare): void {
  const mine = pagesOf(share);
  noteLeftOutOf(mine.flatMap((page) => page.blocks));
  let main: Promise<MainServer> | undefined;
  let curlHome = '';

  beforeAll(() => {
    startEarly(queue);
    curlHome = mkdtempSync(path.join(tmpdir(), 'rrs-docs-'));
    writeFileSync(path.join(curlHome, '.curlrc'), 'no-progress-meter\n');
  });

  afterAll(async () => {
    await (await main?.catch(() => undefined))?.process.stop();
    // the servers started early for blocks that did not run (jest -t)
    for (const server of early.values()) await (await server.catch(() => undefined))?.process.stop();
    if (curlHome) rmSync(curlHome, { recursive: true, force: true });
  });

  /**
   * The servers of blocks whose first command starts one in another terminal, each started while the test before
   * it runs: starting one takes seconds. It is the same server, started the same way, as when the block starts it;
   * a failure to start is reported by that block's test.
   */
  const early = new Map<ExampleBlock, Promise<AnotherServer>>();
  function startEarly(later: readonly ExampleBlock[]): void {
    const next = later.find((block) => another.test(block.examples[0]?.command ?? ''));
    if (!next || early.has(next)) return;
    const server = startAnother(next.examples[0]?.command ?? '');
    server.catch(() => {});
    early.set(next, server);
  }

  /** The port of the file's `npm start`, started on first use, with the demo data as `page` must find it. */
  async function mainPort(page: Page): Promise<number> {
    main ??= startMain(page);
    const server = await main;
    if (server.page !== page) {
      await putBackDemo(server.databaseUrl);
      server.page = page;
    }
    return server.port;
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

  const queue = mine.flatMap(runnable);
  for (const page of mine) {
    const blocks = runnable(page);
    if (blocks.length === 0) continue;

    describe(page.file, () => {
      it.each(blocks.map((b) => [b.line, b.examples[0]?.command, b] as const))(
        `${page.file} line %i: %s`,
        async (_line, _first, block) => {
          startEarly(queue.slice(queue.indexOf(block) + 1));
          const session: Session = { page, ports: new Map(), servers: [], status: 0 };
          const absent = toolsOf(block).filter((tool) => missingTools.includes(tool));
          if (absent.length > 0) throw new Error(`CI runs every example, but ${absent.join(', ')} is not installed`);
          try {
            for (const [i, example] of block.examples.entries()) {
              if (another.test(example.command)) {
                const server = await ((i === 0 && early.get(block)) || startAnother(example.command));
                session.ports.set(server.shownPort, server.port);
                session.servers.push(server.process);
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
                }).toEqual({
                  page: page.file,
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
  }
}

/** A server that a block starts in another terminal: the port the page shows, and the one it really has. */
interface AnotherServer {
  readonly shownPort: number;
  readonly port: number;
  readonly process: LocalProcess;
}

/** `VAR=value ... npm start   # in another terminal`: starts that server on a free port. */
async function startAnother(command: string): Promise<AnotherServer> {
  const words = command.replace(/#.*$/, '').trim().split(/\s+/);
  const assignments = words.slice(0, words.indexOf('npm')).map((w) => w.split(/=(.*)/s) as [string, string]);
  const env = Object.fromEntries(assignments);
  for (const [shown, actual] of serverRewrites()) {
    for (const [name, value] of Object.entries(env)) env[name] = value.replaceAll(shown, actual);
  }
  const port = await freePort();
  const server = await startProcess(tsx, ['scripts/start.ts'], serviceEnv({ ...env, PORT: String(port) }), ready);
  return { shownPort: Number(env.PORT ?? 3000), port, process: server };
}

/** The blocks of every page that are not run: each must say why. */
export function blocksNotRun(): ExampleBlock[] {
  return pages.flatMap((page) => page.blocks).filter((block) => block.notRun);
}
