/**
 * The definition and maintenance paths: GET /conf/{definition|metadata|documentation|reload}/{name}.
 * With sign-in, the first three need the select privilege on the resource and reload the admin role, checked
 * before anything is read. An unknown name is the unknown-resource 404 on every one of them; a definition that
 * fails to load answers as /res would.
 */
import { authorize, requireRole } from '../auth/authorize';
import type { Caller } from '../auth/caller';
import { forgetPrivileges, privilegesOf } from '../auth/privileges-store';
import { config } from '../config';
import { definitionSource, reloadResource, resolveResource } from '../definitions/resolve-resource';
import { NotFoundError } from '../errors';
import { parseQuery } from '../request/parse-query';
import type { SqlResource } from '../resource';
import { pathOf } from '../routes';
import { definitionHtml } from '../serial/definition-html';
import { htmlType } from '../serial/html-page';
import { documentationHtml, documentationOf, documentationXml } from '../serial/serialize-documentation';
import { metadataHtml, serializeMetadata } from '../serial/serialize-metadata';
import { decodeLenient } from '../text';
import type { HttpRequest } from './from-event';
import { negotiatePage, type PageRepresentation, prefersHtml } from './negotiate';
import { requireGet } from './require-get';
import { type HttpResponse, toResult, varyByAccept } from './to-result';

/** Its `what` takes only definition, metadata, documentation and reload (the route table lists them). */
const confPath = pathOf('/conf/{what}/{resName}');

export async function serveConf(request: HttpRequest, caller: Caller): Promise<HttpResponse> {
  const { what, resName: rawName = '' } = confPath.match(request.path)?.params ?? {};
  if (what === undefined)
    throw new NotFoundError(
      'path_not_found',
      `No such path: ${request.path}; see /conf/{definition|metadata|documentation|reload}/{name}`,
    );
  requireGet(request.method);
  const name = decodeLenient(rawName);
  const settings = config();
  if (what === 'reload') requireRole(caller, settings.authAdminRole, `reload ${name}`);
  else if (caller.signedIn) authorize(caller, await privilegesOf(settings), name, 'select');
  const query = parseQuery(request.rawQuery, 'PUT');
  if (what === 'reload') {
    reloadResource(settings, name);
    forgetPrivileges();
    await resolveResource(settings, name);
    return toResult(200, 'text/plain; charset=utf-8', `Reload of ${name} succeeded`, { 'Cache-Control': 'no-store' });
  }
  const base = confPath.match(request.path)?.prefix ?? '';
  const headers = { 'Cache-Control': 'no-cache', ...varyByAccept };
  if (what === 'definition') {
    // the file as stored, XML whatever the Accept; a browser sees it highlighted
    const { xml } = await definitionSource(settings).read(name);
    if (!query.output && prefersHtml(request.headers.accept))
      return toResult(200, htmlType, definitionHtml(name, xml, base), headers);
    return toResult(200, 'application/xml', xml, headers);
  }
  const output = negotiatePage(request.headers.accept, query.output);
  const { resource } = await resolveResource(settings, name);
  return toResult(200, output, describedBy(what, resource, output, base), headers);
}

/** The metadata or the documentation of a resource, in the representation negotiated. */
function describedBy(what: string, resource: SqlResource, output: PageRepresentation, base: string): string {
  if (what === 'metadata')
    return output === htmlType ? metadataHtml(resource, base) : serializeMetadata(resource, output);
  const doc = documentationOf(resource);
  if (output === htmlType) return documentationHtml(doc, base);
  return output === 'application/json' ? JSON.stringify(doc) : documentationXml(doc);
}
