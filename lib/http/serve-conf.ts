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
import { MethodNotAllowedError, NotFoundError } from '../errors';
import { parseQuery } from '../request/parse-query';
import { pathOf } from '../routes';
import { documentationHtml, documentationOf, documentationXml } from '../serial/serialize-documentation';
import { serializeMetadata } from '../serial/serialize-metadata';
import { decodeLenient } from '../text';
import type { HttpRequest } from './from-event';
import { negotiateResponse, prefersHtml } from './negotiate';
import { type HttpResponse, toResult } from './to-result';

/** Its `what` takes only definition, metadata, documentation and reload (the route table lists them). */
const confPath = pathOf('/conf/{what}/{resName}');

export async function serveConf(request: HttpRequest, caller: Caller): Promise<HttpResponse> {
  const { what, resName: rawName = '' } = confPath.match(request.path)?.params ?? {};
  if (what === undefined)
    throw new NotFoundError(
      'path_not_found',
      `No such path: ${request.path}; see /conf/{definition|metadata|documentation|reload}/{name}`,
    );
  if (request.method !== 'GET') throw new MethodNotAllowedError(request.method, ['GET']);
  const name = decodeLenient(rawName);
  const settings = config();
  if (what === 'reload') requireRole(caller, settings.authAdminRole, `reload ${name}`);
  else if (caller.signedIn) authorize(caller, await privilegesOf(settings), name, 'select');
  const query = parseQuery(request.rawQuery, 'PUT');
  switch (what) {
    case 'definition': {
      const stored = await definitionSource(settings).read(name);
      return toResult(200, 'application/xml', stored.xml, { 'Cache-Control': 'no-cache' });
    }
    case 'reload': {
      reloadResource(settings, name);
      forgetPrivileges();
      await resolveResource(settings, name);
      return toResult(200, 'text/plain; charset=utf-8', `Reload of ${name} succeeded`, { 'Cache-Control': 'no-store' });
    }
    case 'metadata': {
      const output = negotiateResponse(request.headers.accept, query.output);
      const { resource } = await resolveResource(settings, name);
      return toResult(200, output, serializeMetadata(resource, output), { 'Cache-Control': 'no-cache' });
    }
    default: {
      const html = !query.output && prefersHtml(request.headers.accept);
      const output = html ? undefined : negotiateResponse(request.headers.accept, query.output);
      const doc = documentationOf((await resolveResource(settings, name)).resource);
      if (html)
        return toResult(200, 'text/html; charset=utf-8', documentationHtml(doc), { 'Cache-Control': 'no-cache' });
      const body = output === 'application/json' ? JSON.stringify(doc) : documentationXml(doc);
      return toResult(200, output ?? 'application/xml', body, { 'Cache-Control': 'no-cache' });
    }
  }
}
