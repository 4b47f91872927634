/** API Gateway → GET /xsd/{file}: Request.xsd and Response.xsd, the schemas of XML bodies (spec 1.3). */
import { createHandler } from '../lib/http/create-handler';
import { serveXsd } from '../lib/http/serve-xsd';

export const handler = createHandler(serveXsd);
