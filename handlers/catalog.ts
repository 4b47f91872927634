/** API Gateway → GET /res (the resource listing) and GET /openapi.json (the OpenAPI 3.1 document) (D24). */
import { createHandler } from '../lib/http/create-handler';
import { serveCatalog } from '../lib/http/serve-catalog';

export const handler = createHandler(serveCatalog);
