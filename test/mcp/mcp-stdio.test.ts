/**
 * `npm run mcp`: the same tools over stdio, for a desktop agent, driven by the official SDK's stdio client against
 * PGlite and the test definitions. With `--role`, the privileges file decides the tools, as for a token; stdout
 * carries the protocol alone, and what the service says (a definition that does not load) goes to stderr.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { testDefinitions } from '../support/service';

const target = targets().find((t) => t.name === 'pglite');
if (!target) throw new Error('PGlite is always a target');
const fx = useFixture(target);
const root = path.resolve(__dirname, '..', '..');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rrs-mcp-stdio-'));
  writeFileSync(path.join(dir, 'privileges.properties'), '*.select=reader\nItem.insert=writer\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: path.join(root, 'node_modules', '.bin', 'tsx'),
    args: ['scripts/mcp.ts', ...args],
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: fx.db.url,
      DEFINITIONS_DIR: testDefinitions,
      // privileges apply to a caller with roles; without one, a PRIVILEGES setting is refused as for /res
      ...(args.includes('--role') ? { PRIVILEGES: path.join(dir, 'privileges.properties') } : {}),
    },
    stderr: 'pipe',
  });
  let said = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    said += chunk.toString();
  });
  const client = new Client({ name: 'rrs-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => said };
}

it('serves a reader its read tools only, reads rows, and says on stderr what it left out', async () => {
  const { client, stderr } = await start(['--role', 'reader', '--sub', 'alice']);
  try {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['list_resources', 'describe_resource', 'read_Item', 'read_TeamPlayers']),
    );
    expect(
      names.filter((name) => !name.startsWith('read_') && !name.endsWith('_resource') && name !== 'list_resources'),
    ).toEqual([]);
    const read = await client.callTool({ name: 'read_Item', arguments: { where: { id: 1 } } });
    expect(read.structuredContent).toMatchObject({ items: [{ id: 1 }] });
    expect(stderr()).toContain('Broken is left out:');
    expect(stderr()).toMatch(/MCP over stdio: \d+ resources for the roles reader/);
  } finally {
    await client.close();
  }
});
