/** API Gateway → the /res pipeline; routed to this function for PUT (see serverless.yml). */
import { resourceHandler } from '../lib/http/create-handler';

export const handler = resourceHandler();
