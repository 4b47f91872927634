/**
 * `npm run mcp -- [--role ROLE]... [--sub SUBJECT]`: the MCP tools and resources of POST /mcp over stdio, for a
 * desktop agent that starts the service itself. Configured like `npm run serve` (DATABASE_URL, DATABASE_URL_<NAME>,
 * DEFINITIONS_DIR...). With `--role`, the agent is a caller holding those roles (and the subject `--sub`, for
 * resources that show each caller their rows): the privileges file (PRIVILEGES) decides its tools, as it does for a
 * token with those roles. Without `--role`, it may use every resource, as /res without sign-in. Stdout carries the
 * protocol alone: what the service says goes to stderr, and there is no request log (a tool call here is not an
 * HTTP request; POST /mcp logs its tool calls). Starts no database.
 */
import { parseArgs } from 'node:util';

// stdout is the protocol's: every line the service would print goes to stderr instead, before anything logs
console.log = console.error;
console.info = console.error;
process.env.LOG_LEVEL = 'SILENT';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { role: { type: 'string', multiple: true }, sub: { type: 'string' } },
    strict: true,
  });
  const roles = values.role ?? [];
  if (roles.length > 0 && !process.env.AUTH_ISSUER) {
    // privileges apply only with sign-in on; here no token is ever checked (the caller is the command line's), so
    // sign-in is on in name only, for the privileges file to apply
    process.env.AUTH_ISSUER = 'urn:rrs:stdio';
    process.env.AUTH_AUDIENCE = 'urn:rrs:stdio';
  }
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { config } = await import('../lib/config');
  const { closeDatabases } = await import('../lib/db/select-database');
  const { mcpServerFor, toolResourcesOf } = await import('../lib/mcp/mcp-server');
  const settings = config();
  if (roles.length > 0 && !settings.privileges) {
    console.error('npm run mcp: --role needs PRIVILEGES, the privileges file that says what each role may do');
    process.exit(2);
  }
  const caller =
    roles.length > 0
      ? {
          signedIn: true,
          roles,
          claims: { ...(values.sub ? { sub: values.sub } : {}), [settings.authRolesClaim]: roles },
        }
      : { signedIn: false, roles: [], claims: values.sub ? { sub: values.sub } : {} };
  const found = await toolResourcesOf(caller);
  const server = mcpServerFor(caller, found);
  server.onclose = () => {
    void closeDatabases().then(() => process.exit(0));
  };
  await server.connect(new StdioServerTransport());
  for (const { name, error } of found.unavailable) console.error(`${name} is left out: ${error.message}`);
  console.error(
    `MCP over stdio: ${found.resources.length} resources for ${roles.length > 0 ? `the roles ${roles.join(', ')}` : 'a caller without sign-in (every privilege)'}; definitions from ${settings.definitionsS3 ?? settings.definitionsDir}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
