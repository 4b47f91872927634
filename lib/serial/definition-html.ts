/**
 * A definition file as an HTML page (/conf/definition for a browser): the file exactly as stored, its XML
 * highlighted, and the text of its `<query>` element highlighted as SQL. Highlighting is highlight.js's core with
 * only its XML and SQL grammars (about 29 kB of the minified bundle), run here so the page needs no script; only the conf function imports
 * this module, so the /res functions' bundles stay without it. Pure.
 */
import { html, htmlPage, resourceNav } from './html-page';

/** The part of highlight.js used here. */
interface Highlighter {
  registerLanguage(name: string, language: unknown): void;
  highlight(code: string, options: { language: string }): { value: string };
}

// required, not imported: highlight.js's type declarations pull the DOM library into the whole program, whose
// ReadableStream (fetch's body) is then not async-iterable in Node code
const hljs = require('highlight.js/lib/core') as Highlighter;
hljs.registerLanguage('xml', require('highlight.js/lib/languages/xml'));
hljs.registerLanguage('sql', require('highlight.js/lib/languages/sql'));

/** The `<query>` element's content (any namespace prefix), between its tags: the first one, as the service reads it. */
const queryElement = /(<((?:[\w.-]+:)?query)(?:\s[^>]*)?>)([\s\S]*?)(<\/\2\s*>)/;

const highlighted = (text: string, language: 'xml' | 'sql') => hljs.highlight(text, { language }).value;

/** The file's text highlighted, the query's text as SQL (as written: its entities stay as they are in the file). */
export function highlightDefinition(text: string): string {
  const match = queryElement.exec(text);
  if (!match) return highlighted(text, 'xml');
  const [whole, open = '', , query = '', close = ''] = match;
  const before = text.slice(0, match.index) + open;
  const after = close + text.slice(match.index + whole.length);
  return `${highlighted(before, 'xml')}${highlighted(query, 'sql')}${highlighted(after, 'xml')}`;
}

/** `base`: the path prefix the service is mounted under ('' or e.g. `/dev`). */
export function definitionHtml(name: string, text: string, base: string): string {
  const body = [
    `<h1>${html(name)}: definition</h1>${resourceNav(base, name, 'definition')}`,
    `<pre><code>${highlightDefinition(text)}</code></pre>`,
  ].join('');
  return htmlPage(`${name}: definition`, base, body);
}
