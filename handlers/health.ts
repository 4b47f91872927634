/** API Gateway → GET /health (liveness) and GET /health/db (each database answers); no token asked for. */
import { createHandler } from '../lib/http/create-handler';
import { serveHealth } from '../lib/http/serve-health';

export const handler = createHandler(serveHealth, { signIn: false });
