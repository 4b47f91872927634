/**
 * The checked reader of XML request bodies: a well-formed document whose one root is `request`, attributes kept
 * exactly as written (entities decoded, no trimming, no number parsing), text other than whitespace refused.
 * fast-xml-parser's validator checks the document and names the first error with its line and column. It is the
 * reference for what a body means: read-xml-body.ts answers with it whenever its faster reader is not sure to give
 * the same answer. XML cannot express NULL, so every value is a string. Pure; must not parse XML by hand.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { BadRequestError } from '../errors';
import { lineAndColumn } from '../text';
import type { XmlElement } from './resource-request';

/** An element in fast-xml-parser's ordered shape: `{ name: children, ':@': attributes }`, or `{ '#text': text }`. */
type XmlNode = Record<string, unknown>;

/**
 * Ordered mode so repeated rows stay one list in document order; attribute values stay strings, untrimmed;
 * `htmlEntities` because only with it does fast-xml-parser decode numeric references (`&#10;`); declarations,
 * processing instructions and comments carry no rows and are dropped. Names like `toString` are kept as
 * written (the default renames them `__toString`): in ordered mode they are only keys read with Object.entries,
 * never methods called; `__proto__`, `constructor` and `prototype` are still refused by the parser.
 */
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  allowBooleanAttributes: false,
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
  removeNSPrefix: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  onDangerousProperty: (name) => name,
});

/** The `request` element of a well-formed document, with its element tree. */
export function readXmlChecked(text: string): XmlElement {
  if (text.trim() === '') throw new BadRequestError('bad_body', 'The XML body is empty');
  checkMarkup(text);
  const validation = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (validation !== true) {
    const { msg, line, col } = validation.err;
    const where = col === undefined ? `line ${line}` : `line ${line}, column ${col}`;
    throw new BadRequestError('bad_body', `The XML body is malformed at ${where}: ${msg}`);
  }
  const roots = parse(text).filter((node) => nameOf(node) !== '#text');
  const [root, extra] = roots;
  if (root === undefined || extra !== undefined) {
    throw new BadRequestError('bad_body', `The XML body must have one root element, request; it has ${roots.length}`);
  }
  const name = nameOf(root);
  if (name !== 'request') {
    throw new BadRequestError('bad_body', `The XML body's root element is ${name}; expected request`);
  }
  return toElement(root);
}

/** The references XML itself defines; any other name would need a DTD, which a body may not have. */
const predefined = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);

/** The characters XML 1.0 allows, so the code points a character reference may name. */
function isXmlCharacter(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/**
 * A body declares no DOCTYPE (no DTD, so no entity of its own: no entity expansion, no external entity) and
 * uses only the five predefined entities and character references to XML characters. Comments, CDATA sections
 * and processing instructions are blanked first, because `&` and `<!DOCTYPE` are plain text inside them.
 */
function checkMarkup(text: string): void {
  const blank = (part: string) => part.replace(/[^\n]/g, ' ');
  const markup = text.replace(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>/g, blank);
  const doctype = /<!DOCTYPE/i.exec(markup);
  if (doctype) {
    throw new BadRequestError(
      'bad_body',
      `The XML body declares a DOCTYPE at ${lineAndColumn(text, doctype.index)}; request bodies may not declare one`,
    );
  }
  for (const ref of markup.matchAll(/&([^;&<>"'\s]*);?/g)) {
    const [whole, name = ''] = ref;
    if (whole.endsWith(';') && (predefined.has(name) || isCharacterReference(name))) continue;
    throw new BadRequestError(
      'bad_body',
      `The XML body uses ${JSON.stringify(whole)} at ${lineAndColumn(text, ref.index ?? 0)}, which is no reference XML defines; only &amp; &lt; &gt; &quot; &apos; and character references to XML characters (&#65; &#x41;) are allowed`,
    );
  }
}

function isCharacterReference(name: string): boolean {
  const m = /^#(?:([0-9]+)|x([0-9a-fA-F]+))$/.exec(name);
  if (!m) return false;
  const code = m[1] !== undefined ? Number(m[1]) : Number.parseInt(m[2] as string, 16);
  return isXmlCharacter(code);
}

/** The parser refuses some inputs the validator lets through (names like `__proto__`, very deep nesting). */
function parse(text: string): XmlNode[] {
  try {
    return parser.parse(text) as XmlNode[];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BadRequestError('bad_body', `The XML body cannot be read: ${reason}`, error);
  }
}

function nameOf(node: XmlNode): string {
  return Object.keys(node).find((key) => key !== ':@') ?? '';
}

function toElement(node: XmlNode): XmlElement {
  const name = nameOf(node);
  const content = node[name];
  const children: XmlElement[] = [];
  for (const child of Array.isArray(content) ? (content as XmlNode[]) : []) {
    if (nameOf(child) !== '#text') children.push(toElement(child));
    else if (String(child['#text']).trim() !== '') {
      throw new BadRequestError('bad_body', strayText(String(child['#text']), name));
    }
  }
  return { name, attributes: attributesOf(node), children };
}

/** Namespace declarations are not values. */
function attributesOf(node: XmlNode): Record<string, string> {
  const attributes = (node[':@'] ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(attributes)
      .filter(([name]) => name !== 'xmlns' && !name.startsWith('xmlns:'))
      .map(([name, value]) => [name, String(value)]),
  );
}

/** Text other than whitespace, inside `parent` (or outside the root), and where when known. */
export function strayText(text: string, parent: string | undefined, where?: string): string {
  const shown = text.trim().length > 40 ? `${text.trim().slice(0, 40)}...` : text.trim();
  const inside = parent === undefined ? 'outside the root element' : `inside ${parent}`;
  return `The XML body has text "${shown}" ${inside}${where === undefined ? '' : ` at ${where}`}; only elements and attributes are allowed`;
}
