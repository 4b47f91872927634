/**
 * The rows of a read as an HTML page, for a browser: one table row per row, a hierarchical row's children in a
 * table inside its last cell; NULL shown as a marked NULL, apart from an empty text; links to the previous and
 * next page (`_limit`, `_offset`, every other query parameter kept as sent), to the resource's documentation and
 * to the explorer. Pure; must not reorder or filter the rows.
 */
import { mapInSlices } from '../map-in-slices';
import type { SqlResource, ValueType } from '../resource';
import { fieldsAt } from '../resource-levels';
import { decodeLenient } from '../text';
import type { OutRow } from '../values';
import { valueText } from './format-value';
import { html, htmlPage, link, resourceNav, scrolling } from './html-page';

/** Where a read's rows came from, for the page's links. */
export interface ReadPage {
  /** The path prefix the service is mounted under ('' or e.g. `/dev`). */
  readonly base: string;
  /** The query string as sent, without `?`. */
  readonly rawQuery: string;
  readonly limit?: number;
  readonly offset?: number;
  /** The rows the database returned: what `_limit` and `_offset` count (one per parent and child pair). */
  readonly rowsRead: number;
}

const nullCell = '<td class="null" title="NULL: no value">NULL</td>';

/** The cells of one row's `labels`, each value as its XML attribute would write it. */
function cells(types: ReadonlyMap<string, ValueType>, labels: readonly string[], values: OutRow['values']): string {
  let out = '';
  for (const label of labels) {
    const text = valueText(types.get(label) ?? 'string', values[label] ?? null);
    out += text === null ? nullCell : `<td>${html(text)}</td>`;
  }
  return out;
}

const headings = (labels: readonly string[]) => labels.map((l) => `<th>${html(l)}</th>`).join('');

/**
 * The rows' table; a hierarchical resource's children in a table in the parent's last cell. Written a slice of rows
 * at a time, as XML and JSON are (serialize-rows), so a page of many rows holds other requests up for a slice only.
 */
async function rowsTable(resource: SqlResource, rows: readonly OutRow[]): Promise<string> {
  const types = new Map(resource.fields.map((f) => [f.label, f.type]));
  const parents = fieldsAt(resource, 'parent').map((f) => f.label);
  const children = resource.kind === 'flat' ? [] : fieldsAt(resource, 'child').map((f) => f.label);
  const childHeading = resource.kind === 'flat' ? '' : `<th>${html(resource.childCollectionName ?? '')}</th>`;
  const childCell = (row: OutRow) => {
    if (resource.kind === 'flat') return '';
    const nested = row.children ?? [];
    if (nested.length === 0) return '<td></td>';
    const inner = nested.map((child) => `<tr>${cells(types, children, child.values)}</tr>`).join('');
    return `<td><table><tr>${headings(children)}</tr>${inner}</table></td>`;
  };
  const writeRow = (row: OutRow) => `<tr>${cells(types, parents, row.values)}${childCell(row)}</tr>`;
  const body = await mapInSlices(rows, writeRow, { weight: (row) => 1 + (row.children?.length ?? 0) });
  return scrolling(`<table><tr>${headings(parents)}${childHeading}</tr>${body.join('')}</table>`);
}

/** The query string as sent with `_limit` and `_offset` set anew (and any `_output`), as a relative link. */
export function pageQuery(rawQuery: string, set: Readonly<Record<string, number | string>>): string {
  const kept = rawQuery.split('&').filter((pair) => pair !== '' && !(decodeLenient(pair.split('=')[0] ?? '') in set));
  return `?${[...kept, ...Object.entries(set).map(([name, value]) => `${name}=${value}`)].join('&')}`;
}

/** Previous and next pages by `_limit`: a next page while the read filled its limit. */
function pagingLinks(page: ReadPage): string {
  const { limit, offset = 0, rawQuery } = page;
  if (limit === undefined || limit === 0) return '';
  const links = [
    ...(offset > 0
      ? [link(pageQuery(rawQuery, { _limit: limit, _offset: Math.max(0, offset - limit) }), '← previous')]
      : []),
    ...(page.rowsRead >= limit
      ? [link(pageQuery(rawQuery, { _limit: limit, _offset: offset + limit }), 'next →')]
      : []),
  ];
  return links.length === 0 ? '' : `<p class="nav">${links.join(' · ')}</p>`;
}

/** How many rows, which of them when paged, and links to the same rows in XML and JSON (and CSV, when flat). */
function summary(resource: SqlResource, rows: readonly OutRow[], page: ReadPage): string {
  const { limit, offset, rowsRead } = page;
  const count = `${rows.length} ${rows.length === 1 ? resource.rowName : resource.collectionName}`;
  // _limit and _offset count a hierarchical read's joined rows, not its parents
  const joined =
    resource.kind === 'flat' ? '' : ` of the joined rows (one per ${resource.rowName} and ${resource.childRowName})`;
  const unpaged = limit === undefined && offset === undefined;
  const from = (offset ?? 0) + 1;
  const range = unpaged || rowsRead === 0 ? '' : `: rows ${from} to ${from + rowsRead - 1}${joined}`;
  const types = resource.kind === 'flat' ? ['xml', 'json', 'csv'] : ['xml', 'json'];
  const as = types.map((type) => link(pageQuery(page.rawQuery, { _output: type }), type.toUpperCase()));
  return `<p>${html(count)}${range}. The same as ${as.slice(0, -1).join(', ')} or ${as.at(-1)}.</p>`;
}

export async function rowsHtml(resource: SqlResource, rows: readonly OutRow[], page: ReadPage): Promise<string> {
  const paging = pagingLinks(page);
  const body = [
    `<h1>${html(resource.name)}</h1>${resourceNav(page.base, resource.name, 'res')}`,
    summary(resource, rows, page),
    paging,
    rows.length === 0 ? '<p>No rows.</p>' : await rowsTable(resource, rows),
    paging,
  ].join('');
  return htmlPage(resource.name, page.base, body);
}
