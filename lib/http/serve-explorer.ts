/**
 * GET /explorer: the API explorer, a page that shows the OpenAPI document (/openapi.json) with Swagger UI, where a
 * person can read every operation and send requests from the browser; GET /explorer/{file}: the Swagger UI files
 * the page loads, served from the bundle (lib/http/explorer-asset.ts), never from a CDN. No token is asked for:
 * with sign-in on the page asks the person to paste one and loads the document with it, so it shows only what
 * the token's roles may use, and sends the token with every request tried from the page. Touches no database and
 * no definition, so its function's bundle has no database driver: the handler's edges and the Swagger UI files.
 */
import { signInAsked } from '../config';
import { NotFoundError } from '../errors';
import { pathOf } from '../routes';
import { escapeHtml } from '../text';
import { explorerAsset } from './explorer-asset';
import type { HttpRequest } from './from-event';
import { requireGet } from './require-get';
import { type HttpResponse, toResult } from './to-result';

const pagePath = pathOf('/explorer');
const assetPath = pathOf('/explorer/{file}');

/** The page says which Swagger UI it loads, so a new one is a new URL: the files themselves may be kept a year. */
const swaggerUiVersion: string = require('swagger-ui-dist/package.json').version;
const assetCacheControl = 'public, max-age=31536000, immutable';

/** The type of each file the route serves (lib/routes.json lists the same names); a Map, so `constructor` is none. */
const assetTypes: ReadonlyMap<string, string> = new Map([
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['swagger-ui.css', 'text/css; charset=utf-8'],
]);

/** Each file once, without its source map comment: the maps are not served, and a browser would ask for them. */
const assets = new Map<string, string>();
function assetText(name: string): string {
  let text = assets.get(name);
  if (text === undefined) {
    text = explorerAsset(name).replace(/\n?\/[*/]# sourceMappingURL=\S+(?: \*\/)?\s*$/, '\n');
    assets.set(name, text);
  }
  return text;
}

export async function serveExplorer(request: HttpRequest): Promise<HttpResponse> {
  const page = pagePath.match(request.path);
  const asset = page ? undefined : assetOf(request.path);
  if (!page && !asset) throw new NotFoundError('path_not_found', `No such path: ${request.path}; see /explorer`);
  requireGet(request.method);
  if (!asset) {
    const html = explorerPage(page?.prefix ?? '', signInAsked());
    return toResult(200, 'text/html; charset=utf-8', html, { 'Cache-Control': 'no-cache' });
  }
  return toResult(200, asset.type, assetText(asset.name), { 'Cache-Control': assetCacheControl });
}

/** The file a path names, with its type; undefined for any other path. */
function assetOf(rawPath: string): { readonly name: string; readonly type: string } | undefined {
  const name = assetPath.match(rawPath)?.params.file;
  const type = name === undefined ? undefined : assetTypes.get(name);
  return name === undefined || type === undefined ? undefined : { name, type };
}

/** The page: a bar with the service's links and the token field, then Swagger UI, started by `pageScript`. */
export function explorerPage(base: string, signIn: boolean): string {
  const at = escapeHtml(base);
  const version = encodeURIComponent(swaggerUiVersion);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API explorer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${at}/explorer/swagger-ui.css?v=${version}">
<style>${pageStyle}</style>
</head>
<body data-base="${at}" data-sign-in="${signIn}">
<header class="rrs-bar">
<nav><b>Relational Resource Service</b> <a href="${at}/res">Resources</a> <a href="${at}/explorer" aria-current="page">Explorer</a> <a href="${at}/openapi.json">OpenAPI document</a></nav>
<form id="rrs-token"${signIn ? '' : ' hidden'}>
<label>Bearer token <input name="token" type="password" autocomplete="off" spellcheck="false" placeholder="paste a token"></label>
<button type="submit">Use token</button>
</form>
<p id="rrs-status" role="status"></p>
</header>
<main id="rrs-explorer"></main>
<script src="${at}/explorer/swagger-ui-bundle.js?v=${version}"></script>
<script>${pageScript}</script>
</body>
</html>
`;
}

const pageStyle = `
body { margin: 0; font-family: system-ui, sans-serif; }
.rrs-bar { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .6rem 1rem;
  background: #234; color: #fff; }
.rrs-bar nav { display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; }
.rrs-bar a { color: #fff; text-decoration: none; white-space: nowrap; }
.rrs-bar a[aria-current] { text-decoration: underline; }
.rrs-bar b { margin-right: .8rem; }
.rrs-bar form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.rrs-bar [hidden] { display: none; }
.rrs-bar input { width: min(28rem, 70vw); font: inherit; padding: .2rem .4rem; }
.rrs-bar p { margin: 0; }
.rrs-bar p:empty { display: none; }
`;

/**
 * Loads the OpenAPI document (with the pasted token, when there is one) and gives it to Swagger UI, which sends the
 * same token with each request tried from the page. With sign-in on and no token yet it only asks for one: the
 * document would be a 401. The token stays in the page's memory: a reload forgets it.
 */
const pageScript = `
(() => {
  const base = document.body.dataset.base;
  const signIn = document.body.dataset.signIn === 'true';
  const form = document.getElementById('rrs-token');
  const status = document.getElementById('rrs-status');
  let token = '';
  const withToken = (headers) => (token ? { ...headers, Authorization: 'Bearer ' + token } : headers);
  async function load() {
    // a fresh mount for each document: what the last token could see goes as soon as another is pasted
    const mount = document.createElement('div');
    document.getElementById('rrs-explorer').replaceChildren(mount);
    if (signIn && !token) {
      status.textContent = 'Sign-in is on: paste a bearer token to see what its roles may use.';
      return;
    }
    const response = await fetch(base + '/openapi.json', { headers: withToken({ Accept: 'application/json' }) });
    if (!response.ok) {
      status.textContent = 'The OpenAPI document did not load: ' + response.status + ' ' + (await response.text());
      return;
    }
    status.textContent = token ? 'Showing what this token may use; it is sent with each request tried here.' : '';
    SwaggerUIBundle({
      spec: await response.json(),
      domNode: mount,
      validatorUrl: null,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      requestInterceptor: (request) => {
        if (token && !request.headers.Authorization) request.headers.Authorization = 'Bearer ' + token;
        return request;
      },
    });
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    token = form.elements.token.value.trim();
    load();
  });
  load();
})();
`;
