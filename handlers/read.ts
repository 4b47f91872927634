/** API Gateway → the /res pipeline; routed to this function for GET (see serverless.yml). */
import { createHandler } from '../lib/http/create-handler';
import { serveResource } from '../lib/pipeline';

export const handler = createHandler(serveResource);
