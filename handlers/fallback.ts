/** API Gateway → 405 with Allow for other methods on /res paths, 404 for any other path. */
import { createHandler, serveFallback } from '../lib/http/create-handler';

export const handler = createHandler(serveFallback);
