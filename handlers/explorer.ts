/**
 * API Gateway → GET /explorer (the API explorer's page) and GET /explorer/{file} (the Swagger UI files it loads);
 * no token asked for: the page asks the person for one, and loads /openapi.json with it.
 */
import { createHandler } from '../lib/http/create-handler';
import { serveExplorer } from '../lib/http/serve-explorer';

export const handler = createHandler(serveExplorer, { signIn: false });
