/**
 * The resource listing of GET /res: every definition with its kind, row and collection names and links to
 * its /res and /conf paths; a definition that fails to load shows its error (status, code, text) instead. XML,
 * JSON, or HTML for browsers. Pure; must not resolve anything: it is given what resolving gave.
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { SqlResource } from '../resource';
import type { OutputType } from '../values';
import { html, htmlPage, link, resourceLinks, scrolling } from './html-page';

/** What loading one definition gave: the resource, or the error a request to it would answer with. */
export type CatalogEntry =
  | { readonly name: string; readonly resource: SqlResource; readonly error?: undefined }
  | { readonly name: string; readonly resource?: undefined; readonly error: CatalogError };

export interface CatalogError {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

export interface ListedResource {
  readonly name: string;
  readonly kind?: SqlResource['kind'];
  readonly rowName?: string;
  readonly collectionName?: string;
  readonly childRowName?: string;
  readonly childCollectionName?: string;
  readonly links: {
    readonly res: string;
    readonly definition: string;
    readonly metadata: string;
    readonly documentation: string;
  };
  readonly error?: CatalogError;
  /** With sign-in: what the caller may do with it (select, insert, update, delete), space-separated. */
  readonly privileges?: string;
}

/**
 * `base` is the path prefix the service is mounted under ('' or e.g. `/dev`); `held`, given with sign-in, the
 * privileges the caller holds on a resource.
 */
export function listingOf(
  entries: readonly CatalogEntry[],
  base: string,
  held?: (name: string) => readonly string[],
): ListedResource[] {
  return entries.map((entry) => {
    const privileges = held ? { privileges: held(entry.name).join(' ') } : {};
    const links = resourceLinks(base, entry.name);
    if (entry.error) return { name: entry.name, links, error: entry.error, ...privileges };
    const r = entry.resource;
    return {
      name: entry.name,
      kind: r.kind,
      rowName: r.rowName,
      collectionName: r.collectionName,
      ...(r.childRowName ? { childRowName: r.childRowName, childCollectionName: r.childCollectionName } : {}),
      ...privileges,
      links,
    };
  });
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', suppressEmptyNode: true });

const attributes = (o: object) => Object.fromEntries(Object.entries(o).map(([k, v]) => [`@${k}`, String(v)]));

/** `<resources><resource name kind ...><links res=... /><error status code>text</error></resource></resources>` */
function listingXml(listing: readonly ListedResource[]): string {
  const resource = listing.map(({ links, error, ...scalars }) => ({
    ...attributes(scalars),
    links: attributes(links),
    ...(error ? { error: { '@status': String(error.status), '@code': error.code, '#text': error.message } } : {}),
  }));
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build({ resources: { resource } })}`;
}

export function serializeListing(listing: readonly ListedResource[], type: OutputType): string {
  return type === 'application/json' ? JSON.stringify({ resources: listing }) : listingXml(listing);
}

function htmlRow(r: ListedResource): string {
  const names = r.childRowName
    ? `${r.rowName} (${r.collectionName}) / ${r.childRowName} (${r.childCollectionName})`
    : `${r.rowName ?? ''} (${r.collectionName ?? ''})`;
  const what = r.error
    ? `<td colspan="2" class="error">${r.error.status} ${html(r.error.code)}: ${html(r.error.message)}</td>`
    : `<td>${html(r.kind ?? '')}</td><td>${html(names)}</td>`;
  const links = [
    link(r.links.res, 'rows'),
    link(r.links.definition, 'definition'),
    link(r.links.metadata, 'metadata'),
    link(r.links.documentation, 'documentation'),
  ].join(' · ');
  return `<tr><td><code>${html(r.name)}</code></td>${what}<td>${links}</td></tr>`;
}

/** `base`: the path prefix the service is mounted under, as for listingOf. */
export function listingHtml(listing: readonly ListedResource[], base: string): string {
  const table = [
    '<table><tr><th>name</th><th>kind</th><th>rows (collection)</th><th>links</th></tr>',
    listing.map(htmlRow).join(''),
    '</table>',
  ].join('');
  const intro = `${listing.length} resource(s). Each has its rows, its documentation, its definition and what the service resolved from it (metadata); the ${link(`${base}/explorer`, 'explorer')} tries requests, and the ${link(`${base}/openapi.json`, 'OpenAPI document')} describes them all.`;
  return htmlPage('SQL resources', base, `<h1>SQL resources</h1><p>${intro}</p>${scrolling(table)}`);
}
