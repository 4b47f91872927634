/**
 * The MCP server one caller talks to, built per request (the endpoint keeps no session): tools from the
 * definitions the caller may see (tool-definitions.ts), run by call-tool.ts; and as MCP resources, each
 * definition's documentation and its OpenAPI description. Built on the official SDK's low-level Server, whose
 * handlers take our JSON Schemas as they are. The same server serves the HTTP endpoint and `npm run mcp` (stdio).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../auth/caller';
import { config } from '../config';
import { heldBy, resolveCatalog } from '../http/caller-catalog';
import { buildOpenApi } from '../openapi/build-openapi';
import type { CatalogError } from '../serial/serialize-listing';
import { sdkValidator } from './argument-check';
import { callTool } from './call-tool';
import { describeResource } from './describe-resources';
import { type ToolResource, toolAction, toolsFor } from './tool-definitions';

export const serverInfo = { name: 'relational-resource-service', version: '0.1.0' };

const instructions =
  'Named SQL resources of one database. Call list_resources first, then describe_resource for the fields of one; read_<Name> reads rows (at most a page per call), insert_/update_/delete_<Name> change them in one transaction each. Only the resources and operations this caller may use are listed.';

/** The resources the caller may see: those that load, and those that do not with the error a request would get. */
export interface CallerResources {
  readonly resources: ToolResource[];
  readonly unavailable: { readonly name: string; readonly error: CatalogError }[];
}

export async function toolResourcesOf(caller: Caller): Promise<CallerResources> {
  const settings = config();
  const held = await heldBy(caller);
  const entries = await resolveCatalog(held);
  return {
    resources: entries.flatMap((entry) =>
      entry.resource
        ? [{ resource: entry.resource, held: held(entry.name), maxRows: entry.resource.maxRows ?? settings.maxRows }]
        : [],
    ),
    unavailable: entries.flatMap((entry) => (entry.error ? [{ name: entry.name, error: entry.error }] : [])),
  };
}

const uriOf = (name: string, part: 'documentation' | 'openapi') =>
  `rrs://resources/${encodeURIComponent(name)}/${part}`;

export function mcpServerFor(caller: Caller, { resources, unavailable }: CallerResources): Server {
  const server = new Server(serverInfo, {
    capabilities: { tools: {}, resources: {} },
    instructions,
    jsonSchemaValidator: sdkValidator(),
  });
  const tools = toolsFor(resources);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((t) => t.name === request.params.name);
    const action = toolAction(request.params.name, resources);
    if (!tool || !action)
      throw new McpError(
        ErrorCode.InvalidParams,
        `No tool named ${request.params.name} for this caller; see tools/list`,
      );
    return {
      ...(await callTool({ tool, action, args: request.params.arguments ?? {} }, { resources, unavailable }, caller)),
    };
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: resources.flatMap(({ resource }) => [
      {
        uri: uriOf(resource.name, 'documentation'),
        name: `${resource.name} documentation`,
        description: `What ${resource.name} is and its fields`,
        mimeType: 'application/json',
      },
      {
        uri: uriOf(resource.name, 'openapi'),
        name: `${resource.name} OpenAPI`,
        description: `The OpenAPI 3.1 description of /res/${resource.name}, with the operations this caller may use`,
        mimeType: 'application/json',
      },
    ]),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const { uri } = request.params;
    const found = resources.find(({ resource }) =>
      [uriOf(resource.name, 'documentation'), uriOf(resource.name, 'openapi')].includes(uri),
    );
    if (!found) throw new McpError(ErrorCode.InvalidParams, `No resource at ${uri}; see resources/list`);
    const text = uri.endsWith('/openapi')
      ? JSON.stringify(
          buildOpenApi([{ name: found.resource.name, resource: found.resource }], {
            serverUrl: '/',
            granted: caller.signedIn ? () => found.held : undefined,
            maxRows: config().maxRows,
          }),
        )
      : JSON.stringify(describeResource(resources, found.resource.name));
    return { contents: [{ uri, mimeType: 'application/json', text }] };
  });
  return server;
}
