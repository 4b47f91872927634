/** API Gateway → GET /conf/{definition|metadata|documentation|reload}/{name} (spec 4.6, D23). */
import { createHandler } from '../lib/http/create-handler';
import { serveConf } from '../lib/http/serve-conf';

export const handler = createHandler(serveConf);
