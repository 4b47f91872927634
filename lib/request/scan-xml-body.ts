/**
 * The fast reader of XML request bodies: saxes, a conformant streaming XML 1.0 tokenizer, builds the element tree
 * of the text slice by slice. It returns a tree only where the checked reader (read-xml-checked.ts) is sure to
 * return the same one; it declines everything else — malformed XML (but for a `--` in a comment, which both read
 * alike), any text, a DOCTYPE, and the few things the two readers treat differently — and then the checked reader
 * answers (read-xml-body.ts). So it never names an error itself. Pure; must not parse XML by hand.
 */
import { SaxesParser } from 'saxes';
import { lineAndColumn } from '../text';
import { strayText } from './read-xml-checked';
import type { XmlElement } from './resource-request';

/**
 * Element and attribute names that both readers take alike: XML names within the Basic Multilingual Plane, as
 * fast-xml-parser's validator takes them (saxes takes names beyond it too).
 */
const nameStart =
  ':A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD';
const plainName = new RegExp(`^[${nameStart}][${nameStart}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040]*$`);
/** Names fast-xml-parser refuses, for the prototype pollution they could cause. */
const refusedNames = new Set(['__proto__', 'constructor', 'prototype']);
/** fast-xml-parser refuses more than 100 nested elements; the planner refuses more than 3. */
const maxDepth = 50;
/** fast-xml-parser leaves a reference of more than 32 characters undecoded; saxes decodes it. */
const longReference = /&#[^;]{20}/;
/**
 * A tab or line break written as such in a value: saxes turns it into a space (as XML says); fast-xml-parser keeps
 * it, a CRLF or CR as LF, and so do we: such a tag is read again with each of them written as a character reference.
 */
const rawBreak = /[\t\n\r]/;
const rawBreaks = /\t|\r\n?|\n/g;
/** The quoted values of a start tag, left to right (in a tag saxes has read, a quote only opens or closes one). */
const quotedValue = /"[^"]*"|'[^']*'/g;

/** No namespace processing: names stay as written, prefixes and all; no line and column kept. */
const options = { xmlns: false, position: false, defaultXMLVersion: '1.0' } as const;

/** Thrown inside saxes's handlers to stop it: the checked reader is to answer, or, past its share, this message. */
class Declined extends Error {}

export interface XmlBodyScan {
  /** Reads the text up to `end` (exclusive); false once the scan has declined, so the rest need not be read. */
  readTo(end: number): boolean;
  /** Reads the rest: the `request` element, or what the scan read of it before it declined. */
  finish(): XmlScanResult;
}

/**
 * What the scan read: the whole `request` element; or, where it declined, the rows directly under the root that
 * it read whole, which fill `text.slice(from, to)` (with the blank text, comments and instructions between them),
 * so the checked reader need not read them again.
 */
export type XmlScanResult =
  | { readonly declined: false; readonly root: XmlElement }
  | {
      readonly declined: true;
      readonly rows: readonly XmlElement[];
      readonly from: number;
      readonly to: number;
      /** Why the scan declined, as a 400 says it, for a body too big for the checked reader to read in one piece. */
      readonly reason: string;
    };

/**
 * saxes keeps its handlers as properties of the parser: past seven of them V8 turns the parser into a slow
 * dictionary object and saxes runs four times slower. So seven handlers at most: the error handler declines every
 * error but one (anything thrown while scanning declines), and the declaration's version is read at the root's
 * start tag. The handlers share the scan's state, so they and the scan's two methods are one closure, one function.
 */
export function scanXmlBody(text: string): XmlBodyScan {
  const parser = new SaxesParser(options);
  const top: { children: XmlElement[] } = { children: [] };
  const open: { children: XmlElement[] }[] = [top];
  const names = plainNames();
  let attributes: Record<string, string> = {};
  /** Where the root's content starts, and where its last row read whole ends. */
  let rowsStart = 0;
  let rowsEnd = 0;
  /** Where the scan is, as a message says it. */
  const here = () => lineAndColumn(text, parser.position);
  const decline = (message: string): never => {
    throw new Declined(message);
  };
  parser.on('doctype', () =>
    decline(`The XML body declares a DOCTYPE at ${here()}; request bodies may not declare one`),
  );
  parser.on('error', (error) => {
    // `--` inside a comment: XML forbids it, but fast-xml-parser reads it as comment up to the first `-->`, and saxes,
    // once it has said so, reads on the same way; but for `---`, where saxes would read past that `-->`
    if (error.message.endsWith('malformed comment.') && text[parser.position - 1] !== '-') return;
    // saxes finds text outside the root at the end of a run of text in the slice it reads, so no position for it
    if (error.message.startsWith('text data outside of root node')) {
      decline('The XML body has text outside the root element; only elements and attributes are allowed');
    }
    decline(`The XML body is malformed at ${here()}: ${error.message.replace(/\.$/, '')}`);
  });
  const checkText = (data: string) => {
    const shown = data.trim();
    if (shown === '') return;
    // saxes reports text at the `<` after it: find where it starts, when it is written as read (no references)
    const start = text.lastIndexOf(shown, parser.position);
    const where = start === -1 ? here() : lineAndColumn(text, start);
    decline(strayText(data, (open[open.length - 1] as Partial<XmlElement>).name, where));
  };
  parser.on('text', checkText);
  parser.on('cdata', checkText);
  // saxes checks the attributes (no repeated name) before it reports the start tag
  parser.on('attribute', ({ name, value }) => {
    if (!names.plain(name)) decline(unreadName(name, here()));
    if (isValue(name)) attributes[name] = value;
  });
  parser.on('opentag', ({ name }) => {
    if (!names.plain(name)) decline(unreadName(name, here()));
    if (open.length > maxDepth) decline(`The XML body nests elements more than ${maxDepth} deep, at ${here()}`);
    // XML 1.1 turns more characters into line breaks and spaces than fast-xml-parser does
    const version = parser.xmlDecl.version ?? '1.0';
    if (open.length === 1 && version !== '1.0') {
      decline(`The XML body declares XML ${version}; a body this big is read only as XML 1.0`);
    }
    // the tag as written: no `<` inside it, since saxes refuses one in a value
    const end = parser.position;
    const tag = text.slice(text.lastIndexOf('<', end - 1), end);
    const element = { name, attributes: hasRawBreak(tag) ? attributesAsWritten(tag) : attributes, children: [] };
    attributes = {};
    (open[open.length - 1] as { children: XmlElement[] }).children.push(element);
    open.push(element);
    if (open.length === 2) rowsStart = rowsEnd = end;
  });
  parser.on('closetag', ({ name, isSelfClosing }) => {
    // saxes reports an element left open as closed, then fails on the closing tag that does not match it
    const end = parser.position;
    const closing = isSelfClosing ? name : text.slice(text.lastIndexOf('</', end - 1) + 2, end - 1).trimEnd();
    if (closing !== name) decline(`The XML body is malformed at ${here()}: </${closing}> where </${name}> belongs`);
    open.pop();
    if (open.length === 2) rowsEnd = end;
  });
  const long = longReference.exec(text);
  let reason =
    long === null
      ? undefined
      : `The XML body has a character reference of more than 20 characters at ${lineAndColumn(text, long.index)}`;
  let read = 0;
  const run = (work: () => void): boolean => {
    if (reason !== undefined) return false;
    try {
      work();
    } catch (error) {
      reason = error instanceof Declined ? error.message : `The XML body cannot be read at ${here()}`;
    }
    return reason === undefined;
  };
  return {
    readTo(end) {
      return run(() => {
        if (end > read) parser.write(text.slice(read, end));
        read = Math.max(read, end);
      });
    },
    finish() {
      const whole = run(() => parser.write(text.slice(read)).close());
      const [root] = top.children;
      if (whole && root?.name === 'request') return { declined: false, root };
      // the rows closed before the scan declined: those that end by rowsEnd, so not a row left open
      const rows = root === undefined || rowsEnd === rowsStart ? [] : rowsUpTo(root, open.length > 2);
      const why = reason ?? `The XML body's root element is ${root?.name ?? 'missing'}; expected request`;
      return { declined: true, rows, from: rowsStart, to: rowsEnd, reason: why };
    },
  };
}

/** The rows of `root`, less the last one when it is still open. */
function rowsUpTo(root: XmlElement, lastOpen: boolean): XmlElement[] {
  return lastOpen ? root.children.slice(0, -1) : [...root.children];
}

function unreadName(name: string, where: string): string {
  return `The XML body has the name ${JSON.stringify(name)} at ${where}; a body this big may use only XML names of the Basic Multilingual Plane, and not __proto__, constructor or prototype`;
}

/** Names both readers take alike; a body repeats a few names many times, so each is tested once. */
function plainNames(): { plain(name: string): boolean } {
  const seen = new Set<string>();
  return {
    plain(name) {
      if (seen.has(name)) return true;
      if (!plainName.test(name) || refusedNames.has(name)) return false;
      seen.add(name);
      return true;
    },
  };
}

/** Namespace declarations are not values. */
function isValue(name: string): boolean {
  return name !== 'xmlns' && !name.startsWith('xmlns:');
}

/** Whether a value in the text of a start tag holds a tab or line break as written. */
function hasRawBreak(tag: string): boolean {
  return rawBreak.test(tag) && (tag.match(quotedValue)?.some((value) => rawBreak.test(value)) ?? false);
}

/** The values of a start tag, tabs and line breaks kept: saxes keeps the character a character reference names. */
function attributesAsWritten(tag: string): Record<string, string> {
  const escaped = tag.replace(quotedValue, (value) => value.replace(rawBreaks, (c) => (c === '\t' ? '&#9;' : '&#10;')));
  const attributes: Record<string, string> = {};
  const parser = new SaxesParser(options);
  parser.on('attribute', ({ name, value }) => {
    if (isValue(name)) attributes[name] = value;
  });
  parser.write(escaped.endsWith('/>') ? escaped : `${escaped.slice(0, -1)}/>`).close();
  return attributes;
}
