/**
 * API Gateway → POST /mcp (the MCP endpoint: tools and resources from the definitions, for AI agents) and GET
 * /.well-known/oauth-protected-resource (where its tokens come from). A 401 points MCP clients to that metadata.
 */
import { createHandler } from '../lib/http/create-handler';
import { mcpAsksToken, protectedResourceUrl, serveMcp } from '../lib/mcp/serve-mcp';

export const handler = createHandler(serveMcp, { signIn: mcpAsksToken, challengeWith: protectedResourceUrl });
