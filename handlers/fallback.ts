/** API Gateway → 405 with Allow for other methods on /res paths, 404 for any other path. */
import { createHandler } from '../lib/http/create-handler';
import { serveFallback } from '../lib/http/serve-fallback';

export const handler = createHandler(serveFallback);
