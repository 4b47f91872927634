/**
 * Text helpers every stage may use: escaping for XML attributes and HTML, decoding a percent-encoded name that
 * may not be valid percent-encoding, and where a position is in a text. One table of character references. Pure.
 */

const references: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters XML 1.0 forbids.
const notXmlCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

const xmlAttributeReferences = /[&<>"\t\n\r]/g;

/** Any character escapeXmlAttribute rewrites: most values have none, and one test says so. */
const xmlAttributeSpecial = new RegExp(`${xmlAttributeReferences.source}|${notXmlCharacters.source}`);

/**
 * An XML attribute value: & < > " escaped, and tabs and line breaks too, which a parser would otherwise turn
 * into spaces (attribute-value normalization). Characters XML 1.0 cannot carry at all, even as references,
 * become U+FFFD so the document stays well formed.
 */
export function escapeXmlAttribute(text: string): string {
  if (!xmlAttributeSpecial.test(text)) return text;
  return text.replace(xmlAttributeReferences, (c) => references[c] ?? c).replace(notXmlCharacters, '\uFFFD');
}

/** HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => references[c] ?? c);
}

/** A percent-encoded name, decoded; as written when it is not valid percent-encoding (a stray %). */
export function decodeLenient(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `line L, column C` of a position in a text (UTF-16 code units, as JavaScript counts), as parse errors say it. */
export function lineAndColumn(text: string, index: number): string {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < lineStart; at = text.indexOf('\n', at + 1)) lines++;
  return `line ${lines}, column ${index - lineStart + 1}`;
}
