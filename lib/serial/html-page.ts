/**
 * The frame every HTML page of the service shares: a header linking the resources, the explorer and the OpenAPI
 * document, one small stylesheet written into the page (no page loads anything, from the service or elsewhere),
 * a viewport for narrow screens, and the escaping every value goes through. Links start with `base`, the path
 * prefix the service is mounted under ('' or e.g. `/dev`), so they work behind an API Gateway stage. Pure.
 */
import { escapeHtml } from '../text';

export const htmlType = 'text/html; charset=utf-8';

/** Element content and quoted attribute values. */
export const html = escapeHtml;

export const link = (href: string, text: string): string => `<a href="${html(href)}">${html(text)}</a>`;

/** The paths of one resource, as the listing and every page of a resource link them. */
export function resourceLinks(base: string, name: string) {
  const path = encodeURIComponent(name);
  return {
    res: `${base}/res/${path}`,
    definition: `${base}/conf/definition/${path}`,
    metadata: `${base}/conf/metadata/${path}`,
    documentation: `${base}/conf/documentation/${path}`,
  };
}

/** One line of links to a resource's other pages, and the explorer; `here` is left out. */
export function resourceNav(base: string, name: string, here: keyof ReturnType<typeof resourceLinks>): string {
  const links = resourceLinks(base, name);
  const texts = { res: 'rows', documentation: 'documentation', definition: 'definition', metadata: 'metadata' };
  const items = (Object.keys(texts) as (keyof typeof texts)[])
    .filter((key) => key !== here)
    .map((key) => link(links[key], texts[key]));
  return `<p class="nav">${[...items, link(`${base}/explorer`, 'try it in the explorer')].join(' · ')}</p>`;
}

/** A table that scrolls sideways on its own on a narrow screen, rather than the whole page. */
export const scrolling = (table: string): string => `<div class="scroll">${table}</div>`;

// the hljs-* rules colour the highlighted definition (definition-html.ts); a few bytes on the other pages
const style = [
  'body{font-family:system-ui,sans-serif;line-height:1.4;color:#222;margin:0}',
  'header{background:#234;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.3rem 1.2rem}',
  'header a,header b{color:#fff;text-decoration:none}header b{flex-basis:auto;margin-right:.8rem}main{max-width:72rem;margin:0 auto;padding:.5rem 1rem 2rem}',
  'a{color:#15c}h1{font-size:1.5rem;overflow-wrap:anywhere}.nav{margin:.3rem 0 1rem}',
  '.scroll{overflow-x:auto}table{border-collapse:collapse;margin:.5rem 0}',
  'td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}th{background:#f3f5f7}',
  'td table{margin:0}.null{color:#888;font-style:italic}.error{color:#a00}',
  'pre{background:#f6f8fa;padding:.8rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}',
  'code{font-family:ui-monospace,monospace}',
  '.hljs-keyword,.hljs-name{color:#a626a4}.hljs-string{color:#50a14f}.hljs-comment{color:#888;font-style:italic}',
  '.hljs-attr,.hljs-type{color:#986801}.hljs-number,.hljs-literal{color:#0184bb}.hljs-meta,.hljs-symbol{color:#4078f2}',
].join('');

/** A whole page: `body` is HTML already escaped, `title` is text. */
export function htmlPage(title: string, base: string, body: string): string {
  return [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
    // an empty icon: without one a browser asks for /favicon.ico, which the service does not have (a 404)
    '<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">',
    `<title>${html(title)}</title><style>${style}</style></head><body><header><b>Relational Resource Service</b>`,
    `${link(`${base}/res`, 'Resources')}${link(`${base}/explorer`, 'Explorer')}`,
    `${link(`${base}/openapi.json`, 'OpenAPI document')}</header><main>${body}</main></body></html>`,
  ].join('');
}
