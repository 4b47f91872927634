/**
 * An XML request body (D13) → rows: root `request`, row elements named by the resource (its row names, or its
 * tables' names), attributes as the
 * values, kept exactly as written (entities decoded, no trimming, no number parsing). XML cannot express NULL
 * (D10), so every value is a string. Pure; must not parse XML by hand: fast-xml-parser validates and reads it.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { BadRequestError } from '../errors';
import type { BodyRow } from '../request/resource-request';
import type { BodyNames } from './types';

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

interface Element {
  readonly name: string;
  readonly node: XmlNode;
}

export function parseXmlBody(text: string, names: BodyNames, shape: 'parents' | 'children'): BodyRow[] {
  const request = readRequest(text);
  const rowNames = elementNames(names.rowName, names.rowTable);
  const childNames = names.childRowName === undefined ? undefined : elementNames(names.childRowName, names.childTable);
  if (shape === 'parents') return elementsIn(request, rowNames).map((row) => parentRow(row, childNames));
  if (childNames === undefined) throw noChildRows();
  return elementsIn(request, childNames).map(leafRow);
}

/** A row element is named by its row name, or by its table's name as restSQL clients write it (D13). */
function elementNames(rowName: string, table: string | undefined): string[] {
  return table === undefined || table === rowName ? [rowName] : [rowName, table];
}

/** In a hierarchical body, child rows are nested in their parent's element. */
function parentRow(row: Element, childNames: readonly string[] | undefined): BodyRow {
  if (childNames === undefined) return leafRow(row);
  const values = attributesOf(row.node);
  const children = elementsIn(row, childNames).map(leafRow);
  return children.length === 0 ? { values } : { values, children };
}

/** A row that may hold nothing but its attributes: children cannot nest further. */
function leafRow(row: Element): BodyRow {
  elementsIn(row, []);
  return { values: attributesOf(row.node) };
}

/** The one `request` element of a well-formed document. */
function readRequest(text: string): Element {
  if (text.trim() === '') throw new BadRequestError('bad_body', 'The XML body is empty');
  const validation = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (validation !== true) {
    const { msg, line, col } = validation.err;
    const where = col === undefined ? `line ${line}` : `line ${line}, column ${col}`;
    throw new BadRequestError('bad_body', `The XML body is malformed at ${where}: ${msg}`);
  }
  const roots = parse(text)
    .map(toElement)
    .filter((element) => element.name !== '#text');
  const [root, extra] = roots;
  if (root === undefined || extra !== undefined) {
    throw new BadRequestError('bad_body', `The XML body must have one root element, request; it has ${roots.length}`);
  }
  if (root.name !== 'request') {
    throw new BadRequestError('bad_body', `The XML body's root element is ${root.name}; expected request`);
  }
  return root;
}

/** The parser refuses some inputs the validator lets through (names like `__proto__`, very deep nesting). */
function parse(text: string): XmlNode[] {
  try {
    return parser.parse(text) as XmlNode[];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BadRequestError('bad_body', `The XML body cannot be read: ${reason}`);
  }
}

/** The element children of `parent`, each checked against `allowed`; non-blank text is refused. */
function elementsIn(parent: Element, allowed: readonly string[]): Element[] {
  const content = parent.node[parent.name];
  const found: Element[] = [];
  for (const child of Array.isArray(content) ? (content as XmlNode[]).map(toElement) : []) {
    if (child.name === '#text') {
      const value = String(child.node['#text']);
      if (value.trim() !== '') throw strayText(value, parent.name);
    } else if (allowed.includes(child.name)) {
      found.push(child);
    } else {
      throw unexpectedElement(child.name, parent.name, allowed);
    }
  }
  return found;
}

function toElement(node: XmlNode): Element {
  return { name: Object.keys(node).find((key) => key !== ':@') ?? '', node };
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

function unexpectedElement(name: string, parent: string, allowed: readonly string[]): BadRequestError {
  const expected = allowed.length === 0 ? 'no elements are allowed there' : `expected ${allowed.join(' or ')}`;
  return new BadRequestError('bad_body', `The XML body has an element ${name} inside ${parent}; ${expected}`);
}

function strayText(text: string, parent: string): BadRequestError {
  const shown = text.trim().length > 40 ? `${text.trim().slice(0, 40)}...` : text.trim();
  return new BadRequestError(
    'bad_body',
    `The XML body has text "${shown}" inside ${parent}; only elements and attributes are allowed`,
  );
}

function noChildRows(): BadRequestError {
  return new BadRequestError('bad_body', 'The body lists child rows, but this resource has no child rows');
}
