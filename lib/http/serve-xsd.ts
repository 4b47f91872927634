/**
 * GET /xsd/Request.xsd and GET /xsd/Response.xsd: the XML Schemas of request and response documents,
 * as application/xml; any other name under /xsd/ is a 404 naming the path. Serves only the bundled schema text:
 * must not read files or touch the pipeline, so its bundle stays small.
 */
import { NotFoundError } from '../errors';
import { pathOf } from '../routes';
import { requestXsd } from '../xsd/request-xsd';
import { responseXsd } from '../xsd/response-xsd';
import type { HttpRequest } from './from-event';
import { requireGet } from './require-get';
import { type HttpResponse, toResult } from './to-result';

/** A Map, so a name like `constructor` finds nothing. */
const schemas: ReadonlyMap<string, string> = new Map([
  ['Request.xsd', requestXsd],
  ['Response.xsd', responseXsd],
]);

/** Its file takes only the schemas' names (the route table lists them). */
const xsdPath = pathOf('/xsd/{file}');

/** The schemas change only with a deployment. */
const cacheControl = 'public, max-age=3600';

export async function serveXsd(request: HttpRequest): Promise<HttpResponse> {
  const name = xsdPath.match(request.path)?.params.file;
  const schema = name === undefined ? undefined : schemas.get(name);
  if (schema === undefined) {
    throw new NotFoundError(
      'path_not_found',
      `No such path: ${request.path}; the schemas are /xsd/${[...schemas.keys()].join(' and /xsd/')}`,
    );
  }
  requireGet(request.method);
  return toResult(200, 'application/xml', schema, { 'Cache-Control': cacheControl });
}
