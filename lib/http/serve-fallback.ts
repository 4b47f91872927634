/**
 * Everything API Gateway routes to no other function: 405 (with Allow) on the service's paths for a method
 * they do not serve, 404 elsewhere. The gateway (and the server mode's route table) match a route from the
 * start of the path to its end, so this judges the path the same way: `/x/res/Book` or `/openapi.json/` is no
 * path of the service, whatever it ends or starts with. (A handler the gateway did route to may see a custom
 * domain's mapping key before its path; the fallback cannot tell one from a stray prefix, and says 404.)
 * Imports nothing of the pipeline, so its bundle stays small.
 */
import { MethodNotAllowedError, NotFoundError } from '../errors';
import { methodsServed } from '../routes';
import type { HttpRequest } from './from-event';
import type { HttpResponse } from './to-result';

export async function serveFallback(request: HttpRequest): Promise<HttpResponse> {
  const allowed = methodsServed(request.path);
  throw allowed
    ? new MethodNotAllowedError(request.method, allowed)
    : new NotFoundError('path_not_found', `No such path: ${request.path}; resources live under /res/{name}`);
}
